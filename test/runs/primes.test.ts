/**
 * A cache prime goes where two or more calls share a prefix, decided by counting them, not by how close together
 * they happen to arrive (engine/sharers.ts, engine/staged/startingFiles.ts): the fake API's request log shows the
 * one-token calls. A file read late (as on a loaded machine) still shares Step 1's run-wide prefix with the
 * others; a lone file, or one edited file among cached ones, sends no prime, which would only add a call.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildJob } from '../../src/app/buildJob';
import { connectJob } from '../../src/app/jobConnection';
import { stagedRequest } from '../../src/app/jobRequest';
import { prepareJob } from '../../src/app/prepareJob';
import { ResultCache } from '../../src/engine/resultCache';
import { runStagedReview } from '../../src/engine/staged/pipeline';
import type { FileAccess } from '../../src/model/access';
import type { LoggedRequest } from '../fake-anthropic/server';
import { fixtureWorkspace } from '../helpers/cli';
import { useFakeServer } from '../helpers/fakeServer';

const body = (r: LoggedRequest) => r.body as { model: string; max_tokens: number };
const isPrime = (r: LoggedRequest) => body(r).max_tokens === 1;
/** Far beyond the moment the runner used to wait for a second caller (25 ms). */
const LATE_MS = 400;

describe('cache primes, counted', function () {
  this.timeout(120_000);
  const fake = useFakeServer();

  /** The run's reads, with `late`'s held back: its Step 1 arrives long after the other files'. */
  const holding = (access: FileAccess, late: string): FileAccess => ({
    cwd: access.cwd,
    read: async (path) => {
      if (path === late) await new Promise((resolve) => setTimeout(resolve, LATE_MS));
      return access.read(path);
    },
    list: (path) => access.list(path),
    files: () => access.files(),
  });

  async function review(
    cwd: string,
    paths: string[],
    opts: { late?: string; cacheDir?: string; reviewModel?: string } = {},
  ) {
    fake.server.reset();
    if (opts.cacheDir) await ResultCache.prepare(opts.cacheDir);
    const job = buildJob(
      {
        cwd,
        scope: { kind: 'paths', paths },
        baseUrl: fake.server.url,
        ...(opts.cacheDir ? { cacheDir: opts.cacheDir } : { cacheResults: false }),
      },
      { apiKey: 'k' },
    );
    const prepared = await prepareJob(job);
    const result = await runStagedReview(
      {
        ...stagedRequest(job, prepared, []),
        models: { ...job.models, ...(opts.reviewModel ? { review: opts.reviewModel } : {}) },
        ...(job.cacheDir ? { cacheDir: job.cacheDir } : {}),
        cwd,
        access: opts.late ? holding(prepared.access, opts.late) : prepared.access,
        connection: await connectJob(job),
        maxConcurrency: 4,
        maxAttempts: 2,
        signal: new AbortController().signal,
      },
      () => undefined,
    );
    assert.ok(
      result.files.every((f) => f.status !== 'failed'),
      JSON.stringify(result.files),
    );
    return { requests: [...fake.server.requests], curateModel: job.models.curate };
  }

  it('several files: one prime of Step 1’s prefix, however late the second file comes, and every Step 1 reads it', async () => {
    const cwd = await fixtureWorkspace('shop');
    const { requests, curateModel } = await review(cwd, ['shop/cart.ts', 'shop/price.ts'], { late: 'shop/price.ts' });
    const primes = requests.filter((r) => isPrime(r) && body(r).model === curateModel);
    assert.equal(primes.length, 1, 'one prime of the run-wide prefix on the Step 1 model');
    const step1 = requests.filter((r) => r.record === 'Step1Record' && !isPrime(r));
    assert.deepEqual(step1.map((r) => r.file).sort(), ['shop/cart.ts', 'shop/price.ts']);
    for (const r of step1) {
      assert.ok(r.started_at >= primes[0]!.ended_at!, `${r.file}'s Step 1 waited for the prime`);
      assert.ok((r.usage?.cache_read_input_tokens ?? 0) > 0, `${r.file}'s Step 1 read the primed prefix`);
    }
  });

  it('Step 3 on a model of its own: one prime of a file whose units fan out, none of a file of one unit', async () => {
    const cwd = await fixtureWorkspace('shop');
    const reviewModel = 'claude-haiku-5-5';
    const { requests } = await review(cwd, ['shop'], { reviewModel });
    const units = new Map<string, number>();
    for (const r of requests)
      if ((r.record === 'PerFunctionReview' || r.record === 'BatchReview') && r.turn === 1 && !isPrime(r))
        units.set(r.file!, (units.get(r.file!) ?? 0) + 1);
    const fanning = [...units].filter(([, n]) => n > 1).map(([file]) => file);
    assert.ok(fanning.length > 0 && fanning.length < units.size, JSON.stringify([...units]));
    // A file's prime carries its code; the run-wide prefix of the model (no file in it) is the window's to prime.
    const primed = requests
      .filter((r) => isPrime(r) && body(r).model === reviewModel)
      .flatMap((r) =>
        [...JSON.stringify(r.body).matchAll(/path=\\"([^"\\]+)\\" role=\\"primary\\"/g)].map((m) => m[1]),
      );
    assert.deepEqual(primed.sort(), fanning.sort());
  });

  it('one file: no prime at all', async () => {
    const cwd = await fixtureWorkspace('shop');
    const { requests } = await review(cwd, ['shop/cart.ts']);
    assert.ok(requests.some((r) => r.record === 'Step1Record'));
    assert.deepEqual(requests.filter(isPrime), []);
  });

  it('one edited file among cached ones: its calls go unprimed, as the only ones on their prefix', async () => {
    const cwd = await fixtureWorkspace('shop');
    const cacheDir = await mkdtemp(join(tmpdir(), 'skeptic-primes-'));
    const cold = await review(cwd, ['shop'], { cacheDir });
    assert.ok(cold.requests.some(isPrime), 'the cold run of the same files primes (so the check below can fail)');
    const price = join(cwd, 'shop/price.ts');
    await writeFile(price, `${await readFile(price, 'utf8')}\n// edited\n`);
    const { requests } = await review(cwd, ['shop'], { cacheDir });
    assert.deepEqual(
      requests.filter((r) => r.record === 'Step1Record').map((r) => r.file),
      ['shop/price.ts'],
      'only the edited file asks Step 1',
    );
    assert.deepEqual(requests.filter(isPrime), []);
  });
});
