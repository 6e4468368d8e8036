import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fixtureWorkspace, loadJson, runCli } from '../helpers/cli';
import { useFakeServer } from '../helpers/fakeServer';
import { editedShop, fixCartTotal } from '../helpers/shop-change';

describe('the CLI for agents: --max-cost and --format agent, against the fake API', function () {
  this.timeout(120_000);
  const fake = useFakeServer();
  const env = (cache?: string) => ({
    ANTHROPIC_API_KEY: 'k',
    ANTHROPIC_BASE_URL: fake.server.url,
    ...(cache ? { XDG_CACHE_HOME: cache } : {}),
  });

  it('--max-cost below the cheapest plan refuses at once: no call, exit 2, the estimate said', async () => {
    const cwd = await fixtureWorkspace('shop');
    const run = await runCli(['review', 'shop', '--yes', '--max-cost', '0.05'], { cwd, env: env() });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /cheapest plan for this review is estimated at \$0\.\d\d, over --max-cost \$0\.05/);
    assert.equal(fake.server.requests.length, 0);
    const bad = await runCli(['review', 'shop', '--max-cost', 'lots'], { cwd, env: env() });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--max-cost takes an amount of US dollars/);
  });

  it('--max-cost stops before the call that would pass it, with a partial report of what was not reviewed', async () => {
    // A model that rambles costs more than the estimate foresaw: the ceiling, not the estimate, stops it.
    fake.server.setScenario({
      ...fake.scenario,
      faults: [{ kind: 'verbose', chars: 40_000, times: -1, match: { record: 'PerFunctionReview' } }],
    });
    const cwd = await fixtureWorkspace('shop');
    const run = await runCli(['review', 'shop', '--yes', '--no-cache', '--max-cost', '0.4', '--json', 'r.json'], {
      cwd,
      env: env(),
    });
    assert.equal(run.code, 3, run.stderr);
    assert.match(
      run.stdout,
      /Stopped early: the next model call would take the run past its ceiling of \$0\.40 \(--max-cost/,
    );
    const json = await loadJson<{ usage: { cost_usd: number } }>(join(cwd, 'r.json'));
    assert.ok(json.usage.cost_usd <= 0.4, `spent ${json.usage.cost_usd}`);
    const report = readFileSync(join(cwd, 'code-review-shop.md'), 'utf8');
    assert.match(report, /Not Reviewed/);
    assert.match(report, /--max-cost/);
  });

  it('--format agent: a line per finding with its fix prompt, then the verdict; 1 until converged, then 0', async () => {
    const repo = editedShop();
    const cache = mkdtempSync(join(tmpdir(), 'skeptic-user-cache-'));
    const agent = () => runCli(['review', '--format', 'agent', '--changes'], { cwd: repo.dir, env: env(cache) });
    const first = await agent();
    assert.equal(first.code, 1, first.stderr);
    const lines = first.stdout.trimEnd().split('\n');
    assert.match(
      lines.at(-1)!,
      /^verdict: not converged — fix the new findings and review again \(\d+ findings, \d+ new; \d+ calls, \$\d/,
    );
    const findings = lines.slice(0, -1);
    assert.ok(findings.length > 0);
    for (const line of findings)
      assert.match(
        line,
        /^(must_fix|should_fix|nice_to_have) shop\/\S+:\d+(-\d+)? [A-Z]\d+ \(new\) [0-9a-f]{8,} fix: "Fix this code review finding/,
      );
    const cart = findings.find((l) => l.startsWith('must_fix shop/cart.ts:17'));
    assert.ok(cart, first.stdout);
    const prompt = JSON.parse(cart.slice(cart.indexOf('fix: ') + 5)) as string;
    assert.match(prompt, /What to do: Loop while i < this\.items\.length\./);
    assert.match(prompt, /for \(let i = 0; i <= this\.items\.length; i \+= 1\)/, 'the code around it is quoted');
    assert.equal(first.stderr, '', 'nothing but the answer');

    fake.server.setScenario(fixCartTotal(repo.dir, fake.scenario));
    const second = await agent();
    assert.equal(second.code, 0, second.stdout + second.stderr);
    assert.match(second.stdout, /^verdict: converged — nothing new since the last review/m);
    assert.doesNotMatch(second.stdout, /\(new\)/);
    assert.doesNotMatch(second.stdout, /shop\/cart\.ts:17 A1/);
    assert.ok(!existsSync(join(repo.dir, 'r.json')));

    const wrong = await runCli(['review', '--format', 'yaml'], { cwd: repo.dir, env: env(cache) });
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /--format takes text or agent, got "yaml"/);
  });
});
