import assert from 'node:assert/strict';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildJob } from '../../src/app/buildJob';
import { inventoryLookup } from '../../src/app/inventories';
import { connectJob } from '../../src/app/jobConnection';
import { prepareJob } from '../../src/app/prepareJob';
import { runStagedReview } from '../../src/engine/staged/pipeline';
import { fixtureWorkspace } from '../helpers/cli';
import { useFakeServer } from '../helpers/fakeServer';

describe('the parser inventory is read on demand', function () {
  this.timeout(60_000);
  const fake = useFakeServer();

  // The other half, that nothing is parsed before the run's first request, is in startup.test.ts.
  it('parses while Step 1 is in flight, and every file that reaches Step 2', async () => {
    const cwd = await fixtureWorkspace('shop');
    const job = buildJob(
      { cwd, scope: { kind: 'paths', paths: ['shop'] }, baseUrl: fake.server.url },
      { apiKey: 'test-key' },
    );
    const prepared = await prepareJob(job);
    const parse = inventoryLookup(prepared.access);
    /** For each file asked for: was its Step 1 already answered at that moment? */
    const asked = new Map<string, boolean>();
    const answered = (path: string) =>
      fake.server.requests.some((r) => r.file === path && r.record === 'Step1Record' && r.ended_at !== null);
    const result = await runStagedReview(
      {
        cwd,
        access: prepared.access,
        discovery: prepared.inventory.discovery,
        models: job.models,
        context: [],
        connection: await connectJob(job),
        maxConcurrency: 4,
        maxAttempts: 2,
        signal: new AbortController().signal,
        inventoryOf: (path) => {
          if (!asked.has(path)) asked.set(path, answered(path));
          return parse(path);
        },
      },
      () => undefined,
    );
    const analysed = result.files.filter((f) => f.analysis).map((f) => f.path);
    assert.ok(analysed.length >= 2, 'the fixture has files that reach Step 2');
    for (const path of analysed) assert.ok(asked.has(path), `${path} reached Step 2 unparsed`);
    const early = [...asked].filter(([, afterStep1]) => !afterStep1).map(([path]) => path);
    assert.ok(early.length > 0, 'no parse overlapped a Step 1 call: each waited for its answer');
    assert.ok(
      result.files.some((f) => f.reconciled),
      'Step 2 was reconciled against the parsed inventory',
    );
  });

  it('reads through the review roots: a file swapped for a link out of them after Step 0 is not parsed', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'skeptic-inventory-'));
    const outside = await mkdtemp(join(tmpdir(), 'skeptic-outside-'));
    try {
      await writeFile(join(cwd, 'a.ts'), 'export function admitted(): number {\n  return 1;\n}\n');
      await writeFile(join(outside, 'b.ts'), 'export function outsideTheRoots(): number {\n  return 2;\n}\n');
      const prepared = await prepareJob(
        buildJob({ cwd, scope: { kind: 'paths', paths: ['.'] } }, { apiKey: 'test-key' }),
      );
      const entries = prepared.inventory.discovery.file_entries;
      assert.deepEqual(
        entries.map((e) => e.path),
        ['a.ts'],
      );
      await rm(join(cwd, 'a.ts'));
      await symlink(join(outside, 'b.ts'), join(cwd, 'a.ts'));
      assert.equal(await inventoryLookup(prepared.access)('a.ts'), undefined);
    } finally {
      await rm(cwd, { recursive: true, force: true });
      await rm(outside, { recursive: true, force: true });
    }
  });
});
