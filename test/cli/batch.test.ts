import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { costUsd } from '../../src/model/pricing';
import type { StagedJsonReport } from '../../src/report/json';
import { useFakeServer } from '../helpers/fakeServer';
import { fixtureWorkspace, loadJson, runCli, type CliRun } from '../helpers/cli';
import { put } from '../helpers/tree';
import type { Scenario } from '../fake-anthropic/scenario';
import { MAX_BATCH_BYTES } from '../fake-anthropic/batches';

type Json = StagedJsonReport;
const key = (f: Json['findings'][number]) => `${f.file}:${f.line} ${f.rule_id} ${f.priority}`;
type Logged = { body: unknown; batch: string | null; status: number | null };
const bodyOf = (r: Logged) => r.body as { model: string; max_tokens: number };

describe('skeptic review --batch through the Message Batches API of the fake', function () {
  this.timeout(90_000);
  const fake = useFakeServer();
  afterEach(() => {
    fake.server.setBatchDelay(0);
    fake.server.setBatchMaxBytes(MAX_BATCH_BYTES);
  });

  /** One run; `cache`: the user cache folder (the state folder with the batch ledger lives there). */
  const review = async (cwd: string, args: string[], cache?: string) =>
    runCli(['review', 'shop', '--yes', '--json', 'result.json', ...args], {
      cwd,
      env: {
        ANTHROPIC_API_KEY: 'test-key',
        ANTHROPIC_BASE_URL: fake.server.url,
        ...(cache ? { XDG_CACHE_HOME: cache } : {}),
      },
    });
  const findings = async (cwd: string) => (await loadJson<Json>(join(cwd, 'result.json'))).findings.map(key).sort();

  /** The live run's findings and usage, from a fresh fake (its prompt cache empty). */
  async function live(scenario?: Scenario) {
    if (scenario) fake.server.setScenario(scenario);
    const cwd = await fixtureWorkspace('shop');
    const run = await review(cwd, []);
    assert.equal(run.code, 0, run.stderr);
    const json = await loadJson<Json>(join(cwd, 'result.json'));
    const primes = fake.server.requests.filter((r) => bodyOf(r as Logged).max_tokens === 1).length;
    fake.server.reset();
    return { findings: json.findings.map(key).sort(), usage: json.usage, primes };
  }

  it('finds what a live run finds, in rounds of batches, at batch prices with one 1-hour cached prefix', async () => {
    const expected = await live();
    const cwd = await fixtureWorkspace('shop');
    const run = await review(cwd, ['--batch']);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(await findings(cwd), expected.findings);

    const requests = fake.server.requests as Logged[];
    assert.ok(requests.length > 0 && requests.every((r) => r.batch !== null), 'every request ran inside a batch');
    // No cache prime: a batch runs its requests in no order, so a prime would only cost a round.
    assert.ok(requests.every((r) => bodyOf(r).max_tokens > 1));
    const controls = [...JSON.stringify(requests.map((r) => r.body)).matchAll(/"cache_control":(\{[^}]*\})/g)];
    assert.ok(
      controls.length > 0 && controls.every(([, c]) => c === '{"type":"ephemeral","ttl":"1h"}'),
      String(controls[0]),
    );

    const batches = fake.server.batches();
    assert.equal(batches.length, 5, 'one round per step: curate, analyze, review, challenge, synthesize');
    assert.equal(
      batches.reduce((n, b) => n + b.requests, 0),
      requests.length,
    );
    assert.match(
      run.stdout,
      new RegExp(
        `Through the Message Batches API at half price: ${batches.length} rounds, ${batches.length} batches\\.`,
      ),
    );
    assert.match(run.stderr, /batch round 1: msgbatch_\w+ (submitted|in_progress)/);
    // The report says what the cost was paid at, and in how many rounds.
    assert.match(
      await readFile(join(cwd, 'code-review-shop.md'), 'utf8'),
      new RegExp(
        `cost ≈ \\$\\d+\\.\\d\\d at the price table of [\\d-]+, through the Message Batches API at half price: ${batches.length} rounds, ${batches.length} batches\\.`,
      ),
    );

    // Half of what the same tokens cost live, 1-hour writes at 2× input.
    const json = await loadJson<Json>(join(cwd, 'result.json'));
    type U = {
      input_tokens: number;
      output_tokens: number;
      cache_read_input_tokens: number;
      cache_creation_input_tokens: number;
      cache_creation: { ephemeral_1h_input_tokens: number };
    };
    const logged = fake.server.requests.map((r) => ({
      model: bodyOf(r as Logged).model,
      usage: r.usage as unknown as U,
    }));
    assert.ok(logged.some((l) => l.usage.cache_creation_input_tokens > 0));
    const full = logged.reduce(
      (n, l) => n + costUsd(l.model, l.usage, {}, { hourWrites: l.usage.cache_creation_input_tokens })!,
      0,
    );
    assert.ok(Math.abs(json.usage.cost_usd! - full / 2) < 1e-9, `${json.usage.cost_usd} vs ${full / 2}`);
    assert.equal(json.usage.calls, requests.length);
    assert.ok(expected.primes > 0);
    assert.equal(json.usage.calls, expected.usage.calls - expected.primes, 'the same calls, less the primes');
  });

  it('takes each unit cache key as its custom_id, and a rerun of unchanged code sends no batch', async () => {
    const cwd = await fixtureWorkspace('shop');
    const cache = await mkdtemp(join(tmpdir(), 'skeptic-user-cache-'));
    assert.equal((await review(cwd, ['--batch'], cache)).code, 0);
    const first = fake.server.batches().length;
    const ids = fake.server.batches().flatMap((b) => b.custom_ids);
    assert.ok(
      ids.every((id) => /^[0-9a-f]{64}$|^[0-9a-f]{60}-\d+$/.test(id)),
      ids.join(' '),
    );
    // A first turn's custom_id is the key its answer is kept under in the result cache.
    const kept = await readdir(join(cache, 'skeptic'), { recursive: true });
    const keys = new Set(kept.flatMap((f) => /([0-9a-f]{64})\.json$/.exec(f)?.[1] ?? []));
    assert.ok(
      ids.filter((id) => id.length === 64).some((id) => keys.has(id)),
      'a custom_id names a cached unit',
    );
    const again = await review(cwd, ['--batch'], cache);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(fake.server.batches().length, first);
    assert.doesNotMatch(again.stdout, /Message Batches API/, 'no batch note for a run that sent nothing');
  });

  it('a finished run leaves no batch to collect: --no-cache after it asks every request anew', async () => {
    const cwd = await fixtureWorkspace('shop');
    const cache = await mkdtemp(join(tmpdir(), 'skeptic-user-cache-'));
    assert.equal((await review(cwd, ['--batch'], cache)).code, 0);
    const asked = fake.server.requests.length;
    const again = await review(cwd, ['--batch', '--no-cache'], cache);
    assert.equal(again.code, 0, again.stderr);
    assert.doesNotMatch(again.stdout, /collected from batches/);
    assert.equal(fake.server.requests.length, 2 * asked, 'every request asked again');
    assert.deepEqual(await ledgerOf(cache), []);
  });

  it('puts every ready request in the round: as many rounds as steps, however many files and slots', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'skeptic-batch-wide-'));
    const files = 40;
    for (let i = 0; i < files; i++)
      await put(
        cwd,
        `wide/pkg${i % 4}/mod${i}.ts`,
        `export const a${i} = (x: number) => x + ${i};\nexport const b${i} = (x: number) => x * ${i};\n`,
      );
    // One request slot: live, it would hold all but 16 files back.
    const run = await runCli(['review', 'wide', '--yes', '--batch', '--concurrency', '1'], {
      cwd,
      env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.server.url, XDG_CACHE_HOME: join(cwd, '.cache') },
    });
    assert.equal(run.code, 0, run.stderr);
    const batches = fake.server.batches();
    const records = batches.map((b) => [
      ...new Set(fake.server.requests.filter((r) => r.batch === b.id).map((r) => r.record)),
    ]);
    assert.deepEqual(records, [['Step1Record'], ['FileAnalysis'], ['BatchReview'], ['SynthesisResult']]);
    assert.deepEqual(
      batches.map((b) => b.requests),
      [files, files, files, 1],
    );
    assert.match(run.stdout, /Through the Message Batches API at half price: 4 rounds, 4 batches\./);
  });

  for (const [kind, said] of [
    ['expire', /retry 1 in 0\.0s: .*the request was expired in batch msgbatch_\w+; it goes again in the next round/],
    ['invalid_result', /is not a valid batch result \(result\.message: .*\); it goes again in the next round/],
    [
      'stray_result',
      /warning: batch msgbatch_\w+ returned 1 result for custom_ids this run did not send \(stray-not-in-this-batch\); ignored/,
    ],
    [
      'cut_results',
      /warning: the results of batch msgbatch_\w+ were cut short after \d+ lines? \(.+\); \d+ requests? without a result go again in the next round/,
    ],
    ['vanish', /batch msgbatch_\w+ disappeared \(404 not found\); the request goes again in the next round/],
  ] as const) {
    it(`${kind}: says so, and the request goes again in the next round (nothing lost)`, async () => {
      const expected = await live();
      fake.server.setScenario({
        ...fake.scenario,
        faults: [{ kind, match: { record: 'FileAnalysis', file: 'shop/cart.ts' } }],
      });
      const cwd = await fixtureWorkspace('shop');
      const run = await review(cwd, ['--batch']);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, said);
      assert.deepEqual(await findings(cwd), expected.findings);
    });
  }

  it('an errored result is the API error it stands for: a transient one goes again, with the retry said', async () => {
    const expected = await live();
    fake.server.setScenario({
      ...fake.scenario,
      faults: [{ kind: 'status', status: 529, match: { record: 'Step1Record' }, times: 2 }],
    });
    const cwd = await fixtureWorkspace('shop');
    const run = await review(cwd, ['--batch']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /retry 1 in 0\.0s: .*HTTP 529: fake-anthropic: planted 529 fault/);
    assert.deepEqual(await findings(cwd), expected.findings);
  });

  it("an errored result no retry can fix: the unit is reported in the API's words, asked once", async () => {
    fake.server.setScenario({
      ...fake.scenario,
      faults: [{ kind: 'status', status: 400, match: { record: 'FileAnalysis', file: 'shop/cart.ts' } }],
    });
    const cwd = await fixtureWorkspace('shop');
    const run = await review(cwd, ['--batch']);
    assert.equal(run.code, 3, run.stderr);
    const json = await loadJson<Json>(join(cwd, 'result.json'));
    const failed = json.files.filter((f) => f.status === 'failed');
    assert.deepEqual(
      failed.map((f) => f.path),
      ['shop/cart.ts'],
    );
    assert.match(failed[0]!.reason!, /^analyze: model call failed: HTTP 400: fake-anthropic: planted 400 fault$/);
    const asked = fake.server.requests.filter((r) => r.record === 'FileAnalysis' && r.file === 'shop/cart.ts');
    assert.equal(asked.length, 1);
  });

  for (const status of [400, 529] as const)
    it(`an errored result in the flat {type, message} shape is read as the API error it names (${status})`, async () => {
      const expected = await live();
      fake.server.setScenario({
        ...fake.scenario,
        faults: [{ kind: 'flat_error', status, match: { record: 'FileAnalysis', file: 'shop/cart.ts' } }],
      });
      const cwd = await fixtureWorkspace('shop');
      const run = await review(cwd, ['--batch']);
      assert.doesNotMatch(run.stderr, /not a valid batch result/);
      if (status === 529) {
        assert.equal(run.code, 0, run.stderr);
        assert.match(run.stderr, /retry 1 in 0\.0s: .*HTTP 529: fake-anthropic: planted 529 fault/);
        return assert.deepEqual(await findings(cwd), expected.findings);
      }
      assert.equal(run.code, 3, run.stderr);
      const failed = (await loadJson<Json>(join(cwd, 'result.json'))).files.filter((f) => f.status === 'failed');
      assert.deepEqual(
        failed.map((f) => [f.path, f.reason]),
        [['shop/cart.ts', 'analyze: model call failed: HTTP 400: fake-anthropic: planted 400 fault']],
      );
      // Asked once: the fault answered it in its batch, and it was not sent again.
      assert.ok(!fake.server.requests.some((r) => r.record === 'FileAnalysis' && r.file === 'shop/cart.ts'));
    });

  for (const [what, fault, said] of [
    [
      'a line that is not JSON',
      { kind: 'junk_line' },
      /warning: batch msgbatch_\w+: 1 results line not JSON \(line \d+\); skipped/,
    ],
    ['a blank line', { kind: 'junk_line', text: '' }, undefined],
    [
      'a custom_id twice',
      { kind: 'duplicate_result' },
      /warning: batch msgbatch_\w+ returned more than one result for 1 custom_id \([\w-]+\); the first valid one counted/,
    ],
  ] as const) {
    it(`${what} in a batch's results costs that line only: every other result counts, none is sent again`, async () => {
      const expected = await live();
      fake.server.setScenario({
        ...fake.scenario,
        faults: [{ ...fault, match: { record: 'FileAnalysis', file: 'shop/cart.ts' } }],
      });
      const cwd = await fixtureWorkspace('shop');
      const run = await review(cwd, ['--batch']);
      assert.equal(run.code, 0, run.stderr);
      if (said) assert.match(run.stderr, said);
      assert.doesNotMatch(run.stderr, /cut short|did not send|goes again|retry/);
      assert.deepEqual(await findings(cwd), expected.findings);
      const batches = fake.server.batches();
      assert.equal(batches.length, 5, 'one round per step, as without the fault');
      assert.equal(
        fake.server.requests.length,
        batches.reduce((n, b) => n + b.requests, 0),
        'each request ran once',
      );
    });
  }

  it('a batch the API finds too large (413) goes in halves, each halved again until it fits', async () => {
    const expected = await live();
    // The fixture's requests are 34–65 kB each: two fit, three do not (a round of five splits twice).
    const limit = 150_000;
    fake.server.setBatchMaxBytes(limit);
    const cwd = await fixtureWorkspace('shop');
    const run = await review(cwd, ['--batch']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stderr,
      /\d+ requests too large for one batch \(HTTP 413: a batch may be at most 150000 bytes\); sent in halves/,
    );
    assert.deepEqual(await findings(cwd), expected.findings);
    const batches = fake.server.batches();
    assert.ok(batches.length > 5, `${batches.length} batches for 5 rounds`);
    assert.ok(batches.every((b) => b.bytes <= limit));
  });

  it("creating a batch is asked again past 429s for as long as the run may take, after the API's retry-after", async () => {
    const expected = await live();
    fake.server.setScenario({
      ...fake.scenario,
      faults: [{ kind: 'create_status', status: 429, retry_after: 0, times: 8, match: { record: 'Step1Record' } }],
    });
    const cwd = await fixtureWorkspace('shop');
    const run = await review(cwd, ['--batch']);
    assert.equal(run.code, 0, run.stderr);
    const said = run.stderr.match(
      /creating a batch: HTTP 429: fake-anthropic: planted 429 fault; trying again in 0\.0s/g,
    );
    assert.equal(said?.length, 8, run.stderr);
    assert.deepEqual(await findings(cwd), expected.findings);
  });

  it('a batch not yet created at the deadline: its requests are the ones the timeout names', async () => {
    fake.server.setScenario({
      ...fake.scenario,
      faults: [{ kind: 'create_status', status: 529, retry_after: 0.5, times: -1 }],
    });
    const cwd = await fixtureWorkspace('shop');
    const run = await review(cwd, ['--batch', '--timeout', '3s']);
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stderr, /creating a batch: HTTP 529: .*; trying again in 0\.5s/);
    assert.match(run.stdout, /Stopped early: the batch run reached its --timeout of 3s with 4 requests unanswered/);
    assert.equal(fake.server.batches().length, 0);
  });

  it('Ctrl-C while a batch waits to be created again stops at once, however long the wait', async () => {
    fake.server.setScenario({
      ...fake.scenario,
      faults: [{ kind: 'create_status', status: 529, retry_after: 600, times: -1 }],
    });
    const cwd = await fixtureWorkspace('shop');
    const started = Date.now();
    const run = await runCli(['review', 'shop', '--yes', '--batch'], {
      cwd,
      env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.server.url },
      // The API's retry-after is honoured up to a minute, as for a live call.
      stop: { signal: 'SIGINT', when: /trying again in 60\.0s/ },
    });
    assert.equal(run.code, 130, run.stderr);
    assert.ok(Date.now() - started < 20_000, `${Date.now() - started} ms`);
  });

  it('a batch whose polls keep failing alike (no request_counts) is given up on after 5: its requests go again', async () => {
    const expected = await live();
    fake.server.setScenario({
      ...fake.scenario,
      faults: [{ kind: 'no_counts', match: { record: 'FileAnalysis', file: 'shop/cart.ts' } }],
    });
    const cwd = await fixtureWorkspace('shop');
    const run = await review(cwd, ['--batch', '--timeout', '60s']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stderr,
      /batch msgbatch_\w+ could not be polled 5 times in a row \(the API's answer for batch msgbatch_\w+ is not a Message Batch \(request_counts: .+\)\); the request goes again in the next round/,
    );
    assert.deepEqual(await findings(cwd), expected.findings);
  });

  it('a batch an earlier run left that has since disappeared: said, asked again, not counted as collected', async () => {
    // Deleted once it ends, before the rerun could read it: the ledger still names it.
    const { expected, cwd, cache } = await leftRunning([
      { kind: 'vanish', match: { record: 'Step1Record' }, times: 1 },
    ]);
    const [left] = fake.server.batches();
    fake.server.setBatchDelay(0);
    const rerun = await review(cwd, ['--batch'], cache);
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.match(
      rerun.stderr,
      new RegExp(`batch ${left!.id} disappeared \\(404 not found\\); the request goes again in the next round`),
    );
    assert.doesNotMatch(rerun.stdout, /collected from batches an earlier run left running/);
    assert.deepEqual(await findings(cwd), expected.findings);
  });

  it('Ctrl-C leaves the batches running and says how to collect them; the same command collects them', async () => {
    const { expected, cwd, cache, stopped } = await leftRunning();
    assert.match(
      stopped.stderr,
      /stopped; 1 Message Batch left running \(msgbatch_\w+\): run the same review again to collect their results instead of paying for them again \(the API keeps them 29 days\), or stop what has not run yet with skeptic batches --cancel\n/,
    );
    const [left] = fake.server.batches();

    fake.server.setBatchDelay(0);
    const rerun = await review(cwd, ['--batch'], cache);
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.match(rerun.stdout, /4 requests collected from batches an earlier run left running/);
    assert.deepEqual(await findings(cwd), expected.findings);
    // Step 1's four requests ran once, in the batch the first run left: none was paid again.
    const step1 = fake.server.requests.filter((r) => r.record === 'Step1Record');
    assert.equal(step1.length, 4);
    assert.ok(step1.every((r) => r.batch === left!.id));
  });

  it('--refresh asks again instead of collecting what a cancelled run left, and leaves that in the ledger', async () => {
    const { cwd, cache } = await leftRunning();
    const [left] = fake.server.batches();
    fake.server.setBatchDelay(0);
    const rerun = await review(cwd, ['--batch', '--refresh'], cache);
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.doesNotMatch(rerun.stdout, /collected from batches/);
    const again = fake.server.requests.filter((r) => r.record === 'Step1Record' && r.batch !== left!.id);
    assert.equal(again.length, 4, 'Step 1 asked again');
    assert.deepEqual(
      (await ledgerOf(cache)).map((e) => e.id),
      [left!.id],
      'kept for a later run without --refresh',
    );
    // Its requests run meanwhile: not into the next test's log.
    const ran = () => fake.server.requests.filter((r) => r.batch === left!.id && r.ended_at !== null).length === 4;
    await fake.server.until(ran, 'the batch left running has run');
  });

  it('skeptic batches lists what a cancelled run left; --cancel cancels it, then forgets it', async () => {
    const { cwd, cache } = await leftRunning([], 60_000);
    const [left] = fake.server.batches();
    const env = { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.server.url, XDG_CACHE_HOME: cache };
    const batches = (args: string[], e: Record<string, string | undefined> = env) =>
      runCli(['batches', ...args], { cwd, env: e });

    const listed = await batches([]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(
      listed.stdout,
      new RegExp(
        `^1 Message Batch kept for this repository:\\n${left!.id}  in_progress \\(4 requests: 4 processing\\) · 4 requests not collected · created \\S+ · staged review of shop\\n$`,
      ),
    );
    const noKey = await batches([], { ...env, ANTHROPIC_API_KEY: undefined });
    assert.equal(noKey.code, 2);
    assert.match(noKey.stderr, /^skeptic: no API key: set ANTHROPIC_API_KEY/);

    const canceled = await batches(['--cancel']);
    assert.equal(canceled.code, 0, canceled.stderr);
    assert.match(
      canceled.stdout,
      /  canceling \(4 requests: 4 processing\) .*\n  cancel requested: what has not run is canceled, not paid for; what has run stays collectable\n$/,
    );
    assert.equal(fake.server.batches()[0]!.status, 'ended', 'none of its requests had started: it ends at once');
    const forgot = await batches(['--cancel']);
    assert.match(
      forgot.stdout,
      /  ended \(4 requests: 4 canceled\) .*\n  nothing left to collect: dropped from the ledger\n$/,
    );
    assert.deepEqual(await ledgerOf(cache), []);
    const empty = await batches([], { ...env, ANTHROPIC_API_KEY: undefined });
    assert.equal(empty.code, 0, empty.stderr);
    assert.equal(empty.stdout, 'No Message Batches kept for this repository: none left to collect.\n');
  });

  it('an expired result does not count against --max-attempts: the request goes again', async () => {
    const expected = await live();
    fake.server.setScenario({
      ...fake.scenario,
      faults: [{ kind: 'expire', match: { record: 'FileAnalysis', file: 'shop/cart.ts' } }],
    });
    const cwd = await fixtureWorkspace('shop');
    const run = await review(cwd, ['--batch', '--max-attempts', '1']);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(await findings(cwd), expected.findings);
  });

  it('a request that gives up says after how many rounds, not that it goes again', async () => {
    fake.server.setScenario({
      ...fake.scenario,
      faults: [{ kind: 'invalid_result', match: { record: 'FileAnalysis', file: 'shop/cart.ts' }, times: -1 }],
    });
    const cwd = await fixtureWorkspace('shop');
    const run = await review(cwd, ['--batch', '--max-attempts', '2']);
    assert.equal(run.code, 3, run.stderr);
    const failed = (await loadJson<Json>(join(cwd, 'result.json'))).files.filter((f) => f.status === 'failed');
    assert.deepEqual(
      failed.map((f) => f.path),
      ['shop/cart.ts'],
    );
    assert.match(
      failed[0]!.reason!,
      /^analyze: model call failed: batch msgbatch_\w+ gave a result for this request that is not a valid batch result \(.+\); given up after 2 rounds$/,
    );
  });

  it('--timeout: the whole batch run stops there and reports what is missing (exit 3)', async () => {
    fake.server.setBatchDelay(20_000);
    const cwd = await fixtureWorkspace('shop');
    const run = await review(cwd, ['--batch', '--timeout', '8s']);
    assert.equal(run.code, 3, run.stderr);
    assert.match(
      run.stdout,
      /Stopped early: the batch run reached its --timeout of 8s with 4 requests unanswered; 1 Message Batch left running \(msgbatch_\w+\): run the same review again to collect .*, or stop what has not run yet with skeptic batches --cancel\./,
    );
    const json = await loadJson<Json>(join(cwd, 'result.json'));
    assert.ok(json.files.every((f) => f.status === 'failed'));
  });

  it('refuses a --timeout it cannot take', async () => {
    const cwd = await fixtureWorkspace('shop');
    const run = await review(cwd, ['--batch', '--timeout', 'soon']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--timeout takes a duration from 1s to 72h \(e\.g\. 90m, 24h, 3600\), got "soon"/);
  });

  /** The live run's findings, then a --batch run stopped by Ctrl-C once its first (slow) batch is submitted. */
  async function leftRunning(faults: Scenario['faults'] = [], delayMs = 4_000) {
    const expected = await live();
    fake.server.setScenario({ ...fake.scenario, faults });
    fake.server.setBatchDelay(delayMs);
    const cwd = await fixtureWorkspace('shop');
    const cache = await mkdtemp(join(tmpdir(), 'skeptic-user-cache-'));
    const env = { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.server.url, XDG_CACHE_HOME: cache };
    const stopped = await interruptOnceSubmitted(cwd, env);
    assert.equal(stopped.code, 130, stopped.stderr);
    return { expected, cwd, cache, stopped };
  }

  /** The ledger of the repository's state folder in the user cache `cache`. */
  async function ledgerOf(cache: string): Promise<{ id: string }[]> {
    const [file] = (await readdir(cache, { recursive: true })).filter((f) => f.endsWith('batches.json'));
    assert.ok(file, 'a ledger was written');
    return JSON.parse(await readFile(join(cache, file), 'utf8')) as { id: string }[];
  }

  /** Runs `--batch` and sends SIGINT once the first batch is submitted (created, and kept in the ledger). */
  function interruptOnceSubmitted(cwd: string, env: Record<string, string>): Promise<CliRun> {
    return runCli(['review', 'shop', '--yes', '--batch', '--json', 'result.json'], {
      cwd,
      env,
      stop: { signal: 'SIGINT', when: /msgbatch_\w+ submitted/ },
    });
  }
});

describe('skeptic plan --batch', function () {
  this.timeout(60_000);
  it('estimates at batch prices, without cache primes', async () => {
    const cwd = await fixtureWorkspace('shop');
    const plan = async (args: string[]) => {
      const run = await runCli(['plan', 'shop', '--json', ...args], { cwd });
      assert.equal(run.code, 0, run.stderr);
      return (JSON.parse(run.stdout) as { estimate: { calls: number; cost_usd: number } }).estimate;
    };
    const live = await plan([]);
    const batch = await plan(['--batch']);
    assert.ok(batch.calls < live.calls, `${batch.calls} vs ${live.calls}`);
    assert.ok(
      batch.cost_usd < 0.7 * live.cost_usd && batch.cost_usd > 0.4 * live.cost_usd,
      `${batch.cost_usd} vs ${live.cost_usd}`,
    );
    const text = await runCli(['plan', 'shop', '--batch'], { cwd });
    assert.match(text.stdout, /at the Message Batches \(half\) prices of/);
  });
});
