/**
 * The unchanged places a change may break: for each function whose signature line the change touched (its
 * parameters, return type, async-ness) and each function it removed, the lines in the review roots that name
 * it, found by git grep and kept only where the parser sees the name in code (not in a comment or a string).
 * Bounded: the reviewer gets a short list, not a search result.
 */
import { extname } from 'node:path';
import type { FileAccess } from '../model/access';
import type { FunctionInventory } from '../model/functions';
import { overlaps, type LineRange } from '../model/lines';
import type { RemovedHunk } from '../model/removed';
import { git } from '../io/git';
import { grammarFor, parserFor } from '../scope/syntax/grammars';

/** Per file under review, per function (its qualified name, or `name (removed)`): `path:line  the line`. */
export type Callers = Map<string, Record<string, string[]>>;

export const MAX_CALLERS = 20;
/** Changed functions a change may look callers up for: a sweeping change is reviewed without the lists. */
export const MAX_FUNCTIONS = 40;
const LINE_CHARS = 160;

/** What a removed line defines, in the languages whose definitions say so in one line. */
const DEFINES = [
  /\b(?:function\*?|def|fn|func)\s+([A-Za-z_$][\w$]*)/,
  /^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?(?:\(|function\b)/,
  /^\s*(?:(?:public|private|protected|static|async|override)\s+)*([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*(?::[^{]*)?\{\s*$/,
];
const NOT_NAMES = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'constructor', 'function']);

/** Where git grep runs and what it may read: the review roots, through the run's FileAccess. */
export interface SearchInput {
  cwd: string;
  roots: string[];
  access: FileAccess;
}

export interface CallerInput extends SearchInput {
  changedRanges: Map<string, LineRange[]>;
  removedLines?: Map<string, RemovedHunk[]>;
  inventoryOf: (path: string) => Promise<FunctionInventory | undefined>;
}

export async function findCallers(input: CallerInput): Promise<Callers> {
  const wanted: Array<{ file: string; key: string; name: string; own: LineRange | null }> = [];
  for (const [file, ranges] of input.changedRanges) {
    const functions = (await input.inventoryOf(file).catch(() => undefined))?.functions ?? [];
    const runs = input.removedLines?.get(file) ?? [];
    // A signature line the change replaced (a removal only below it marks it too, but leaves it as it was).
    const replaced = (at: number) =>
      overlaps([at, at], ranges) && runs.some((r) => at >= r.before && at < r.before + r.lines.length + r.omitted);
    for (const f of functions) {
      if (f.visibility === 'private' || !replaced(f.signature_line ?? f.start_line)) continue;
      wanted.push({ file, key: f.qualified_name, name: lastName(f.qualified_name), own: [f.start_line, f.end_line] });
    }
    const still = new Set(functions.map((f) => lastName(f.qualified_name)));
    for (const run of runs)
      for (const line of run.lines) {
        const name = definedName(line);
        if (name && !still.has(name)) wanted.push({ file, key: `${name} (removed)`, name, own: null });
      }
  }
  const out: Callers = new Map();
  for (const w of wanted.slice(0, MAX_FUNCTIONS)) {
    if (!searchable(w.name)) continue;
    const found = await placesNaming(input, w.name, (path, line) => path === w.file && (!w.own || inside(line, w.own)));
    if (found.length) out.set(w.file, { ...out.get(w.file), [w.key]: found.map(shownPlace) });
  }
  return out;
}

/** A name worth a search: not a keyword, not so short that it names everything. */
export const searchable = (name: string) => name.length >= 3 && !NOT_NAMES.has(name);
const lastName = (qualified: string) => qualified.replace(/#\d+$/, '').split('.').at(-1)!;
const inside = (line: number, [from, to]: LineRange) => line >= from && line <= to;

export function definedName(line: string): string | null {
  for (const re of DEFINES) {
    const name = re.exec(line)?.[1];
    if (name && !NOT_NAMES.has(name)) return name;
  }
  return null;
}

export interface Place {
  path: string;
  line: number;
  text: string;
}

/** A place as the reviewer reads it: `path:line  the line`, the line trimmed and cut. */
export function shownPlace({ path, line, text }: Place): string {
  const shown = text.trim();
  return `${path}:${line}  ${shown.length > LINE_CHARS ? `${shown.slice(0, LINE_CHARS)}…` : shown}`;
}

/** The first MAX_CALLERS lines in the roots that name `name` in code, `skip` left out. */
export async function placesNaming(
  input: SearchInput,
  name: string,
  skip: (path: string, line: number) => boolean,
): Promise<Place[]> {
  // Exit 1 is "nothing found"; any other failure leaves the list empty too: the review goes on without it.
  const hits = await git(
    ['grep', '-n', '-w', '-F', '-I', '--no-color', '-e', name, '--', ...input.roots],
    input.cwd,
  ).catch(() => '');
  const out: Place[] = [];
  const texts = new Map<string, Promise<string | null>>();
  for (const hit of hits.split('\n')) {
    if (out.length >= MAX_CALLERS) break;
    const m = /^(.+?):(\d+):(.*)$/.exec(hit);
    if (!m) continue;
    const [, path, n, text] = m as unknown as [string, string, string, string];
    const line = Number(n);
    if (skip(path, line)) continue;
    if (!texts.has(path))
      texts.set(
        path,
        input.access.read(path).catch(() => null),
      );
    const source = await texts.get(path)!;
    if (source === null || !(await inCode({ path, line, text }, source, name))) continue;
    out.push({ path, line, text });
  }
  return out;
}

/** Whether the parser sees `name` on that line outside comments and strings (a file no grammar parses is not code). */
async function inCode({ path, line, text }: Place, source: string, name: string): Promise<boolean> {
  const grammar = grammarFor(extname(path).slice(1));
  const parser = grammar ? await parserFor(grammar).catch(() => null) : null;
  const tree = parser?.parse(source);
  if (!tree) return false;
  try {
    for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
      const column = Buffer.byteLength(text.slice(0, at));
      const node = tree.rootNode.descendantForPosition({ row: line - 1, column });
      if (node && !/comment|string|template/.test(node.type) && !/comment|string/.test(node.parent?.type ?? ''))
        return true;
    }
    return false;
  } finally {
    tree.delete();
  }
}
