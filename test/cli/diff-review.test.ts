import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StagedJsonReport } from '../../src/report/json';
import { PlanJson } from '../../src/report/planJson';
import { SarifLog } from '../../src/report/sarif';
import type { Scenario } from '../fake-anthropic/scenario';
import { startFakeAnthropic, type FakeAnthropic } from '../fake-anthropic/server';
import { FIXTURES, loadJson, runCli } from '../helpers/cli';
import { TempRepo } from '../helpers/git-repo';
import { editedShop, shopScenarioWithPreExisting } from '../helpers/shop-change';

describe('diff review through the CLI against the fake API', function () {
  this.timeout(60_000);
  let server: FakeAnthropic;
  let scenario: Scenario;

  before(async () => {
    scenario = shopScenarioWithPreExisting();
    server = await startFakeAnthropic({ scenario });
  });
  after(() => server.close());
  beforeEach(() => server.reset());

  const review = (cwd: string, ...args: string[]) =>
    runCli(['review', ...args, '--json', 'result.json'], {
      cwd,
      env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url },
    });

  it('reviews only the functions a change touches and reports only on changed lines', async () => {
    const repo = editedShop();
    const run = await review(repo.dir, '--changes', '--sarif', 'result.sarif');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^2 files under review, 1 companion discovered\.$/m);

    const step3 = server.requests.filter((r) => r.record === 'PerFunctionReview' || r.record === 'BatchReview');
    assert.deepEqual(step3.map((r) => `${r.file} ${r.functions.join(',')}`).sort(), [
      'shop/cart.ts Cart.total',
      'shop/price.ts parsePrice',
    ]);
    const packet = JSON.stringify(step3.find((r) => r.file === 'shop/cart.ts')!.body);
    assert.match(packet, /\\"changed_ranges\\": \[\\n\s+\[\\n\s+17,\\n\s+18\\n/);

    const json = await loadJson<StagedJsonReport>(join(repo.dir, 'result.json'));
    const key = (f: StagedJsonReport['findings'][number]) => `${f.file}:${f.line} ${f.rule_id} ${f.priority}`;
    assert.deepEqual(json.findings.map(key).sort(), [
      'shop/cart.ts:17 A1 must_fix',
      'shop/price.ts:11 A1 should_fix',
      'shop/price.ts:3 G1 should_fix',
    ]);
    // The must_fix off the change is kept, apart: its own list, not the main count.
    assert.deepEqual(json.pre_existing.map(key), ['shop/price.ts:1 F1 must_fix']);
    assert.match(run.stdout, /^3 findings \(1 must fix, 2 should fix, 0 nice to have\), and 1 pre-existing apart/m);
    assert.deepEqual(json.review_roots, ['.']);
    // Named after the change, not the folder it ran in.
    assert.equal(json.report_path, 'code-review-changes.md');
    const report = readFileSync(join(repo.dir, 'code-review-changes.md'), 'utf8');
    assert.match(report, /`shop\/price\.ts:1` - .*\[pre-existing: not on a changed line\]/);
    assert.doesNotMatch(report, /`shop\/cart\.ts:17` - .*pre-existing/);
    const [main, apart] = report.split('## Pre-existing Findings');
    assert.ok(apart, 'the report lists pre-existing findings in their own section');
    assert.doesNotMatch(main!.slice(main!.indexOf('## Findings')), /shop\/price\.ts:1`/);
    assert.match(apart, /^1\. `shop\/price\.ts:1` - /m);
    // SARIF: marked, and one level lower than its priority's (must_fix is an error).
    const sarif = SarifLog.parse(await loadJson(join(repo.dir, 'result.sarif')));
    const levels = sarif.runs[0]!.results.map(
      (r) =>
        `${r.locations[0]!.physicalLocation.region.startLine} ${r.ruleId} ${r.level} ${r.properties.preExisting ?? false}`,
    );
    assert.ok(levels.includes('1 F1 warning true'), levels.join('; '));
    assert.ok(levels.includes('17 A1 error false'), levels.join('; '));
  });

  it('skips a change under five lines unless forced', async () => {
    const repo = new TempRepo();
    cpSync(join(FIXTURES, 'shop'), repo.path('shop'), { recursive: true });
    repo.commit('shop');
    writeFileSync(repo.path('shop/price.ts'), readFileSync(repo.path('shop/price.ts'), 'utf8').replace("'$'", "'€'"));
    const skipped = await review(repo.dir, '--changes');
    assert.equal(skipped.code, 0, skipped.stderr);
    assert.match(skipped.stdout, /^SKIP: < 5 changed lines$/m);
    assert.equal(server.requests.length, 0);

    // Only price.ts is in scope: the planted cross-file finding would cite a file this review does not cover.
    server.setScenario({ ...scenario, synthesis: { cross_file_findings: [] } });
    const forced = await review(repo.dir, '--changes', '--force');
    server.setScenario(scenario);
    assert.equal(forced.code, 0, forced.stderr);
    assert.ok(server.requests.some((r) => r.record === 'BatchReview' && r.functions.includes('parsePrice')));
  });

  it('says clearly when a change scope is not in a git repository', async () => {
    const repo = new TempRepo({ init: false });
    const run = await review(repo.dir, '--staged');
    assert.equal(run.code, 2);
    assert.match(run.stderr, /not inside a git repository/);
  });

  it('plans without a key: files, exclusions and an estimate', async () => {
    const repo = editedShop();
    repo.write('shop/package-lock.json', '{}\n');
    const run = await runCli(['plan', '--changes', '--verbose'], { cwd: repo.dir });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Scope: uncommitted changes$/m);
    assert.match(run.stdout, /^ {2}shop\/cart\.ts {2}5 functions {2}\(companion shop\/cart\.test\.ts\)$/m);
    assert.match(run.stdout, /^ {2}lock file: 1$/m);
    assert.match(run.stdout, /^Estimate: \d+ model calls · .* · ~\$\d+\.\d\d at the price table of /m);
    // Without --verbose: counts and reasons only, and a pointer to the paths.
    const summary = await runCli(['plan', '--changes'], { cwd: repo.dir });
    assert.doesNotMatch(summary.stdout, /^ {2}shop\/cart\.ts/m);
    assert.match(summary.stdout, /^Excluded: 1 \(1 lock file\)$/m);
    assert.match(summary.stdout, /^Paths: skeptic plan --verbose lists every file\.$/m);

    const json = await runCli(['plan', '--changes', '--json'], { cwd: repo.dir });
    assert.equal(json.code, 0, json.stderr);
    const plan = PlanJson.parse(JSON.parse(json.stdout));
    const cart = plan.files.find((f) => f.path === 'shop/cart.ts')!;
    assert.deepEqual([cart.language, cart.companion, cart.parser], ['typescript', 'shop/cart.test.ts', 'syntax']);
    assert.deepEqual(cart.functions[1], { name: 'Cart.total', kind: 'method', start: 15, end: 21 });
    assert.deepEqual(plan.exclusions, [{ path: 'shop/package-lock.json', reason: 'lock_file' }]);
    assert.deepEqual(Object.keys(plan.estimate.by_step), ['curate', 'analyze', 'review', 'challenge', 'synthesize']);
    assert.equal(
      plan.estimate.calls,
      Object.values(plan.estimate.by_step).reduce((n, s) => n + s.calls, 0),
    );
    assert.equal(plan.estimate.functions, 2, 'the functions the change touches: Cart.total and parsePrice');
    assert.equal(server.requests.length, 0);
  });
});
