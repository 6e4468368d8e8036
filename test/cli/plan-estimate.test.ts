import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { PlanJson } from '../../src/report/planJson';
import type { StagedJsonReport } from '../../src/report/json';
import { useFakeServer } from '../helpers/fakeServer';
import { fixtureWorkspace, loadJson, runCli } from '../helpers/cli';

/** `skeptic plan` against what the result cache and the recorded runs hold, checked against the review that follows. */
describe('plan counts what the review will ask, and prices it from the repository’s own runs', function () {
  this.timeout(90_000);
  const fake = useFakeServer();

  async function workspace() {
    const cwd = await fixtureWorkspace('shop');
    const env = {
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: fake.server.url,
      XDG_CACHE_HOME: await mkdtemp(join(tmpdir(), 'skeptic-plan-home-')),
    };
    const review = async (...more: string[]) => {
      const run = await runCli(['review', 'shop', '--yes', '--json', 'result.json', ...more], { cwd, env });
      assert.equal(run.code, 0, run.stderr);
      return loadJson<StagedJsonReport>(join(cwd, 'result.json'));
    };
    const plan = async (...more: string[]) => {
      const run = await runCli(['plan', 'shop', '--json', ...more], { cwd, env });
      assert.equal(run.code, 0, run.stderr);
      return PlanJson.parse(JSON.parse(run.stdout)).estimate;
    };
    const planText = async (...more: string[]) => (await runCli(['plan', 'shop', ...more], { cwd, env })).stdout;
    /** The repository's state folder under this workspace's own user cache (`<folder name>-<hash>`, beside the code cache). */
    const stateDir = async () => {
      const base = join(env.XDG_CACHE_HOME, 'skeptic');
      return join(
        base,
        (await readdir(base)).find((d) => d.startsWith(`${basename(cwd)}-`))!,
      );
    };
    return { cwd, env, review, plan, planText, stateDir };
  }

  it('after a run of the unchanged tree, estimates no call, and the confirmation does not ask', async () => {
    const w = await workspace();
    const cold = await w.plan();
    assert.ok(cold.calls > 5, `a cold plan asks for every unit (${cold.calls})`);
    assert.equal(cold.cached_units, 0);
    await w.review();

    const rerun = await w.plan();
    assert.equal(rerun.calls, 0);
    assert.equal(rerun.cost_usd, 0);
    assert.equal(rerun.cached_units, rerun.total_units);
    assert.ok(rerun.total_units! > 0);
    assert.match(
      await w.planText(),
      new RegExp(`^Result cache: ${rerun.total_units} of ${rerun.total_units} units answered from the cache$`, 'm'),
    );
    // The same flags as review: --no-cache and another --cache-dir see no cached unit.
    assert.equal((await w.plan('--no-cache')).calls, cold.calls);
    assert.equal((await w.plan('--no-cache')).cached_units, null);
    assert.match(await w.planText('--no-cache'), /^Result cache: off \(--no-cache\)/m);
    assert.equal((await w.plan('--cache-dir', join(w.cwd, 'elsewhere'))).calls, cold.calls);

    // Over a threshold of 0 calls, a review whose estimate is 0 runs without asking (without a terminal, asking fails).
    fake.server.reset();
    const quiet = await runCli(['review', 'shop', '--confirm-over', '0'], { cwd: w.cwd, env: w.env });
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.equal(fake.server.requests.length, 0);
  });

  it('a cold review over the threshold without a terminal asks nothing, sends nothing, and says how to proceed', async () => {
    const w = await workspace();
    fake.server.reset();
    const run = await runCli(['review', 'shop', '--confirm-over', '1'], { cwd: w.cwd, env: w.env });
    assert.equal(run.code, 2, run.stderr);
    assert.match(
      run.stderr,
      /this review is estimated at \d+ model calls and ~\d+k input tokens \(~\$[\d.]+\) \(over the confirmation threshold of 1\); pass --yes to run it, or narrow the scope/,
    );
    assert.equal(fake.server.requests.length, 0);
  });

  it('after an edit in one function, estimates that file’s Steps 1, 2 and 4, the one function’s unit, and synthesis', async () => {
    const w = await workspace();
    await w.review();
    const cart = join(w.cwd, 'shop/cart.ts');
    await writeFile(
      cart,
      (await readFile(cart, 'utf8')).replace(
        '    this.items = [];\n  }\n\n  count',
        '    this.items = []; // emptied\n  }\n\n  count',
      ),
    );

    const est = await w.plan();
    const calls = Object.fromEntries(Object.entries(est.by_step).map(([step, s]) => [step, s.calls]));
    assert.deepEqual(calls, { curate: 1, analyze: 1, review: 1, challenge: 1, synthesize: 1 });
    // Units: Steps 1, 2, 4 of the file, one function and synthesis are asked; everything else is answered.
    assert.equal(est.total_units! - est.cached_units!, 5);

    fake.server.reset();
    await w.review();
    const made = fake.server.requests.filter((r) => r.record && r.record !== 'SynthesisResult');
    assert.deepEqual(made.map((r) => `${r.record} ${r.file}`).sort(), [
      'BatchReview shop/cart.ts',
      'ChallengeResult shop/cart.ts',
      'FileAnalysis shop/cart.ts',
      'Step1Record shop/cart.ts',
    ]);
    assert.equal(made.length, est.calls - est.by_step.synthesize!.calls, 'the file calls are exactly those estimated');
  });

  it('ignores a corrupt record of past runs, and the next run writes a good one', async () => {
    const w = await workspace();
    await w.review();
    const history = join(await w.stateDir(), 'usage-history.json');
    assert.match(await w.planText('--no-cache'), /^Tokens per call and rates: from this repository's last 1 run/m);
    for (const bad of ['{"version": 1, "runs": [{"at": "x", "steps": {"curate": {"calls": -3}}}]}', 'not json {']) {
      await writeFile(history, bad);
      const out = await w.planText('--no-cache');
      assert.match(out, /^Tokens per call and rates: the defaults/m);
      assert.match(out, /^Estimate: \d+ model calls/m);
    }
    await w.review('--no-cache');
    assert.match(await w.planText('--no-cache'), /^Tokens per call and rates: from this repository's last 1 run/m);
  });

  it('moves the dollar estimate toward what the runs actually used', async () => {
    const w = await workspace();
    const before = await w.plan('--no-cache');
    assert.equal(before.history_runs, 0);
    const spent = (await w.review('--no-cache')).usage.cost_usd!;
    assert.ok(spent > 0);
    const after = await w.plan('--no-cache');
    assert.equal(after.history_runs, 1);
    assert.ok(Object.values(after.by_step).every((s) => s.basis === 'history' || s.calls === 0));
    const miss = (usd: number) => Math.abs(usd - spent) / spent;
    assert.ok(
      miss(after.cost_usd!) < miss(before.cost_usd!),
      `defaults $${before.cost_usd}, calibrated $${after.cost_usd}, spent $${spent}`,
    );
    assert.ok(miss(after.cost_usd!) < 0.25, `calibrated $${after.cost_usd} vs spent $${spent}`);

    // A second run gives a range: each run's own figures priced on their own.
    await w.review('--no-cache');
    const twice = await w.plan('--no-cache');
    assert.equal(twice.history_runs, 2);
    assert.ok(
      twice.cost_range_usd && twice.cost_range_usd[0] <= twice.cost_usd! && twice.cost_usd! <= twice.cost_range_usd[1],
    );
  });
});
