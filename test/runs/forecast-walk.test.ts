import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildJob } from '../../src/app/buildJob';
import { connectJob } from '../../src/app/jobConnection';
import { stagedRequest } from '../../src/app/jobRequest';
import { prepareJob } from '../../src/app/prepareJob';
import { readUsageHistory, recordRunUsage } from '../../src/app/usageHistory';
import { ResultCache } from '../../src/engine/resultCache';
import { estimateStagedRun, forecastStagedRun, runStagedReview } from '../../src/engine/staged';
import type { FileStep } from '../../src/model/models';
import type { ScopeSpec } from '../../src/model/scope';
import type { LoggedRequest } from '../fake-anthropic/server';
import { fixtureWorkspace } from '../helpers/cli';
import { useFakeServer } from '../helpers/fakeServer';
import { editedShop, editLines } from '../helpers/shop-change';

/** The records each file step submits, as the fake logs them. */
const STEP_OF: Record<string, FileStep> = {
  Step1Record: 'curate',
  FileAnalysis: 'analyze',
  PerFunctionReview: 'review',
  BatchReview: 'review',
  ChallengeResult: 'challenge',
};

/** Per file: the calls of each step the run sent (first turns only: a tool or repair turn is the same call), and Step 3's functions. */
function sentByFile(requests: LoggedRequest[]) {
  const files = new Map<string, { calls: Record<FileStep, number>; functions: number }>();
  for (const r of requests) {
    const step = r.record ? STEP_OF[r.record] : undefined;
    if (!step || !r.file || r.turn !== 1) continue;
    const file = files.get(r.file) ?? { calls: { curate: 0, analyze: 0, review: 0, challenge: 0 }, functions: 0 };
    file.calls[step]++;
    if (step === 'review') file.functions += r.functions.length;
    files.set(r.file, file);
  }
  return files;
}

/**
 * The run, its forecast and its estimate walk one description of a file's steps (engine/staged/walk.ts). Each
 * check here sets what one of them says against what the run then sends the fake.
 */
describe('the forecast and the estimate walk the steps the run takes', function () {
  this.timeout(120_000);
  const fake = useFakeServer();

  /** The engine's request for `scope` in `cwd`, as app/ makes it for the run and for the plan alike. */
  async function stage(cwd: string, scope: ScopeSpec, cacheDir: string) {
    // As a job does before its run: the cache writes only inside a folder that is there.
    await ResultCache.prepare(cacheDir);
    const job = buildJob({ cwd, scope, baseUrl: fake.server.url, cacheDir }, { apiKey: 'test-key' });
    const prepared = await prepareJob(job);
    const request = { ...stagedRequest(job, prepared, []), access: prepared.access, cacheDir: job.cacheDir };
    const run = async () => {
      fake.server.reset();
      const result = await runStagedReview(
        {
          ...request,
          cwd,
          connection: await connectJob(job),
          maxConcurrency: 4,
          maxAttempts: 2,
          signal: new AbortController().signal,
        },
        () => undefined,
      );
      return { result, sent: sentByFile(fake.server.requests) };
    };
    return { request, run };
  }

  /** Forecast, then run: every file's predicted calls, step by step, are the calls the run sends. */
  async function forecastMatchesRun(cwd: string, scope: ScopeSpec, cacheDir: string) {
    const { request, run } = await stage(cwd, scope, cacheDir);
    const forecast = await forecastStagedRun(request);
    const { result, sent } = await run();
    for (const file of forecast.files) {
      assert.equal(file.unknownFrom, undefined, `${file.path}: the forecast knows or predicts every step`);
      const made = sent.get(file.path) ?? { calls: { curate: 0, analyze: 0, review: 0, challenge: 0 }, functions: 0 };
      assert.deepEqual(file.calls, made.calls, `${file.path}: the calls forecast, by step`);
      assert.equal(file.functionsAsked, made.functions, `${file.path}: the Step 3 functions forecast`);
    }
    assert.deepEqual(
      [...sent.keys()].filter((path) => !forecast.files.some((f) => f.path === path)),
      [],
      'the run asks about no file the forecast left out',
    );
    // And the rest, the run takes from the cache: unit for unit.
    const cached = forecast.files.reduce(
      (n, f) => n + f.cached.curate + f.cached.analyze + f.cached.review + f.cached.challenge,
      0,
    );
    return { forecast, result, cached };
  }

  it('a folder: edited functions, solo and batched, a function added, an unchanged file', async () => {
    const cwd = await fixtureWorkspace('shop');
    const cacheDir = join(cwd, '.results');
    await (await stage(cwd, { kind: 'paths', paths: ['shop'] }, cacheDir)).run();

    // Cart.total goes solo; Cart.clear and Cart.count in one batch.
    editLines({ path: (p) => join(cwd, p) }, 'shop/cart.ts', {
      17: '    for (let i = 0; i <= this.items.length; i += 1) {',
      32: '    this.items.length = 0;',
      36: '    return this.items.length | 0;',
    });
    const price = join(cwd, 'shop/price.ts');
    await writeFile(
      price,
      `${await readFile(price, 'utf8')}\nexport function formatPrice(amount: number): string {\n  return '$' + amount.toFixed(2);\n}\n`,
    );
    const { forecast } = await forecastMatchesRun(cwd, { kind: 'paths', paths: ['shop'] }, cacheDir);
    const asked = forecast.files.filter((f) => f.calls.curate > 0).map((f) => f.path);
    assert.deepEqual(asked.sort(), ['shop/cart.ts', 'shop/price.ts'], 'the edited files are asked again');
    const cart = forecast.files.find((f) => f.path === 'shop/cart.ts')!;
    assert.deepEqual([cart.calls.review, cart.functionsAsked], [2, 3], 'a solo call and a batch of two');
    assert.ok(
      forecast.files.some((f) => f.cached.curate > 0),
      'an unchanged file comes from the cache',
    );
    assert.ok(
      forecast.files.some((f) => f.cached.review > 0 && f.functionsAsked > 0),
      'some functions of an edited file come from the cache, some are asked',
    );

    // Once run, nothing is left to ask.
    const again = await forecastMatchesRun(cwd, { kind: 'paths', paths: ['shop'] }, cacheDir);
    assert.ok(again.cached > 0);
    assert.ok(again.forecast.files.every((f) => Object.values(f.calls).every((n) => n === 0)));
  });

  it('a change: only the functions it touches, and the challenge as the change decides', async () => {
    const repo = editedShop();
    const cacheDir = join(repo.dir, '.results');
    await (await stage(repo.dir, { kind: 'changes' }, cacheDir)).run();

    // The change grows: Cart.total is edited again, price.ts as it was.
    editLines(repo, 'shop/cart.ts', { 18: '      sum += this.items[i].price * this.items[i].qty; // no rounding' });
    const { forecast } = await forecastMatchesRun(repo.dir, { kind: 'changes' }, cacheDir);
    assert.ok(forecast.files.some((f) => f.calls.review > 0));
    assert.ok(forecast.files.some((f) => f.cached.curate > 0));
    repo.remove();
  });

  it('a tree the cache knows nothing of: sized by the rates of its last run, Steps 2 and 4 are the calls it makes', async () => {
    const cwd = await fixtureWorkspace('shop');
    const stateDir = await mkdtemp(join(tmpdir(), 'skeptic-walk-state-'));
    const scope: ScopeSpec = { kind: 'paths', paths: ['shop'] };
    const first = await (await stage(cwd, scope, join(cwd, '.first'))).run();
    await recordRunUsage(stateDir, first.result);

    // Cold again (another result cache): the estimate sizes every file by the rates the first run recorded.
    const { request, run } = await stage(cwd, scope, join(cwd, '.second'));
    const estimate = await estimateStagedRun({ ...request, history: await readUsageHistory(stateDir) });
    const { sent } = await run();
    const total = (step: FileStep) => [...sent.values()].reduce((n, f) => n + f.calls[step], 0);
    // Step 1 is one call a file (and a prime), Step 3 a rate of solo functions: the shares Step 1 keeps and
    // Step 3's findings send on are what the walk decides.
    for (const step of ['analyze', 'challenge'] as const)
      assert.equal(estimate.byStep[step].calls, total(step), `${step}: estimated as run`);
    assert.ok(total('analyze') < total('curate'), 'Step 1 keeps some files out of the pipeline');
    assert.ok(total('challenge') > 0);
  });
});
