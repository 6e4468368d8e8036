/**
 * A plan's quick guess at a file's functions, where a scope has too many files to parse for a forecast
 * (app/inventories.ts): one pass of a few line patterns over the whole text, at any indentation, so that it
 * sees what the parser sees — nested functions, methods of nested classes, namespaced C++, test cases — where
 * the regex fallback (../functionFinder.ts) looks at top-level declarations only. Each function ends where
 * the next starts. It only sizes an estimate: a review always parses.
 */
import { ownName, type CodeFunction, type FunctionInventory } from '../../model/functions';
import { languageOf } from '../../model/languages';
import { C_KEYWORDS as FALLBACK_C_KEYWORDS } from '../functionFinder';

/**
 * A pattern whose match starts a function: its name is the last group that matched. Sticky (`y`): it is tried
 * only where a line starts, not at every character, as a global `^…/gm` search would.
 */
interface LinePattern {
  pattern: RegExp;
  kind: string;
  /** What every match holds before its first line feed: a line without it is not tried. */
  needs?: string;
  /** The text from the end of the match decides: e.g. a C signature has a body only if `{` comes before `;`. */
  accept?: (text: string, from: number) => boolean;
}

const NAME = String.raw`[A-Za-z_$][\w$]*`;
/** A function value in JavaScript: `function`, `(a, b) =>`, `a =>`, with `async` and a return type. */
const JS_VALUE = String.raw`(?:async\s+)?(?:function\b|(?:\([^)\n]*\)|${NAME})\s*(?::[^=\n]+)?=>)`;
const JS_KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'catch', 'with', 'function', 'return', 'await', 'typeof']);
const JS_MODIFIERS = String.raw`(?:(?:public|private|protected|static|async|override|readonly|get|set)\s+)*`;

const javascript: LinePattern[] = [
  // it('adds', () => …), test.only(…), and the hooks: what the parser counts of a test file.
  { pattern: /^[ \t]*(?:it|test|specify)(?:\.\w+)*\s*\(\s*(['"`])(.*?)\1\s*,/my, kind: 'test' },
  { pattern: /^[ \t]*(before|after|beforeEach|afterEach|beforeAll|afterAll)\s*\(/my, kind: 'hook' },
  {
    pattern: new RegExp(
      String.raw`^[ \t]*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*(${NAME})\s*[<(]`,
      'my',
    ),
    kind: 'function',
    // An overload or a `declare` has no body.
    accept: bodyBeforeSemicolon,
  },
  // A binding, field or assignment of a function value: `const f = () =>`, `x = function`, `exports.f = …`; a
  // binding may spread its parameters over the next lines.
  {
    pattern: new RegExp(
      String.raw`^[ \t]*(?:export\s+)?(?:const|let|var)\s+(${NAME})\s*(?::[^=\n]+)?=\s*(?:${JS_VALUE}|\($)`,
      'my',
    ),
    kind: 'function',
  },
  {
    pattern: new RegExp(String.raw`^[ \t]*${JS_MODIFIERS}(#?[\w$.]+)\s*(?::[^=\n]+)?=\s*${JS_VALUE}`, 'my'),
    kind: 'method',
  },
  // A key with a function value; an arrow only with a block, as `key: () => void` is also how a type says it.
  {
    pattern: new RegExp(
      String.raw`^[ \t]*(['"]?)(${NAME})\1\s*:\s*(?:async\s+)?(?:function\b|(?:\([^)\n]*\)|${NAME})\s*=>\s*\{)`,
      'my',
    ),
    kind: 'method',
  },
  // A method: `name(params) {` (a signature spread over lines is not seen).
  {
    pattern: new RegExp(
      String.raw`^[ \t]*${JS_MODIFIERS}\*?\s*(#?${NAME})\s*(?:<[^>\n]*>)?\s*\([^;\n]*\)\s*(?::\s*[^{;\n]+)?\{`,
      'my',
    ),
    kind: 'method',
  },
];

const python: LinePattern[] = [
  { pattern: /^[ \t]*(?:async[ \t]+)?def[ \t]+(\w+)[ \t]*\(/my, kind: 'function', needs: 'def' },
  { pattern: /^[ \t]*(\w+)[ \t]*=[ \t]*lambda\b/my, kind: 'lambda', needs: 'lambda' },
];

/** The fallback's C keywords, and what a line may start with at any indentation but never names a function. */
const C_KEYWORDS = new Set([
  ...FALLBACK_C_KEYWORDS,
  'defined',
  'decltype',
  'alignas',
  'alignof',
  'static_assert',
  '__attribute__',
  '__declspec',
]);

/** C, C++, Java, C#: a name and `(` at any indentation, not a directive, whose body opens before any `;`. */
const cFamily: LinePattern[] = [
  {
    pattern: /^[ \t]*(?!#)(?:[\w:<>,*&[\] \t]*?[ \t*&])?(~?[A-Za-z_][\w:]*|operator[^(\n]*)[ \t]*\(/my,
    kind: 'function',
    accept: bodyBeforeSemicolon,
    needs: '(',
  },
  { pattern: /^[ \t]*(?:auto|const\s+auto)[ \t]+(\w+)[ \t]*=[ \t]*\[[^\]\n]*\][ \t]*\(/my, kind: 'lambda' },
];

const PATTERNS: Record<string, LinePattern[]> = {
  typescript: javascript,
  javascript,
  python,
  c: cFamily,
  cpp: cFamily,
  java: cFamily,
  csharp: cFamily,
};

/** How far a C signature may run before its body or its `;`. */
const SIGNATURE_CHARS = 400;

/** `{` comes before `;` (and before `}`, which would end the scope the signature is in). */
function bodyBeforeSemicolon(text: string, from: number): boolean {
  const end = Math.min(text.length, from + SIGNATURE_CHARS);
  for (let i = from; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 123 /* { */) return true;
    if (c === 59 /* ; */ || c === 125 /* } */) return false;
  }
  return false;
}

/** The quick finder's inventory, or undefined for a language it has no patterns for. */
export function quickInventory(path: string, text: string): FunctionInventory | undefined {
  const patterns = PATTERNS[languageOf(path)];
  if (!patterns) return undefined;
  const lines = lineStarts(text);
  const anchors = anchorsOf(text, lines);
  const starts: Array<{ at: number; name: string; kind: string }> = [];
  for (const { pattern, kind, accept, needs } of patterns)
    for (const m of matches(text, anchors, pattern, needs)) {
      const name = lastName(m);
      if (name && !C_KEYWORDS.has(name) && !JS_KEYWORDS.has(name) && (!accept || accept(text, m.index + m[0].length)))
        starts.push({ at: m.index, name, kind });
    }
  starts.sort((a, b) => a.at - b.at);
  const seen = new Map<string, number>();
  const functions: CodeFunction[] = [];
  let previousLine = 0;
  for (const s of starts) {
    const line = lineOf(lines, s.at);
    // Two patterns on one line are one function.
    if (line === previousLine) continue;
    previousLine = line;
    const n = (seen.get(s.name) ?? 0) + 1;
    seen.set(s.name, n);
    const name = ownName(n > 1 ? `${s.name}#${n}` : s.name);
    functions.push({ qualified_name: name, kind: s.kind, visibility: 'public', start_line: line, end_line: line });
  }
  const last = lines.length;
  functions.forEach((f, i) => (f.end_line = Math.max(f.start_line, (functions[i + 1]?.start_line ?? last + 1) - 1)));
  return { parser: 'regex', functions };
}

/**
 * The matches a global search with the pattern would find (`^` with the `m` flag holds at each anchor), each
 * tried only at an anchor, and only where `needs` comes before the line's end.
 */
function* matches(
  text: string,
  anchors: number[],
  pattern: RegExp,
  needs: string | undefined,
): Generator<RegExpExecArray> {
  // The next `needs` and the next line feed at or after the anchor, each searched for once.
  let need = -1;
  let feed = -1;
  for (let i = 0; i < anchors.length; i++) {
    const at = anchors[i]!;
    if (needs !== undefined) {
      if (need < at) need = text.indexOf(needs, at);
      if (need === -1) return;
      if (feed < at) feed = text.indexOf('\n', at) >>> 0;
      if (feed < need) continue;
    }
    pattern.lastIndex = at;
    const m = pattern.exec(text);
    if (!m) continue;
    yield m;
    // A global search goes on from the match's end.
    const end = m.index + m[0].length;
    while (i + 1 < anchors.length && anchors[i + 1]! < end) i++;
  }
}

/** Where `^` holds in a multiline pattern: the start, and after every line terminator (`\r`, U+2028, U+2029 too). */
function anchorsOf(text: string, lines: number[]): number[] {
  if (!text.includes('\r') && !text.includes('\u2028') && !text.includes('\u2029')) return lines;
  const anchors = [0];
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13 || c === 0x2028 || c === 0x2029) anchors.push(i + 1);
  }
  return anchors;
}

/** The last group that matched, quotes aside: the function's name. */
function lastName(m: RegExpExecArray): string {
  for (let i = m.length - 1; i > 0; i--) if (m[i] && !/^['"`]$/.test(m[i]!)) return m[i]!;
  return '';
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1 && i < text.length - 1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The 1-based line of offset `at`. */
function lineOf(starts: number[], at: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** What decides what the quick finder reports, for its version (./version.ts). */
export const QUICK_FINDER = JSON.stringify([
  String(quickInventory),
  String(bodyBeforeSemicolon),
  [...C_KEYWORDS, ...JS_KEYWORDS],
  String(matches),
  Object.entries(PATTERNS).map(([language, patterns]) => [
    language,
    patterns.map((p) => [String(p.pattern), p.kind, p.needs]),
  ]),
]);
