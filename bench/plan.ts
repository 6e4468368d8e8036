/** Times Step 0 (and the estimate) on a generated tree of many files, walked plainly and through git. */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { inventoryLookup } from '../src/app/inventories';
import { estimateStagedRun } from '../src/engine/staged';
import { takeInventory } from '../src/scope/inventory';
import { ReviewAccess } from '../src/scope/access';

async function bigTree(files: number): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'skeptic-plan-'));
  const perDir = 100;
  for (let d = 0; d < Math.ceil(files / perDir); d++) {
    const dir = join(root, `pkg${Math.floor(d / 10)}`, `mod${d}`);
    await mkdir(dir, { recursive: true });
    await Promise.all(
      Array.from({ length: Math.min(perDir, files - d * perDir) }, (_, i) =>
        writeFile(join(dir, `f${i}.ts`), `export function f${d}_${i}(x: number): number {\n  return x * ${i};\n}\n`),
      ),
    );
  }
  return root;
}

export async function benchPlan(files: number): Promise<string> {
  const root = await bigTree(files);
  const time = async (label: string) => {
    const t0 = performance.now();
    const inv = await takeInventory(['.'], { cwd: root });
    const t1 = performance.now();
    const access = await ReviewAccess.open({ cwd: root, roots: ['.'] });
    const est = await estimateStagedRun({
      access,
      discovery: inv.discovery,
      context: [],
      inventoryOf: inventoryLookup(access),
    });
    const t2 = performance.now();
    return `  ${label}: inventory ${((t1 - t0) / 1000).toFixed(2)} s (${inv.discovery.file_entries.length} files), estimate ${((t2 - t1) / 1000).toFixed(2)} s (${est.calls} calls)`;
  };
  const lines = [`plan on ${files} generated files`, await time('plain walk')];
  execFileSync('git', ['init', '-q'], { cwd: root });
  execFileSync('git', ['add', '-A'], { cwd: root });
  lines.push(await time('git repository (tracked)'));
  return lines.join('\n');
}
