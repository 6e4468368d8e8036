import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Scenario } from '../fake-anthropic/scenario';
import { startFakeAnthropic, type FakeAnthropic } from '../fake-anthropic/server';
import { startFakeGitHub, type FakeGitHub } from '../fake-github/server';
import { StagedJsonReport } from '../../src/report/json';
import { SarifLog } from '../../src/report/sarif';
import { fixtureWorkspace, loadJson, runCli } from '../helpers/cli';
import { runCi, shopPullRequest } from '../helpers/pull-request';
import { shopScenarioWithPreExisting } from '../helpers/shop-change';

/** --min-priority: what a review shows and writes, and what `skeptic ci` posts inline. */
describe('--min-priority through the CLI against the fake APIs', function () {
  this.timeout(90_000);
  let anthropic: FakeAnthropic;
  let scenario: Scenario;

  before(async () => {
    scenario = shopScenarioWithPreExisting();
    // A nice-to-have on a line the pull request changes (parsePrice, line 11): in a diff review it survives.
    const f1 = scenario.files!['shop/price.ts']!.step2!.file_level_findings!.find((f) => f.rule_id === 'F1')!;
    f1.location = 'shop/price.ts:11';
    anthropic = await startFakeAnthropic({ scenario: shopScenarioWithPreExisting() });
  });
  after(() => anthropic.close());

  const review = (cwd: string, args: string[]) =>
    runCli(['review', 'shop', '--json', 'result.json', ...args], {
      cwd,
      env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: anthropic.url },
    });

  it('review --min-priority should_fix leaves the nice-to-haves out of --json findings, SARIF and the report, and counts them', async () => {
    anthropic.setScenario(shopScenarioWithPreExisting());
    const cwd = await fixtureWorkspace('shop');
    const run = await review(cwd, ['--min-priority', 'should_fix', '--sarif', 'out.sarif']);
    assert.equal(run.code, 0, run.stderr);
    const json = StagedJsonReport.parse(await loadJson(join(cwd, 'result.json')));
    assert.ok(json.findings.length > 0);
    assert.ok(!json.findings.some((f) => f.priority === 'nice_to_have'), JSON.stringify(json.findings));
    // The fixture's three nice-to-haves (cart.ts:12 A2, cart.ts:32 A6, price.ts:6 F1) are kept apart, not lost.
    assert.equal(json.below_min_priority?.min_priority, 'should_fix');
    assert.equal(json.below_min_priority?.count, 3);
    assert.deepEqual(
      json.below_min_priority?.findings.map((f) => `${f.file}:${f.line} ${f.rule_id} ${f.priority}`).sort(),
      ['shop/cart.ts:12 A2 nice_to_have', 'shop/cart.ts:32 A6 nice_to_have', 'shop/price.ts:6 F1 nice_to_have'],
    );
    const sarif = SarifLog.parse(await loadJson(join(cwd, 'out.sarif')));
    assert.ok(!sarif.runs[0]!.results.some((r) => r.level === 'note'));
    const report = await readFile(join(cwd, 'code-review-shop.md'), 'utf8');
    assert.match(report, /^- 3 findings below should_fix left out \(--min-priority should_fix\)/m);
    assert.doesNotMatch(report, /nice to have/i);
    assert.match(run.stdout + run.stderr, /0 nice to have\), 3 findings below should_fix left out/);
  });

  it('without --min-priority every finding is listed and below_min_priority is null', async () => {
    anthropic.setScenario(shopScenarioWithPreExisting());
    const cwd = await fixtureWorkspace('shop');
    const run = await review(cwd, []);
    assert.equal(run.code, 0, run.stderr);
    const json = StagedJsonReport.parse(await loadJson(join(cwd, 'result.json')));
    assert.equal(json.findings.filter((f) => f.priority === 'nice_to_have').length, 3);
    assert.equal(json.below_min_priority, null);
  });

  it('a bad value is a usage error naming the allowed values, before any call', async () => {
    anthropic.reset();
    const cwd = await fixtureWorkspace('shop');
    for (const command of [['review', 'shop'], ['plan', 'shop'], ['ci']]) {
      const run = await runCli([...command, '--min-priority', 'low'], {
        cwd,
        env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: anthropic.url },
      });
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, /--min-priority must be one of must_fix, should_fix, nice_to_have/);
    }
    assert.equal(anthropic.requests.length, 0);
  });

  describe('skeptic ci', () => {
    let github: FakeGitHub;
    beforeEach(async () => {
      anthropic.setScenario(scenario);
      anthropic.reset();
      github = await startFakeGitHub({ 'bot-token': { login: 'github-actions[bot]', type: 'Bot', write: true } });
    });
    afterEach(() => github.close());

    it('by default posts must-fix and should-fix inline and folds the nice-to-have into the summary', async () => {
      const run = await runCi(github, anthropic.url, shopPullRequest());
      assert.equal(run.code, 0, run.stderr);
      const inline = github.reviewComments.map((c) => c.body);
      assert.ok(inline.length > 0);
      assert.ok(!inline.some((b) => /nice to have/.test(b)), inline.join('\n---\n'));
      assert.doesNotMatch(github.reviews[0]!.body, /nice to have|Document applyDiscount/);
      const summary = github.issueComments[0]!.body;
      assert.match(summary, /\*\*Below should fix, not posted inline\*\* \(1 finding;/);
      assert.match(summary, /- 🔵 `shop\/price\.ts:11` .*Document applyDiscount/);
    });

    it('--min-priority nice_to_have posts the nice-to-have inline, and nothing is folded', async () => {
      const run = await runCi(github, anthropic.url, shopPullRequest(), { args: ['--min-priority', 'nice_to_have'] });
      assert.equal(run.code, 0, run.stderr);
      assert.ok(
        github.reviewComments.some((c) => c.path === 'shop/price.ts' && /Document applyDiscount/.test(c.body)),
        github.reviewComments.map((c) => c.body).join('\n---\n'),
      );
      assert.doesNotMatch(github.issueComments[0]!.body, /not posted inline/);
    });
  });
});
