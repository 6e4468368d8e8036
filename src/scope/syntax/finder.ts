/**
 * A file's function inventory from its syntax tree: every function-like definition with its qualified
 * name, kind, visibility and exact lines. Languages without a grammar fall back to the regex finder
 * (top-level declarations only); a file that cannot be parsed at all has no inventory (null).
 */
import type { Node } from '@vscode/tree-sitter-wasm';
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
    if (tree) {
      try {
        return { parser: 'syntax', functions: unique(walk(tree.rootNode, rule)) };
      } finally {
        tree.delete();
      }
    }
  }
  const found = findFunctions(languageOf(path), splitLines(text).map((t, i) => ({ no: i + 1, text: t })));
  return found.length || grammar ? { parser: 'regex', functions: found } : null;
}

interface Scope {
  path: string[];
  owner: Owner;
}

/** Preorder over the tree with a cursor (no recursion: generated code nests deeper than the stack allows). */
function walk(root: Node, rules: LanguageRules): CodeFunction[] {
  const out: CodeFunction[] = [];
  const cursor = root.walk();
  // scopes[i] encloses the nodes at depth i below the root.
  const scopes: Scope[] = [{ path: [], owner: 'top' }];
  for (;;) {
    const scope = scopes[scopes.length - 1]!;
    let inner = scope;
    if (cursor.nodeIsNamed && rules.types.has(cursor.nodeType)) {
      const node = cursor.currentNode;
      const seen = rules.visit(node, scope.owner, scope.path.at(-1));
      if (seen && 'container' in seen) inner = { path: [...scope.path, seen.container], owner: 'container' };
      else if (seen) {
        const { name, kind, visibility, span = node } = seen.fn;
        out.push({ qualified_name: [...scope.path, name].join('.'), kind, visibility, start_line: startLine(span), end_line: endLine(span) });
        inner = { path: [...scope.path, name], owner: 'function' };
      }
    }
    if (cursor.gotoFirstChild()) {
      scopes.push(inner);
      continue;
    }
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) {
        cursor.delete();
        return out;
      }
      scopes.pop();
    }
  }
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
