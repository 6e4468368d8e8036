import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

// Tests are bundled to out/test/<dir>/; the repository root is three levels up.
const SRC = join(__dirname, '../../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Our files a file imports: static, type-only, re-exports, dynamic import() and require() alike. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles.flatMap(({ fileName }) => {
    if (!fileName.startsWith('.')) return [];
    const base = resolve(dirname(file), fileName);
    return [`${base}.ts`, join(base, 'index.ts')].filter((p) => existsSync(p)).slice(0, 1);
  });
}

/** Every strongly connected group of more than one file (Tarjan), as paths under src/. */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      group.push(relative(SRC, w));
    } while (w !== v);
    if (group.length > 1 || graph.get(v)!.includes(v)) found.push(group.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('imports under src/', () => {
  it('form no cycle of files, type-only and dynamic imports included', () => {
    const graph = new Map(sourceFiles(SRC).map((f) => [f, importsOf(f)]));
    assert.ok(graph.size > 100 && [...graph.values()].some((to) => to.length > 0), 'the walk found the sources');
    assert.deepEqual(cycles(graph), []);
  });

  it('are found when a cycle is closed only by a type import or a dynamic import()', () => {
    const a = join(SRC, 'a.ts');
    const b = join(SRC, 'b.ts');
    assert.deepEqual(
      cycles(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ),
      [['a.ts', 'b.ts']],
    );
    const { importedFiles } = ts.preProcessFile(
      "import type { X } from './x';\nexport type { Y } from './y';\nconst z = () => import('./z');\nrequire('./w');",
      true,
      true,
    );
    assert.deepEqual(
      importedFiles.map((f) => f.fileName),
      ['./x', './y', './z', './w'],
    );
  });
});
