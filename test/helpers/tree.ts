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
