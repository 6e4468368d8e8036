import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { planInventories, QUICK_FROM_FILES } from '../../src/app/inventories';
import type { PreparedJob } from '../../src/app/job';
import { prepareJob } from '../../src/app/prepareJob';
import { FINDER_VERSION, QUICK_FINDER_VERSION } from '../../src/scope/syntax/version';
import { put } from '../helpers/tree';

const source = (i: number) => `export function load${i}(x: number): number {\n  return x + ${i};\n}\n`;

describe('a plan of a large scope reads each file once: Step 0 counts the functions as it reads', function () {
  this.timeout(120_000);
  let cwd: string;
  const prepare = (paths: string[], plan: boolean) =>
    prepareJob(
      { cwd, scope: { kind: 'paths', paths }, excludes: [], contextFiles: [], includeUntracked: false },
      { plan },
    );
  const kept = async (prepared: PreparedJob) =>
    Promise.all(
      prepared.inventory.discovery.file_entries.map(
        async (e) => (await prepared.access.facts.of(resolve(cwd, e.path)))?.facts.functions,
      ),
    );

  beforeEach(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'skeptic-plan-one-read-'));
    for (let i = 0; i < QUICK_FROM_FILES; i++) await put(cwd, `src/m${Math.floor(i / 100)}/f${i}.ts`, source(i));
    // No grammar: never counted quickly, its inventory is the regex fallback's own, as quick.
    await put(cwd, 'src/NOTES.md', '# Notes\n');
  });
  afterEach(() => rm(cwd, { recursive: true, force: true }));

  it('keeps the quick count from Step 0, so that the plan counts every file with the tree gone', async () => {
    const prepared = await prepare(['src'], true);
    const functions = await kept(prepared);
    const entries = prepared.inventory.discovery.file_entries;
    entries.forEach((e, i) =>
      assert.equal(functions[i]?.finder, e.path.endsWith('.ts') ? QUICK_FINDER_VERSION : FINDER_VERSION, e.path),
    );
    // Nothing left to read: a plan that read any file again would find it missing and count nothing for it.
    await rm(join(cwd, 'src'), { recursive: true });
    const { inventories, quick } = await planInventories(prepared.access, entries);
    assert.equal(quick.size, QUICK_FROM_FILES);
    assert.equal(inventories.size, QUICK_FROM_FILES);
    assert.deepEqual(
      inventories.get('src/m0/f7.ts')?.functions.map((f) => f.qualified_name),
      ['load7'],
    );
  });

  it('counts nothing for a review, nor for a plan of fewer files than a quick count needs (it parses them)', async () => {
    for (const prepared of [await prepare(['src'], false), await prepare(['src/m0'], true)]) {
      const functions = await kept(prepared);
      assert.ok(functions.length > 0);
      assert.ok(
        functions.every((f) => f === undefined),
        'Step 0 counted functions',
      );
    }
  });
});
