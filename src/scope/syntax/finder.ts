/**
 * A file's function inventory from its syntax tree: every function-like definition with its qualified
 * name, kind, visibility and exact lines. Languages without a grammar fall back to the regex finder
 * (top-level declarations only); a file that cannot be parsed at all has no inventory (null).
 */
import { Query, type Node, type Parser } from '@vscode/tree-sitter-wasm';
import type { CodeFunction, FunctionInventory } from '../../model/functions';
import { fallbackInventory } from '../functionFinder';
import { extensionOf } from '../../model/languages';
import { grammarFor, parserFor } from './grammars';
import { RULES, type LanguageRules, type Owner } from './languageRules';

/** Siblings written just above a definition that belong to it (with the comments right above them). */
const LEADING = new Set(['decorator', 'attribute_item']);
/** Nodes that wrap a definition on its own first line (`export`, `const f = …`, `@dec def`, `template<…>`): its doc comment sits above them. */
const WRAPPERS = new Set([
  'export_statement',
  'lexical_declaration',
  'variable_declaration',
  'expression_statement',
  'ambient_declaration',
  'decorated_definition',
  'template_declaration',
  'field_declaration',
  'var_declaration',
  'short_var_declaration',
]);

export async function functionInventory(path: string, text: string): Promise<FunctionInventory | null> {
  const grammar = grammarFor(extensionOf(path));
  const rule = grammar ? RULES[grammar] : undefined;
  if (grammar && rule) {
    const parser = await parserFor(grammar).catch(() => null);
    const tree = parser?.parse(text);
    if (parser && tree) {
      try {
        return {
          parser: 'syntax',
          functions: unique(definitions(tree.rootNode, rule, queryFor(grammar, parser, rule))),
        };
      } finally {
        tree.delete();
      }
    }
  }
  return fallbackInventory(path, text, Boolean(grammar));
}

interface Scope {
  path: string[];
  owner: Owner;
}

/**
 * Per grammar, a query for the nodes its rule looks at. The query runs inside the WASM and hands back only
 * those nodes: walking every node from JavaScript cost twice the parse itself, and each node handed back
 * costs round trips, so a type's pattern (languageRules.ts) leaves out the nodes its rule would dismiss.
 */
const queries = new Map<string, Query>();
function queryFor(grammar: string, parser: Parser, rule: LanguageRules): Query {
  let query = queries.get(grammar);
  if (!query) {
    const language = parser.language!;
    const has = (t: string) => language.idForNodeType(t, true) !== null;
    const oneOf = (types: Iterable<string>) =>
      `[${[...types]
        .filter(has)
        .map((t) => `(${t})`)
        .join(' ')}]`;
    // One rule serves grammars that lack some of its types (C files go through the C++ grammar); a pattern
    // this grammar cannot compile falls back to the whole type.
    const patterns = [...rule.types].filter(has).map((t) => {
      const pattern = rule.patterns?.[t]?.(oneOf);
      if (!pattern) return `(${t}) @node`;
      try {
        new Query(language, pattern).delete();
        return pattern;
      } catch {
        return `(${t}) @node`;
      }
    });
    query = new Query(language, patterns.join('\n'));
    queries.set(grammar, query);
  }
  return query;
}

/**
 * The definitions among the query's nodes, in document order, each named within the scopes that enclose it:
 * a node is inside an earlier one until it starts where that one ends.
 */
function definitions(root: Node, rules: LanguageRules, query: Query): CodeFunction[] {
  const out: CodeFunction[] = [];
  const top: Scope = { path: [], owner: 'top' };
  const open: Array<{ end: number; scope: Scope }> = [];
  // Outer nodes first where two start together, whichever pattern caught them; a node that a pattern
  // matches in several ways (a call with two functions among its arguments) is handed back once each way.
  const nodes = query
    .captures(root)
    .map((c) => c.node)
    .sort((a, b) => a.startIndex - b.startIndex || b.endIndex - a.endIndex)
    .filter((n, i, all) => i === 0 || n.id !== all[i - 1]!.id);
  for (const node of nodes) {
    while (open.length && node.startIndex >= open.at(-1)!.end) open.pop();
    const scope = open.at(-1)?.scope ?? top;
    const seen = rules.visit(node, scope.owner, scope.path.at(-1));
    if (seen && 'container' in seen)
      open.push({ end: node.endIndex, scope: { path: [...scope.path, seen.container], owner: 'container' } });
    else if (seen) {
      const { name, kind, visibility, span = node } = seen.fn;
      out.push({
        qualified_name: [...scope.path, name].join('.'),
        kind,
        visibility,
        start_line: startLine(span),
        end_line: endLine(span),
        signature_line: node.startPosition.row + 1,
      });
      open.push({ end: node.endIndex, scope: { path: [...scope.path, name], owner: 'function' } });
    }
  }
  return out;
}

/**
 * Where a definition starts: above its wrappers, decorators and attributes, and above the comments written
 * right over them (a doc comment belongs to its function: Step 3 may cite it, a diff that edits it touches it).
 */
function startLine(node: Node): number {
  let first = node;
  while (first.parent && WRAPPERS.has(first.parent.type) && first.parent.startPosition.row === first.startPosition.row)
    first = first.parent;
  for (
    let s = first.previousNamedSibling;
    s && (LEADING.has(s.type) || isLeadingComment(s, first));
    s = s.previousNamedSibling
  )
    first = s;
  return first.startPosition.row + 1;
}

/** A comment on lines of its own (not a shebang) that ends on the line above `below`, with no blank line between. */
function isLeadingComment(node: Node, below: Node): boolean {
  if (!node.type.includes('comment') || node.text.startsWith('#!') || endLine(node) < below.startPosition.row)
    return false;
  const before = node.previousSibling;
  return !before || endLine(before) <= node.startPosition.row;
}

/** A node ending at column 0 ends on the line before (its last newline belongs to it). */
function endLine(node: Node): number {
  const end = node.endPosition;
  return end.column === 0 && end.row > node.startPosition.row ? end.row : end.row + 1;
}

/** Overloads and `#ifdef` branches repeat a name: the second is `name#2`, and so on. */
function unique(functions: CodeFunction[]): CodeFunction[] {
  const seen = new Map<string, number>();
  return functions.map((f) => {
    const n = (seen.get(f.qualified_name) ?? 0) + 1;
    seen.set(f.qualified_name, n);
    return n === 1 ? f : { ...f, qualified_name: `${f.qualified_name}#${n}` };
  });
}
