/**
 * The fallback function finder, for files the syntax-tree finder (./syntax/) cannot parse: simple
 * per-language regexes over top-level declarations (column 0) and direct members of a top-level
 * class/impl. It cannot see where a function ends: each ends where the next one starts.
 */
import { ownName, type CodeFunction, type FunctionInventory, type Visibility } from '../model/functions';
import { languageOf } from '../model/languages';
import { splitLines } from '../model/lines';

export interface SourceLine {
  no: number;
  text: string;
}

interface Declaration {
  name: string;
  kind: string;
  visibility: Visibility;
}

interface Grammar {
  /** A column-0 line opening a class-like scope; group 1 is its name. */
  container?: RegExp;
  /** Python: a scope ends at the next column-0 line, not at a closing brace. */
  indentScoped?: boolean;
  /** `owner` is the enclosing container's name, or null at top level. */
  declaration(line: string, owner: string | null): Declaration | null;
}

const JS_FUNCTION = /^(export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*[<(]/;
const JS_ARROW =
  /^(export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|(?:\([^)]*\)|[A-Za-z_$][\w$]*)\s*(?::[^=]+)?=>|\($)/;
const JS_METHOD =
  /^((?:(?:public|private|protected|static|async|override|abstract|readonly|get|set)\s+)*)\*?\s*(#?[A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*\(.*[{(,]\s*$/;
const PY_DEF = /^(?:async\s+)?def\s+(\w+)\s*\(/;
const RUST_FN = /^(pub(\([^)]*\))?\s+)?(?:(?:const|async|unsafe|extern\s+"[^"]*")\s+)*fn\s+([A-Za-z_]\w*)/;
const GO_FUNC = /^func\s+(?:\(\s*(?:\w+\s+)?\*?\s*([A-Za-z_]\w*)(?:\[[^\]]*\])?\s*\)\s*)?([A-Za-z_]\w*)\s*[[(]/;
const C_FUNCTION = /^((?:[A-Za-z_][\w:<>,*&[\]\s]*?[\s*&]+)?)(~?[A-Za-z_][\w:]*)\s*\([^;]*$/;
/** Words a C-family call or statement starts with: never a function's name. */
export const C_KEYWORDS = new Set([
  'if',
  'for',
  'while',
  'switch',
  'return',
  'sizeof',
  'catch',
  'else',
  'do',
  'new',
  'delete',
  'throw',
  'case',
]);

const javascript: Grammar = {
  container: /^(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)/,
  declaration(line, owner) {
    if (owner === null) {
      const m = JS_FUNCTION.exec(line) ?? JS_ARROW.exec(line);
      return m ? { name: m[2], kind: 'function', visibility: m[1] ? 'public' : 'internal' } : null;
    }
    const m = JS_METHOD.exec(line);
    if (!m) return null;
    const modifiers = m[1].split(/\s+/);
    const name = m[2];
    const kind =
      name === 'constructor'
        ? 'constructor'
        : modifiers.some((w) => w === 'get' || w === 'set')
          ? 'accessor'
          : 'method';
    const visibility =
      modifiers.includes('private') || name.startsWith('#')
        ? 'private'
        : modifiers.includes('protected')
          ? 'internal'
          : 'public';
    return { name, kind, visibility };
  },
};

const python: Grammar = {
  container: /^class\s+(\w+)/,
  indentScoped: true,
  declaration(line, owner) {
    const name = PY_DEF.exec(line)?.[1];
    if (!name) return null;
    const dunder = /^__\w+__$/.test(name);
    const visibility = dunder
      ? 'public'
      : name.startsWith('__')
        ? 'private'
        : name.startsWith('_')
          ? 'internal'
          : 'public';
    return { name, kind: owner ? 'method' : 'function', visibility };
  },
};

const rust: Grammar = {
  container: /^impl\b(?:\s*<[^>]*>)?\s+(?:[\w:]+(?:<[^>]*>)?\s+for\s+)?([A-Za-z_]\w*)/,
  declaration(line, owner) {
    const m = RUST_FN.exec(line);
    if (!m) return null;
    const visibility = m[2] ? 'internal' : m[1] ? 'public' : 'private';
    return { name: m[3], kind: owner ? 'method' : 'function', visibility };
  },
};

const go: Grammar = {
  declaration(line) {
    const m = GO_FUNC.exec(line);
    if (!m) return null;
    const visibility = /^[A-Z]/.test(m[2]) ? 'public' : 'internal';
    return m[1]
      ? { name: `${m[1]}.${m[2]}`, kind: 'method', visibility }
      : { name: m[2], kind: 'function', visibility };
  },
};

/** C, C++, Java, C#: `<modifiers and return type> name(params` on a line with no `;` (not a prototype or call). */
const cFamily: Grammar = {
  container:
    /^(?:(?:public|private|protected|internal|abstract|final|static|sealed|partial)\s+)*(?:class|struct|interface|record)\s+([A-Za-z_]\w*)[^;]*$/,
  declaration(line, owner) {
    const m = C_FUNCTION.exec(line);
    if (!m || C_KEYWORDS.has(m[2])) return null;
    const prefix = m[1].split(/\s+/);
    // With no return type it is a call or a macro, except a constructor.
    if (!m[1] && !m[2].includes('::') && m[2] !== owner) return null;
    if (prefix.includes('private')) return { name: m[2], kind: owner ? 'method' : 'function', visibility: 'private' };
    const hidden =
      prefix.includes('protected') ||
      (owner === null && prefix.includes('static')) ||
      (owner !== null && !prefix.includes('public'));
    return { name: m[2], kind: owner ? 'method' : 'function', visibility: hidden ? 'internal' : 'public' };
  },
};

const GRAMMARS: Record<string, Grammar> = {
  typescript: javascript,
  javascript,
  python,
  rust,
  go,
  c: cFamily,
  cpp: cFamily,
  java: cFamily,
  csharp: cFamily,
};

/**
 * The fallback's inventory of a file: for one without a grammar, null where it finds nothing; for one with a
 * grammar its parser could not read (`grammar`), the list, empty or not.
 */
export function fallbackInventory(path: string, text: string, grammar: boolean): FunctionInventory | null {
  const found = findFunctions(
    languageOf(path),
    splitLines(text).map((t, i) => ({ no: i + 1, text: t })),
  );
  return found.length || grammar ? { parser: 'regex', functions: found } : null;
}

export function findFunctions(language: string, lines: SourceLine[]): CodeFunction[] {
  const grammar = GRAMMARS[language];
  if (!grammar) return [];
  const rows: CodeFunction[] = [];
  const add = (d: Declaration, line: number) =>
    rows.push({
      qualified_name: ownName(d.name),
      kind: d.kind,
      visibility: d.visibility,
      start_line: line,
      end_line: line,
    });
  let scope: { name: string; memberIndent: number | null } | null = null;
  for (const { no, text } of lines) {
    const line = text.trim();
    if (!line) continue;
    const indent = text.length - text.trimStart().length;
    if (scope && indent === 0 && (grammar.indentScoped || line.startsWith('}'))) scope = null;
    if (indent === 0) {
      const container = grammar.container?.exec(line);
      if (container) scope = { name: container[1], memberIndent: null };
      const d = container ? null : grammar.declaration(line, null);
      if (d) add(d, no);
    } else if (scope) {
      scope.memberIndent ??= indent;
      const d = indent === scope.memberIndent ? grammar.declaration(line, scope.name) : null;
      if (d) add({ ...d, name: `${scope.name}.${d.name}` }, no);
    }
  }
  const last = lines.at(-1)?.no ?? 0;
  return rows.map((r, i) => ({ ...r, end_line: Math.max(r.start_line, (rows[i + 1]?.start_line ?? last + 1) - 1) }));
}
