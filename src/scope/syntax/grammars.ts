/**
 * The tree-sitter runtime and grammars (WASM from @vscode/tree-sitter-wasm, the builds VS Code itself
 * uses). Nothing loads until a file of that language is parsed; each grammar compiles once per process.
 * Bundles find the files in `tree-sitter/` beside themselves (esbuild.mjs copies them there); test
 * bundles find them in the installed package.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Parser } from '@vscode/tree-sitter-wasm';
import grammarByExtension from './grammars.json';

/**
 * Grammar file stem per extension (esbuild.mjs ships exactly these). C has no grammar of its own in the
 * package: the C++ grammar parses it.
 */
const GRAMMAR_BY_EXTENSION: Record<string, string> = grammarByExtension;

/** The grammar that parses files with this extension, or null. */
export function grammarFor(extension: string): string | null {
  return GRAMMAR_BY_EXTENSION[extension] ?? null;
}

/** `tree-sitter/` beside the bundle, else the installed package in the nearest node_modules above it. */
let wasmDir: string | undefined;
function locate(): string {
  if (wasmDir) return wasmDir;
  const candidates: string[] = [];
  for (let dir = __dirname, up = ''; dir !== up; up = dir, dir = dirname(dir)) {
    candidates.push(join(dir, 'tree-sitter'), join(dir, 'node_modules', '@vscode', 'tree-sitter-wasm', 'wasm'));
  }
  const found = candidates.find((d) => existsSync(join(d, 'tree-sitter.wasm')));
  if (!found) throw new Error(`tree-sitter WASM files not found beside ${__dirname}`);
  wasmDir = found;
  return found;
}

let runtime: Promise<typeof import('@vscode/tree-sitter-wasm')> | undefined;
const parsers = new Map<string, Promise<Parser>>();

/**
 * The parser for `grammar`, loading the runtime and the grammar on first use. Parsing is synchronous, so
 * one parser per grammar serves the whole process. Rejects when the WASM cannot be found or loaded.
 */
export function parserFor(grammar: string): Promise<Parser> {
  let parser = parsers.get(grammar);
  if (!parser) {
    // The runtime's own code too is evaluated only here, with the first file parsed.
    runtime ??= import('@vscode/tree-sitter-wasm').then(async (ts) => {
      await ts.Parser.init({ locateFile: (file: string) => join(locate(), file) });
      return ts;
    });
    parser = runtime.then(async ({ Language, Parser }) =>
      new Parser().setLanguage(await Language.load(join(locate(), `tree-sitter-${grammar}.wasm`))),
    );
    parsers.set(grammar, parser);
  }
  return parser;
}
