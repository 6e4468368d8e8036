/**
 * The first request leaves as soon as its own file is judged: Step 0's verdict on an unrelated file that is
 * slow to come (its read held until the fake has seen a request) does not hold back the run's first call.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildJob } from '../../src/app/buildJob';
import { runJob } from '../../src/app/runJob';
import type { ReviewEvent } from '../../src/model/events';
import { useFakeServer } from '../helpers/fakeServer';
import { whileOpening } from '../helpers/openSpy';

const code = (name: string) => `export function ${name}(x: number): number {\n  return x + 1;\n}\n`;

/** While `work` runs, the first open of a path ending in `held` waits for `until`: what let it go is returned. */
async function holdingOpen<T>(
  held: string,
  until: () => Promise<unknown>,
  work: () => Promise<T>,
): Promise<{ result: T; released: Promise<'request' | 'timeout'> | undefined }> {
  let released: Promise<'request' | 'timeout'> | undefined;
  const hold = (path: string) => {
    if (released || !path.endsWith(held)) return;
    released = until().then(
      () => 'request' as const,
      () => 'timeout' as const,
    );
    return released;
  };
  const result = await whileOpening(hold, work);
  return { result, released };
}

describe('Step 0 streams into the run', function () {
  this.timeout(60_000);
  const fake = useFakeServer();

  it('sends the first request before an unrelated file has been judged, and still reviews and reports every file', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'skeptic-stream-'));
    try {
      for (const name of ['alpha', 'beta', 'gamma']) await writeFile(join(cwd, `${name}.ts`), code(name));
      await writeFile(join(cwd, 'zz-held.ts'), code('held'));
      const job = buildJob(
        { cwd, scope: { kind: 'paths', paths: ['.'] }, baseUrl: fake.server.url, cacheResults: false },
        { apiKey: 'k' },
      );
      const events: ReviewEvent[] = [];
      const firstRequest = () => fake.server.until(() => fake.server.requests.length > 0, 'a first request', 5_000);
      const { result: outcome, released } = await holdingOpen('zz-held.ts', firstRequest, () =>
        runJob(job, { emit: (e) => events.push(e), signal: new AbortController().signal }),
      );
      assert.ok(released, 'Step 0 read the held file');
      assert.equal(await released, 'request', 'the first request waited for every file of Step 0');
      assert.equal(outcome.kind, 'ran');
      if (outcome.kind !== 'ran') return;
      // Nothing lost to the early start: every file, in review order, in the result and the inventory event.
      const paths = ['alpha.ts', 'beta.ts', 'gamma.ts', 'zz-held.ts'];
      assert.deepEqual(
        outcome.result.files.map((f) => f.path),
        paths,
      );
      assert.ok(outcome.result.files.every((f) => f.status === 'reviewed'));
      const inventory = events.find((e) => e.type === 'inventory');
      assert.deepEqual(inventory?.type === 'inventory' ? inventory.files : null, paths);
      const order = events.map((e) => e.type);
      // Readers see the order a run that waited gives: the setup, the inventory, then the run's progress.
      assert.deepEqual(order.slice(0, 2), ['setup', 'inventory'], `events began ${order.slice(0, 4).join(', ')}`);
      assert.ok(order.includes('progress'), 'the run reported no progress');
      assert.ok(
        fake.server.requests.some((r) => r.file === 'zz-held.ts'),
        'the file judged last was reviewed too',
      );
      assert.ok(outcome.outputs?.markdown.includes('zz-held.ts'));
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
