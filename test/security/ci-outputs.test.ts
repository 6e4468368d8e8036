/**
 * `skeptic ci` when what it writes cannot be written, or when the runner stops it (issue 36, low items):
 * `--events` is honoured, a job summary or an event log on a full device ends in one line and exit 2 (not a
 * stack and exit 1, the findings code), and SIGTERM ends in one line and exit 143 with what finished kept.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { startFakeAnthropic, type FakeAnthropic } from '../fake-anthropic/server';
import { startFakeGitHub, type FakeGitHub } from '../fake-github/server';
import type { TempRepo } from '../helpers/git-repo';
import { runCi, shopPullRequest, type CiRunOptions } from '../helpers/pull-request';
import { shopScenarioWithPreExisting } from '../helpers/shop-change';

/** A stack frame, or the words the CLI prints for an error it did not expect. */
const UNEXPECTED = /internal error|\n\s+at /;

describe('skeptic ci: its own outputs and its stop', function () {
  this.timeout(120_000);
  let anthropic: FakeAnthropic;
  let github: FakeGitHub;
  const scenario = shopScenarioWithPreExisting();

  before(async () => (anthropic = await startFakeAnthropic({ scenario })));
  after(() => anthropic.close());
  beforeEach(async () => {
    anthropic.setScenario(scenario);
    anthropic.reset();
    github = await startFakeGitHub({ 'bot-token': { login: 'github-actions[bot]', type: 'Bot', write: true } });
  });
  afterEach(() => github.close());

  const ci = (pr: { repo: TempRepo; base: string }, opts: CiRunOptions = {}) => runCi(github, anthropic.url, pr, opts);

  it('--events FILE: every event of the review, one JSON line each, the last one the run done', async () => {
    const pr = shopPullRequest();
    const run = await ci(pr, { args: ['--events', 'events.jsonl'] });
    assert.equal(run.code, 0, run.stderr);
    // Before: ci took the flag and wrote nothing.
    const lines = readFileSync(pr.repo.path('events.jsonl'), 'utf8').trim().split('\n');
    const events = lines.map((l) => JSON.parse(l) as { type: string; ts: string; findings?: number });
    assert.equal(
      events.filter((e) => e.type === 'call').length,
      anthropic.requests.length,
      'a call line for each request',
    );
    const done = events[events.length - 1]!;
    assert.equal(done.type, 'done');
    assert.ok((done.findings ?? 0) >= 4, JSON.stringify(done));
    assert.ok(events.every((e) => !Number.isNaN(Date.parse(e.ts))));
  });

  const full: Array<[string, CiRunOptions]> = [
    ['GITHUB_STEP_SUMMARY=/dev/full', { env: { GITHUB_STEP_SUMMARY: '/dev/full' } }],
    ['--events /dev/full', { args: ['--events', '/dev/full'] }],
  ];
  for (const [what, opts] of full) {
    it(`${what}: one line that names it, exit 2 (not a stack and exit 1), the review still posted`, async () => {
      const pr = shopPullRequest();
      const run = await ci(pr, opts);
      // Before: "skeptic: internal error" with a stack, exit 1 (the findings code).
      assert.equal(run.code, 2, run.stderr);
      assert.doesNotMatch(run.stderr, UNEXPECTED);
      const said = run.stderr.split('\n').filter((l) => l.includes('/dev/full'));
      assert.equal(said.length, 1, run.stderr);
      assert.match(said[0]!, /^skeptic: (cannot write the job summary to \/dev\/full|--events \/dev\/full).*ENOSPC/);
      assert.equal(github.reviews.length, 1, 'the review is posted whatever happens to the file');
    });
  }

  it('SIGTERM during the review: exit 143, one line, no stack; the report and the job summary keep what finished', async () => {
    const pr = shopPullRequest();
    // shop/cart.ts is reviewed while every call about shop/price.ts hangs; the runner stops the step then.
    anthropic.setScenario({
      ...scenario,
      faults: [{ kind: 'slow', ms: 60_000, times: -1, match: { file: 'shop/price.ts' } }],
    });
    const events = pr.repo.path('events.jsonl');
    const run = await ci(pr, {
      args: ['--events', 'events.jsonl'],
      stop: { signal: 'SIGTERM', when: logged(events, /"type":"finding".*"file":"shop\/cart\.ts"/) },
    });
    assert.equal(run.code, 143, run.stderr);
    assert.doesNotMatch(run.stderr, UNEXPECTED);
    assert.equal(
      run.stderr.split('\n').filter((l) => /terminated/.test(l)).length,
      1,
      `one line says why it stopped:\n${run.stderr}`,
    );
    assert.ok(
      anthropic.requests.some((r) => r.file === 'shop/price.ts' && r.status === null),
      'the hanging calls were left, not awaited',
    );
    const report = readFileSync(pr.repo.path('.skeptic/reports/code-review-pr-7.md'), 'utf8');
    assert.match(report, /shop\/cart\.ts:17/);
    // What finished goes out as annotations, and the job summary counts it and says why it is not on the PR.
    assert.match(run.stdout, /^::error file=shop\/cart\.ts,line=17,/m, run.stdout);
    assert.match(run.summary, /\| 1 \| 0 \| 0 \|/);
    assert.match(run.summary, /Stopped before anything was posted to the pull request/);
    assert.match(run.summary, /shop\/price\.ts: .*cancelled/);
  });
});

/** Resolves once the file holds a line matching `line` (the run's --events log, as it grows). */
function logged(file: string, line: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    const give = setTimeout(() => {
      clearInterval(poll);
      reject(new Error(`${file} never logged ${line}`));
    }, 60_000);
    const poll = setInterval(() => {
      if (!existsSync(file) || !line.test(readFileSync(file, 'utf8'))) return;
      clearInterval(poll);
      clearTimeout(give);
      resolve();
    }, 50);
  });
}
