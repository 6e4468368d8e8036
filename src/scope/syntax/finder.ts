/**
 * A file's function inventory from its syntax tree: every function-like definition with its qualified
 * name, kind, visibility and exact lines. Languages without a grammar fall back to the regex finder
 * (top-level declarations only); a file that cannot be parsed at all has no inventory (null).
 */
import { Query, type Node, type Parser } from '@vscode/tree-sitter-wasm';
import type { CodeFunction, FunctionInventory } from '../../model/functions';
import { findFunctions } from '../functionFinder';
import { extensionOf, languageOf } from '../../model/languages';
import { splitLines } from '../../model/lines';
import { grammarFor, parserFor } from './grammars';
import { RULES, type LanguageRules, type Owner } from './rules';

/** Siblings written just above a definition that belong to it. */
const LEADING = new Set(['decorator', 'attribute_item']);

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
  const found = findFunctions(
    languageOf(path),
    splitLines(text).map((t, i) => ({ no: i + 1, text: t })),
  );
  return found.length || grammar ? { parser: 'regex', functions: found } : null;
}

interface Scope {
  path: string[];
  owner: Owner;
}

/**
 * Per grammar, a query for the node types its rule looks at. The query runs inside the WASM and hands back
 * only those nodes: walking every node from JavaScript cost twice the parse itself.
 */
const queries = new Map<string, Query>();
function queryFor(grammar: string, parser: Parser, rule: LanguageRules): Query {
  let query = queries.get(grammar);
  if (!query) {
    const language = parser.language!;
    // One rule serves grammars that lack some of its types (C files go through the C++ grammar).
    const types = [...rule.types].filter((t) => language.idForNodeType(t, true) !== null);
    query = new Query(language, `[${types.map((t) => `(${t})`).join(' ')}] @node`);
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
  for (const { node } of query.captures(root)) {
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
      });
      open.push({ end: node.endIndex, scope: { path: [...scope.path, name], owner: 'function' } });
    }
  }
  return out;
}

function startLine(node: Node): number {
  let first = node;
  for (let s = node.previousNamedSibling; s && LEADING.has(s.type); s = s.previousNamedSibling) first = s;
  return first.startPosition.row + 1;
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
