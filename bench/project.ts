/** Generates a synthetic TypeScript project for benchmarks: `files` modules of `functions` functions each. */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function syntheticProject(files: number, functions: number, linesPerFunction = 12): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'skeptic-bench-'));
  await mkdir(join(root, 'src'), { recursive: true });
  for (let f = 0; f < files; f++) {
    const body: string[] = [`/** Module ${f}: arithmetic helpers. */`];
    for (let g = 0; g < functions; g++) {
      body.push(`export function m${f}f${g}(xs: number[], k: number): number {`, '  let acc = 0;');
      for (let l = 0; l < linesPerFunction - 4; l++) body.push(`  acc += (xs[${l}] ?? 0) * k + ${l};`);
      body.push('  return acc;', '}', '');
    }
    await writeFile(join(root, 'src', `mod${f}.ts`), body.join('\n'));
  }
  return root;
}
