/** Builds fixture trees on disk for tests: one file at a time, folders made as needed. */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export async function put(
  root: string,
  path: string,
  content: string | Buffer = `// ${path}\nconst x = 1;\n`,
): Promise<void> {
  const abs = join(root, ...path.split('/'));
  await mkdir(dirname(abs), { recursive: true });
  await writeFile(abs, content);
}

/** A TypeScript function of `lines` lines, each about 50 characters: sized code for window and batch tests. */
export const numericFunction = (name: string, lines: number): string =>
  [
    `export function ${name}(xs: number[], k: number): number {`,
    '  let acc = 0;',
    ...Array.from({ length: lines - 4 }, (_, j) => `  acc += xs.length > ${j} ? xs[${j}]! * k : 0; // step ${j}`),
    '  return acc;',
    '}',
  ].join('\n');
