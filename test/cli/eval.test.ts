import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EvalJson } from '../../src/eval/report';
import { startFakeGitHub } from '../fake-github/server';
import { startFakeAnthropic, type FakeAnthropic } from '../fake-anthropic/server';
import type { MessagesBody } from '../fake-anthropic/request';
import { CLI, loadJson, runCli } from '../helpers/cli';
import { buildMiniBench, MINI_BENCH_SCENARIO, type MiniBench } from '../helpers/mini-bench';

describe('skeptic eval martian and aacr on a synthetic mini benchmark, against the fake API', function () {
  this.timeout(120_000);
  let server: FakeAnthropic;
  let bench: MiniBench;

  before(async () => {
    bench = buildMiniBench();
    server = await startFakeAnthropic({ scenario: MINI_BENCH_SCENARIO });
  });
  after(() => server.close());
  beforeEach(() => {
    server.setScenario(MINI_BENCH_SCENARIO);
    server.reset();
  });

  const evaluate = (
    workdir: string,
    args: string[],
    env: Record<string, string | undefined> = { ANTHROPIC_API_KEY: 'k' },
    data = bench.data,
  ) =>
    runCli(['eval', 'martian', '--data', data, '--workdir', workdir, ...args], {
      cwd: bench.root,
      env: { ANTHROPIC_BASE_URL: server.url, GITHUB_TOKEN: undefined, ...env },
    });
  const judged = () => server.requests.filter((r) => r.record === 'JudgeVerdict').length;
  // Cache primes (one output token) are not reviews.
  const reviewed = () =>
    server.requests.filter((r) => r.record === 'LensReview' && (r.body as { max_tokens: number }).max_tokens > 1)
      .length;

  it('refuses without a key, before fetching anything', async () => {
    const run = await evaluate('wd-nokey', ['--yes'], {});
    assert.equal(run.code, 2);
    assert.match(run.stderr, /no API key: set ANTHROPIC_API_KEY/);
    assert.equal(existsSync(join(bench.root, 'wd-nokey')), false);
    assert.equal(server.requests.length, 0);
  });

  it('prints the estimate on a dry run, without a key or a call', async () => {
    const run = await evaluate('wd-dry', ['--dry-run'], {});
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /^Estimate for 3 of 4 PRs \(staged mode, judge claude-opus-4-5-20251101, martian counting; prices of \d{4}-\d\d-\d\d\):$/m,
    );
    // Three changed files: Step 1, 2 and 3 each at least once per file, and one synthesis per PR.
    const calls = Number(/^ {2}review: (\d+) calls/m.exec(run.stdout)?.[1]);
    assert.ok(calls >= 12, run.stdout);
    // 4 golden comments over the three fetched PRs, times the assumed findings per PR.
    assert.match(run.stdout, /^ {2}judge: {2}20 calls \(golden comments × 5 findings assumed per PR\)/m);
    assert.match(run.stdout, /^ {2}total: {2}\d+ calls · ~\$\d+\.\d\d/m);
    assert.match(run.stdout, /^not fetched: .*\/pull\/4: fetch failed: git fetch failed: .*pull\/4/m);
    assert.match(run.stdout, /^Checkouts: 4 PRs to fetch · ~1\.6 GB of disk · ~4 min \(assumed/m);
    assert.equal(server.requests.length, 0);
    const again = await evaluate('wd-dry', ['--dry-run'], {});
    assert.match(again.stdout, /^Checkouts: 1 PRs to fetch \(3 already here\)/m);
  });

  it('fails a dry run that could fetch nothing, and says so', async () => {
    const run = await evaluate('wd-dry-none', ['--dry-run', '--pr', bench.urls[3]!], {});
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stderr, /no PR could be checked out; there is nothing to estimate/);
    assert.match(run.stdout, /^Estimate for 0 of 1 PRs/m);
  });

  it('asks before spending and stops when nobody says yes', async () => {
    const run = await evaluate('wd-ask', ['--mode', 'lenses']);
    assert.equal(run.code, 2);
    assert.match(run.stdout, /^Estimate for 3 of 4 PRs \(lenses mode/m);
    assert.match(run.stderr, /pass --yes to run it after reading the estimate above/);
    assert.equal(server.requests.length, 0);
  });

  it('runs the staged review of one chosen PR, and shows an undefined precision as a dash', async () => {
    const run = await evaluate('wd-staged', ['--pr', bench.urls[2]!, '--yes', '--json', 'staged.json']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Estimate for 1 of 1 PRs \(staged mode/m);
    const records = new Set(server.requests.map((r) => r.record));
    for (const step of ['Step1Record', 'FileAnalysis', 'BatchReview', 'SynthesisResult'])
      assert.ok(records.has(step), step);
    assert.deepEqual(
      server.requests.filter((r) => r.record === 'Step1Record').map((r) => r.file),
      ['src/c.ts'],
    );
    const json = EvalJson.parse(await loadJson(join(bench.root, 'staged.json')));
    // The fake's staged review finds nothing: no judge call, precision undefined, the golden comment missed.
    assert.deepEqual(json.totals.findings, 0);
    assert.equal(json.totals.precision, null);
    assert.equal(json.totals.recall, 0);
    assert.match(run.stdout, /^total +0 +1 +0 +— +0\.0% /m);
    assert.ok(existsSync(join(bench.root, 'wd-staged', 'reports', 'acme-shop-3', 'review.md')));
  });

  it('scores what the bot would post under martian, the main findings alone beside; one-to-one scores the main ones', async () => {
    // PR 3 changes src/c.ts from line 3 on: a must_fix at line 1 is off the change, so pre-existing.
    const finding = (location: string, priority: 'must_fix' | 'should_fix') => ({
      rule_id: 'F1' as const,
      confidence: 'high' as const,
      priority,
      location,
      action: 'Fix the header comment.',
      rationale: 'It names the wrong module.',
    });
    server.setScenario({
      ...MINI_BENCH_SCENARIO,
      files: {
        'src/c.ts': {
          step2: { file_level_findings: [finding('src/c.ts:1', 'must_fix'), finding('src/c.ts:4', 'should_fix')] },
        },
      },
      judgements: [{ golden: 'locale', finding: 'src/c.ts:1', match: true, confidence: 0.8 }],
    });
    const posted = await evaluate('wd-pre', ['--pr', bench.urls[2]!, '--yes', '--json', 'pre.json']);
    assert.equal(posted.code, 0, posted.stderr);
    assert.match(posted.stdout, /^Scored: what the bot would post, the main findings and the pre-existing ones/m);
    const json = EvalJson.parse(await loadJson(join(bench.root, 'pre.json')));
    assert.equal(json.candidates, 'main_and_pre_existing');
    // The pre-existing must-fix is the true one: recall 100 % with it, 0 % with the main findings alone.
    assert.deepEqual([json.totals.findings, json.totals.tp, json.totals.fp], [2, 1, 1]);
    assert.deepEqual(json.main_only, { tp: 0, fp: 1, fn: 1, precision: 0, recall: 0, f1: 0 });
    assert.match(posted.stdout, /^ {2}main findings only: precision 0\.0% · recall 0\.0% · F1 0\.0%$/m);
    // The cuts, from the same judgements: the must-fix alone is the true one.
    assert.deepEqual(
      json.slices.map((c) => [c.min_priority, c.tp, c.fp, c.fn]),
      [
        ['nice_to_have', 1, 1, 0],
        ['should_fix', 1, 1, 0],
        ['must_fix', 1, 0, 0],
      ],
    );
    assert.match(
      posted.stdout,
      /^ {2}must-fix +precision 100\.0% · recall 100\.0% · F1 100\.0% \(tp 1 · fp 0 · fn 0\)$/m,
    );
    const main = await evaluate('wd-pre', [
      '--pr',
      bench.urls[2]!,
      '--yes',
      '--json',
      'main.json',
      '--matching',
      'one-to-one',
    ]);
    assert.equal(main.code, 0, main.stderr);
    assert.match(main.stdout, /^Scored: the main findings only; pre-existing findings .* are left out/m);
    const strict = EvalJson.parse(await loadJson(join(bench.root, 'main.json')));
    assert.equal(strict.candidates, 'main');
    assert.equal(strict.main_only, null);
    assert.equal(strict.totals.findings, 1);
  });

  it('leaves a PR whose judge keeps failing unscored, not a row of zeros, and exits 3', async () => {
    server.setScenario({
      ...MINI_BENCH_SCENARIO,
      faults: [{ kind: 'schema_invalid', match: { record: 'JudgeVerdict' }, times: -1 }],
    });
    const run = await evaluate('wd-judgefail', [
      '--pr',
      bench.urls[1]!,
      '--mode',
      'lenses',
      '--yes',
      '--json',
      'judgefail.json',
    ]);
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stdout, /^not scored: .*\/pull\/2: judge failed for 2 of 2 pairs \(reasons in --json\)$/m);
    assert.match(run.stdout, /^incomplete: 0 of 1 PRs scored — not comparable$/m);
    assert.doesNotMatch(run.stdout, /^Skeptic: /m);
    assert.doesNotMatch(run.stdout, /^Published on /m);
    const json = EvalJson.parse(await loadJson(join(bench.root, 'judgefail.json')));
    assert.equal(json.prs[0]!.scored, false);
    assert.equal(json.prs[0]!.tally, null);
    assert.equal(json.complete, false);
    assert.match(json.prs[0]!.judgements[0]!.reason, /^judge call failed: reply rejected after 2 repair turns/);
  });

  it('refuses a --pr the data does not name, and an unknown benchmark', async () => {
    const unknown = await evaluate('wd-bad', ['--pr', 'https://github.com/o/r/pull/1', '--dry-run'], {});
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /not in the benchmark data: https:\/\/github\.com\/o\/r\/pull\/1/);
    const other = await runCli(['eval', 'swe-bench'], { cwd: bench.root });
    assert.equal(other.code, 2);
    assert.match(other.stderr, /unknown benchmark "swe-bench" \(available: martian, aacr\)/);
  });

  it('counts as the benchmark does, keeps the unfetched PR in the totals, and pays nothing on a rerun', async () => {
    const run = await evaluate('wd-run', ['--mode', 'lenses', '--yes', '--json', 'eval.json']);
    assert.equal(run.code, 3, run.stderr); // one PR not scored
    assert.equal(reviewed(), 9); // three reviewers on each of the three PRs
    assert.equal(judged(), 2 * 2 + 1 * 2 + 1 * 1);

    const json = EvalJson.parse(await loadJson(join(bench.root, 'eval.json')));
    assert.equal(json.protocol, 'martian');
    assert.equal(json.judge_model, 'claude-opus-4-5-20251101');
    assert.equal(json.complete, false);
    assert.match(json.skeptic_version, /^\d+\.\d+\.\d+/);
    assert.equal(json.review_models.security, 'claude-opus-5-5');
    assert.equal(json.benchmark_commit, null, 'a --data folder outside the benchmark has no commit');
    const [pr1, pr2, pr3, pr4] = json.prs;
    // PR 1: both golden comments found by the first finding; the second's yes (0.8) does not raise the
    // off-by-one comment's best (0.9), so it is a false positive.
    assert.deepEqual(pr1!.counts, { tp: 2, fp: 1, fn: 0 });
    // PR 2: two findings say what one golden comment says: the less confident later one is a false positive.
    assert.deepEqual(pr2!.counts, { tp: 1, fp: 1, fn: 0 });
    assert.deepEqual(pr2!.scores, { precision: 0.5, recall: 1, f1: 2 / 3 });
    // PR 3: nothing matches.
    assert.deepEqual(pr3!.counts, { tp: 0, fp: 1, fn: 1 });
    assert.equal(pr4!.scored, false);
    assert.match(pr4!.error!, /^fetch failed: git fetch failed: .*pull\/4/);
    // The PRs came from file:// URLs: no forge to ask, so the merge base, said per PR.
    assert.deepEqual(pr1!.base, { source: 'merge-base', why: 'not a GitHub repository' });

    // Every selected PR counts: the unfetched one adds its golden comment as a miss.
    assert.deepEqual(
      { ...json.totals, recall_by_group: undefined, cost_usd: undefined, review_cost_usd: 0, judge_cost_usd: 0 },
      {
        findings: 5,
        golden: 5,
        matched: 3,
        tp: 3,
        fp: 3,
        fn: 2,
        precision: 0.5,
        recall: 0.6,
        f1: (2 * 0.5 * 0.6) / 1.1,
        prs_selected: 4,
        prs_scored: 3,
        prs_failed: 1,
        group_by: 'severity',
        recall_by_group: undefined,
        cost_usd: undefined,
        review_cost_usd: 0,
        judge_cost_usd: 0,
      },
    );
    assert.ok(json.totals.review_cost_usd! > 0 && json.totals.judge_cost_usd! > 0);
    assert.equal(json.totals.cost_usd, json.totals.review_cost_usd! + json.totals.judge_cost_usd!);
    assert.deepEqual(
      json.totals.recall_by_group.map((g) => `${g.group} ${g.matched}/${g.golden}`),
      ['Critical 1/1', 'High 1/1', 'Medium 1/1', 'Low 0/2'],
    );
    const rejected = pr3!.judgements[0]!;
    assert.equal(rejected.match, false);
    assert.match(rejected.reason, /no planted match/);
    assert.equal(pr1!.judgements.length, 4);
    assert.equal(json.judge_prompt, "Skeptic's own (prompts/eval-judge.md)");
    assert.equal(json.reference, null);
    assert.equal(json.reference_none, "the judge was sent Skeptic's own prompt, not the benchmark's");
    assert.match(run.stderr, /the benchmark's judging step is not beside .*: the judge gets Skeptic's own prompt/);

    assert.match(run.stdout, /^total +5 +5 +3 +50\.0% +60\.0% +\$\d+\.\d\d +\$\d+\.\d\d/m);
    assert.match(run.stdout, /^incomplete: 3 of 4 PRs scored — not comparable$/m);
    assert.match(
      run.stdout,
      /^Counting: the benchmark's own crediting; judge claude-opus-4-5-20251101, prompt Skeptic's own \(prompts\/eval-judge\.md\)$/m,
    );
    assert.match(run.stdout, /^Published figures: none to compare with — the judge was sent Skeptic's own prompt/m);
    assert.match(run.stdout, /^Recall by golden severity: Critical 1\/1 · High 1\/1 · Medium 1\/1 · Low 0\/2$/m);
    assert.match(run.stdout, /^not scored: .*\/pull\/4: fetch failed/m);
    for (const slug of readdirSync(join(bench.root, 'wd-run', 'reports')))
      assert.ok(existsSync(join(bench.root, 'wd-run', 'reports', slug, 'review.md')), slug);

    // The rerun's estimate knows the cached reviews' findings and the cached judgements: nothing to pay.
    server.reset();
    const again = await evaluate('wd-run', ['--mode', 'lenses', '--yes', '--json', 'again.json']);
    assert.equal(again.code, 3, again.stderr);
    assert.match(again.stdout, /^ {2}judge: {2}0 calls \(from the cached reviews; 7 already answered by the cache\)/m);
    assert.equal(server.requests.length, 0, 'a rerun is answered from the result cache');
    const second = EvalJson.parse(await loadJson(join(bench.root, 'again.json')));
    assert.deepEqual(second.totals.matched, 3);
    assert.deepEqual(
      second.prs.map((p) => p.review_calls + p.judge_calls),
      [0, 0, 0, 0],
    );

    // The same answers counted one-to-one: PR 1's second finding takes the off-by-one comment (so a.ts:4 takes
    // the null one) and is no false positive; PR 2's second finding still is.
    const strict = await evaluate('wd-run', [
      '--mode',
      'lenses',
      '--yes',
      '--matching',
      'one-to-one',
      '--json',
      'strict.json',
    ]);
    assert.equal(server.requests.length, 0);
    const oneToOne = EvalJson.parse(await loadJson(join(bench.root, 'strict.json')));
    assert.equal(oneToOne.protocol, 'one-to-one');
    assert.deepEqual(oneToOne.prs[0]!.counts, { tp: 2, fp: 0, fn: 0 });
    assert.deepEqual(oneToOne.prs[1]!.counts, { tp: 1, fp: 1, fn: 0 });
    assert.deepEqual([oneToOne.totals.tp, oneToOne.totals.fp, oneToOne.totals.precision], [3, 2, 0.6]);
    assert.match(strict.stdout, /^Counting: one-to-one matching, stricter than the published counting;/m);
  });

  it("judges with the benchmark's own prompt and prints the published figures of exactly the PRs scored", async () => {
    const run = await evaluate(
      'wd-complete',
      ['--mode', 'lenses', '--yes', '--limit', '5', '--json', 'complete.json'],
      {
        ANTHROPIC_API_KEY: 'k',
      },
      bench.treeData,
    );
    if (process.env.SKEPTIC_SHOW_EVAL_TABLE) process.stdout.write(run.stdout);
    assert.equal(run.code, 3, run.stderr); // PR 4 cannot be fetched
    const judge = server.requests.filter((r) => r.record === 'JudgeVerdict');
    assert.ok(judge.length > 0);
    for (const r of judge) {
      const body = r.body as MessagesBody & { temperature?: number };
      const content = body.messages[0]!.content;
      const text =
        typeof content === 'string' ? content : content.map((b) => (b as { text?: string }).text ?? '').join('');
      const schema = (body.output_config?.format?.schema ??
        body.tools?.find((t) => t.name.startsWith('submit_'))?.input_schema) as { properties: object };
      assert.equal(body.temperature, 0);
      assert.equal(body.model, 'claude-opus-4-5-20251101');
      assert.match(JSON.stringify(body.system), /Synthetic system line: answer in \\"JSON\\"\./);
      assert.match(
        text,
        /^Synthetic judge prompt for tests\.\n\nExpected issue:\n.+\n\nReviewer issue:\n.+\n\nReply as \{"reasoning"/,
      );
      // The record's fields in the benchmark's order: the reasoning first.
      assert.deepEqual(Object.keys(schema.properties), ['reasoning', 'match', 'confidence']);
    }
    assert.match(run.stderr, /note: the judge model claude-opus-4-5-20251101 is deprecated and retires on 2027-01-22/);
    const json = EvalJson.parse(await loadJson(join(bench.root, 'complete.json')));
    assert.match(json.judge_prompt, /^the benchmark's own \(code_review_benchmark\/step3_judge_comments\.py\)$/);
    // Three PRs scored: the published figures are summed over those three only (PR 4 left out).
    // Alpha Bot: tp 2, fp 2, fn 2 → 50 / 50 / 50; beta: tp 2, fp 5, fn 2 → 28.6 / 50 / 36.4.
    assert.equal(json.reference!.prs, 3);
    assert.deepEqual(
      json.reference!.scores.map((r) => [r.tool, ...[r.precision, r.recall, r.f1].map((x) => (100 * x!).toFixed(1))]),
      [
        ['Alpha Bot', '50.0', '50.0', '50.0'],
        ['beta', '28.6', '50.0', '36.4'],
      ],
    );
    assert.match(
      run.stdout,
      /^Published on the same 3 PRs, judge claude-opus-4-5-20251101 \(withmartian\/code-review-benchmark, offline\/results\/anthropic_claude-opus-4-5-20251101\/evaluations\.json\):$/m,
    );
    assert.match(run.stdout, /^ {2}Skeptic +precision 50\.0% · recall 75\.0% · F1 60\.0%$/m);
    assert.match(run.stdout, /^ {2}Alpha Bot +precision 50\.0% · recall 50\.0% · F1 50\.0%$/m);
    // PR 2's checkout touches one file where the benchmark recorded two.
    assert.deepEqual(
      json.prs.map((p) => [p.files_changed, p.files_recorded, p.head_drift]),
      [
        [1, 1, false],
        [1, 2, true],
        [1, 1, false],
        [null, 1, false],
      ],
    );
    assert.match(run.stdout, /^file:.*\/pull\/2 +1 ≠ 2 /m);
    assert.match(run.stdout, /^head drift: .*\/pull\/2: the checkout touches 1 files, the benchmark recorded 2$/m);
    assert.deepEqual(
      json.slices.map((c) => c.min_priority),
      ['nice_to_have', 'should_fix', 'must_fix'],
    );

    // Another judge: no published figure, said so.
    const other = await evaluate(
      'wd-complete',
      ['--mode', 'lenses', '--yes', '--pr', bench.urls[1]!, '--judge-model', 'claude-sonnet-4-5-20250929'],
      {
        ANTHROPIC_API_KEY: 'k',
      },
      bench.treeData,
    );
    assert.equal(other.code, 0, other.stderr);
    assert.match(
      other.stdout,
      /^Published figures: none to compare with — the benchmark publishes no results judged by claude-sonnet-4-5-20250929/m,
    );
    assert.doesNotMatch(other.stdout, /Alpha Bot/);
  });

  it('downloads the data at --data-ref, fetches no file:// repository it names, and refuses a profile for data without categories', async () => {
    const git = {
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: `url.${pathToFileURL(bench.benchmarkRepo).href}.insteadOf`,
      GIT_CONFIG_VALUE_0: 'https://github.com/withmartian/code-review-benchmark',
    };
    const env = { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'k', GITHUB_TOKEN: undefined, ...git };
    const tail = ['--pr', bench.urls[1]!, '--mode', 'lenses', '--yes', '--json', 'ref.json'];
    const before = server.requests.length;
    // The downloaded data names file:// repositories: this machine's files would be reviewed and sent.
    const refused = await runCli(
      ['eval', 'martian', '--workdir', 'wd-ref', '--data-ref', bench.benchmarkCommit, ...tail],
      {
        cwd: bench.root,
        env,
      },
    );
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /downloaded benchmark data names 1 pull request\(s\) outside https:\/\/github\.com/);
    assert.ok(refused.stderr.includes(bench.urls[1]!), refused.stderr);
    assert.match(refused.stderr, /pass your own data with --data DIR/);
    assert.equal(server.requests.length, before);
    assert.equal(existsSync(join(bench.root, 'wd-ref', 'repos')), false);
    // The same folder named with --data is the user's own choice: its offline copies are fetched.
    const downloaded = join(
      bench.root,
      'wd-ref',
      'data',
      'martian',
      bench.benchmarkCommit,
      'offline',
      'golden_comments',
    );
    const run = await runCli(['eval', 'martian', '--workdir', 'wd-ref', '--data', downloaded, ...tail], {
      cwd: bench.root,
      env,
    });
    assert.equal(run.code, 0, run.stderr);
    const json = EvalJson.parse(await loadJson(join(bench.root, 'ref.json')));
    assert.equal(json.benchmark_commit, bench.benchmarkCommit);
    assert.match(
      json.reference!.source,
      new RegExp(`^withmartian/code-review-benchmark at ${bench.benchmarkCommit.slice(0, 7)}, `),
    );
    // By default the pinned commit, which this repository does not have.
    const pinned = await runCli(['eval', 'martian', '--workdir', 'wd-ref', '--dry-run'], { cwd: bench.root, env: git });
    assert.equal(pinned.code, 2);
    assert.match(
      pinned.stderr,
      /could not download the benchmark at 012d68202e56280855b85abb956410086008a7b2 from https:\/\/github\.com\/withmartian\/code-review-benchmark/,
    );
    const profile = await evaluate('wd-ref', ['--dry-run', '--profile', 'strict'], {});
    assert.equal(profile.code, 2);
    assert.match(profile.stderr, /--profile needs data whose golden comments have categories; this data has none/);
  });

  it("scores categorised data under the benchmark's profile, the published figures too", async () => {
    // The same tree with categories: PR 1's off-by-one comment is style, out of the strict profile.
    const tree = join(bench.root, 'categorised');
    cpSync(bench.tree, tree, { recursive: true });
    const file = join(tree, 'offline', 'golden_comments', 'shop.json');
    const records = JSON.parse(readFileSync(file, 'utf8')) as Array<{ comments: Array<{ category?: string }> }>;
    for (const r of records)
      for (const [i, c] of r.comments.entries()) c.category = i === 0 && r === records[0] ? 'style' : 'bug';
    writeFileSync(file, JSON.stringify(records));
    const run = await evaluate(
      'wd-profile',
      ['--mode', 'lenses', '--yes', '--pr', bench.urls[0]!, '--profile', 'strict', '--json', 'profile.json'],
      { ANTHROPIC_API_KEY: 'k' },
      join(tree, 'offline', 'golden_comments'),
    );
    assert.equal(run.code, 0, run.stderr);
    const json = EvalJson.parse(await loadJson(join(bench.root, 'profile.json')));
    assert.equal(json.profile, 'strict');
    // Only the null comment counts, and it is found; a.ts:5's yes does not raise the off-by-one comment's best.
    assert.deepEqual([json.totals.golden, json.totals.tp, json.totals.fp, json.totals.fn], [1, 1, 1, 0]);
    assert.match(run.stdout, /^Counting: the benchmark's own crediting; .*; profile strict$/m);
    // Alpha found only the style comment: under strict, tp 0, fp 1, fn 1.
    assert.deepEqual(
      json.reference!.scores.find((r) => r.tool === 'Alpha Bot'),
      { tool: 'Alpha Bot', precision: 0, recall: 0, f1: 0 },
    );
  });

  it('Ctrl-C while judging exits 130 with the table and the JSON of what finished', async () => {
    // Every judge call hangs; the signal comes once one is in flight.
    server.setScenario({
      ...MINI_BENCH_SCENARIO,
      faults: [{ kind: 'slow', ms: 60_000, match: { record: 'JudgeVerdict' }, times: -1 }],
    });
    const child = spawn(
      process.execPath,
      [
        CLI,
        'eval',
        'martian',
        '--data',
        bench.data,
        '--workdir',
        'wd-int',
        '--mode',
        'lenses',
        '--yes',
        '--json',
        'int.json',
        '--pr',
        bench.urls[1]!,
        '--pr',
        bench.urls[2]!,
      ],
      {
        cwd: bench.root,
        env: {
          ...process.env,
          ANTHROPIC_API_KEY: 'k',
          ANTHROPIC_BASE_URL: server.url,
          GITHUB_TOKEN: '',
          XDG_CACHE_HOME: join(bench.root, 'xdg-int'),
        },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const judging = setInterval(() => {
      if (server.requests.some((r) => r.record === 'JudgeVerdict')) {
        clearInterval(judging);
        child.kill('SIGINT');
      }
    }, 20);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearInterval(judging);
    assert.equal(code, 130, stderr);
    assert.doesNotMatch(stderr, /internal error|at .*\.js:\d+/);
    assert.match(stdout, /^not scored: .*\/pull\/2: judging interrupted$/m);
    assert.match(stdout, /^incomplete: 0 of 2 PRs scored — not comparable$/m);
    const json = EvalJson.parse(await loadJson(join(bench.root, 'int.json')));
    assert.equal(json.complete, false);
    assert.deepEqual(
      json.prs.map((p) => p.error),
      ['judging interrupted', 'not run: interrupted'],
    );
  });

  it('reviews a merged PR against the base GitHub records for it, and refuses it when that base is unknown', async () => {
    // A PR merged into the default branch with a merge commit, at github.com as git and the API see it.
    const bare = join(bench.root, 'git', 'acme', 'merged.git');
    execFileSync('git', ['clone', '-q', '--mirror', join(bench.root, 'git', 'acme', 'shop.git'), bare]);
    const work = join(bench.root, 'merged-work');
    execFileSync('git', ['clone', '-q', bare, work]);
    const g = (...args: string[]) => execFileSync('git', ['-C', work, ...args], { encoding: 'utf8' }).trim();
    g('fetch', '-q', 'origin', 'refs/pull/3/head');
    g(
      '-c',
      'user.name=T',
      '-c',
      'user.email=t@example.com',
      'merge',
      '-q',
      '--no-ff',
      '-m',
      'Merge PR 7',
      'FETCH_HEAD',
    );
    g('push', '-q', 'origin', 'main', `${bench.heads[2]}:refs/pull/7/head`);
    const url = 'https://github.com/acme/merged/pull/7';
    const data = join(bench.root, 'merged-data');
    mkdirSync(data, { recursive: true });
    writeFileSync(
      join(data, 'merged.json'),
      JSON.stringify([
        { pr_title: 'Greeting', url, comments: [{ comment: 'greet ignores locale settings.', severity: 'Low' }] },
      ]),
    );
    const github = await startFakeGitHub({});
    try {
      const run = (args: string[], env: Record<string, string>) =>
        runCli(['eval', 'martian', '--data', data, '--workdir', 'wd-merged', '--mode', 'lenses', ...args], {
          cwd: bench.root,
          env: {
            ANTHROPIC_BASE_URL: server.url,
            GITHUB_TOKEN: '',
            GITHUB_API_URL: github.url,
            GIT_CONFIG_COUNT: '1',
            GIT_CONFIG_KEY_0: `url.${pathToFileURL(bare).href}.insteadOf`,
            GIT_CONFIG_VALUE_0: 'https://github.com/acme/merged',
            ...env,
          },
        });
      // GitHub does not know the PR: the merge base with main would be the PR's own head, an empty diff.
      const unknown = await run(['--dry-run'], {});
      assert.equal(unknown.code, 3, unknown.stderr);
      assert.match(
        unknown.stdout,
        /^not fetched: https:\/\/github\.com\/acme\/merged\/pull\/7: fetch failed: PR #7 is already merged into the default branch and its own base is unknown \(GitHub's API: GET \/repos\/acme\/merged\/pulls\/7 failed: 404 Not Found \(no GITHUB_TOKEN\)\)/m,
      );

      github.setPull('acme/merged', {
        number: 7,
        headSha: bench.heads[2]!,
        baseSha: bench.base,
        merged: true,
        diff: '',
      });
      const known = await run(['--yes', '--json', 'merged.json'], { ANTHROPIC_API_KEY: 'k' });
      assert.equal(known.code, 0, known.stderr);
      assert.doesNotMatch(known.stdout, /^base: /m);
      const json = EvalJson.parse(await loadJson(join(bench.root, 'merged.json')));
      assert.deepEqual(json.prs[0]!.base, { source: 'github', why: null });
      assert.deepEqual(json.prs[0]!.tally, { findings: 1, golden: 1, matched: 0 });
      assert.match(json.prs[0]!.findings[0]!.text, /^src\/c\.ts:4 /, "the PR's own change was reviewed");
    } finally {
      await github.close();
    }
  });

  it("scores AACR-Bench at the comment's place: same file, within a line, and the judge's yes", async () => {
    const place = (path: string, line: number, side?: 'right') => ({
      path,
      from_line: line,
      to_line: line,
      ...(side ? { side } : {}),
    });
    const record = (n: number, comments: object[]) => ({
      githubPrUrl: bench.urls[n - 1],
      source_commit: bench.base,
      target_commit: bench.heads[n - 1],
      change_line_count: 8,
      comments,
    });
    const data = join(bench.root, 'aacr');
    mkdirSync(data, { recursive: true });
    writeFileSync(
      join(data, 'negative_samples.json'),
      JSON.stringify([
        record(1, [{ note: 'Not an issue: never read as one.', ...place('src/a.ts', 4), category: 'Code Defect' }]),
      ]),
    );
    writeFileSync(
      join(data, 'positive_samples.json'),
      JSON.stringify([
        // No side on the second comment: taken as the PR's side, so both comments find a finding.
        record(1, [
          { note: 'The loop is off-by-one.', ...place('src/a.ts', 4, 'right'), category: 'Code Defect' },
          { note: 'xs may be null.', ...place('src/a.ts', 5), category: 'Code Defect' },
        ]),
        // The judge would say yes to the second comment, but no finding is in its file.
        record(2, [
          { note: 'SQL injection here.', ...place('src/b.ts', 3, 'right'), category: 'Security Vulnerability' },
          { note: 'Another injection.', ...place('src/other.ts', 3, 'right'), category: 'Security Vulnerability' },
        ]),
        record(3, [
          { note: 'Ignores locale.', ...place('src/c.ts', 4, 'right'), category: 'Maintainability and Readability' },
        ]),
      ]),
    );
    const run = await runCli(
      ['eval', 'aacr', '--data', data, '--workdir', 'wd-aacr', '--mode', 'lenses', '--yes', '--json', 'aacr.json'],
      { cwd: bench.root, env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url } },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^ {2}judge: {2}at most 25 calls/m);
    // Only pairs at the same place are judged: 2 × 2 in PR 1, 1 × 2 in PR 2, 1 × 1 in PR 3.
    assert.equal(judged(), 7);
    const json = EvalJson.parse(await loadJson(join(bench.root, 'aacr.json')));
    assert.deepEqual(
      json.prs.map((p) => p.tally),
      [
        { findings: 2, golden: 2, matched: 2 },
        { findings: 2, golden: 2, matched: 1 },
        { findings: 1, golden: 1, matched: 0 },
      ],
    );
    assert.equal(json.protocol, 'one-to-one', "AACR-Bench keeps Skeptic's own counting");
    assert.equal(json.totals.group_by, 'category');
    assert.deepEqual(
      json.totals.recall_by_group.map((g) => `${g.group} ${g.matched}/${g.golden}`),
      ['Security Vulnerability 1/2', 'Code Defect 2/2', 'Performance 0/0', 'Maintainability and Readability 0/1'],
    );
    assert.equal(json.reference, null);
    assert.match(
      run.stdout,
      /^Skeptic: precision 60\.0% · recall 60\.0% · F1 60\.0% over 3 scored PRs \(main findings\)$/m,
    );
    assert.match(run.stdout, /^Published figures: none to compare with — AACR-Bench publishes no per-PR results$/m);
  });
});
