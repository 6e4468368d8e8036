import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LensJsonReport } from '../../src/report/lensJson';
import type { Scenario } from '../fake-anthropic/scenario';
import { startFakeAnthropic, type FakeAnthropic, type LoggedRequest } from '../fake-anthropic/server';
import { fixtureWorkspace, loadJson, runCli } from '../helpers/cli';
import { TempRepo } from '../helpers/git-repo';

type Json = LensJsonReport;
type Body = {
  model: string;
  system: Array<{ text: string }>;
  tools?: unknown[];
  output_config?: { format?: unknown; effort?: string };
  messages: Array<{ content: Array<{ type: string; text?: string; cache_control?: unknown }> }>;
};

/** What the shop's reviewers say; fates are asserted per test. */
const SHOP: Scenario = {
  lenses: {
    logic: [
      {
        file: 'shop/cart.ts',
        line: 17,
        severity: 'HIGH',
        title: 'Loop reads past the end',
        evidence: 'i <= length reads items[length].',
        recommendation: 'Loop while i < length.',
        confidence: 5,
      },
      {
        file: 'shop/cart.ts',
        line: 26,
        severity: 'MEDIUM',
        title: 'Save failure swallowed',
        evidence: 'The catch block is empty.',
        confidence: 4,
      },
      { file: 'shop/price.ts', line: 11, severity: 'HIGH', title: 'Speculative NaN', confidence: 2 },
    ],
    security: [{ file: 'shop/price.ts', line: 3, severity: 'LOW', confidence: 1 }],
    performance: [
      {
        file: 'shop/cart.ts',
        line: 17,
        severity: 'MEDIUM',
        title: 'Rounding inside the loop',
        evidence: 'Math.round runs per item.',
        confidence: 3,
      },
    ],
    'silent-failures': [
      {
        file: 'shop/cart.ts',
        line: 26,
        severity: 'HIGH',
        title: 'Empty catch hides store errors',
        evidence: 'A failed put reports success.',
        confidence: 5,
      },
    ],
  },
  validations: [
    { file: 'shop/cart.ts', line: 26, verdict: 'REJECTED', reason: 'The store retries internally; documented.' },
  ],
};

const body = (r: LoggedRequest) => r.body as Body;
const lastBlock = (r: LoggedRequest) => body(r).messages[0]!.content.at(-1)!.text!;
const packetOf = (r: LoggedRequest) =>
  JSON.parse(/```json\n([\s\S]*?)\n```/.exec(lastBlock(r))![1]!) as Record<string, unknown>;
/** A prime is the one-token call that writes a shared prefix to the cache before reviewers on its model start. */
const isPrime = (r: LoggedRequest) => (r.body as { max_tokens?: number }).max_tokens === 1;
const reviews = (server: FakeAnthropic) =>
  server.requests.filter((r) => r.record === 'LensReview' && r.reviewer !== 'cross-repo' && !isPrime(r));
const key = (f: Json['findings'][number]) => `${f.file}:${f.line} ${f.severity} ${f.reviewers.join('+')}`;

describe('lens mode through the CLI against the fake API', function () {
  this.timeout(60_000);
  let server: FakeAnthropic;

  before(async () => {
    server = await startFakeAnthropic({ scenario: SHOP, latencyMs: 150 });
  });
  after(() => server.close());
  beforeEach(() => {
    server.setScenario(SHOP);
    server.reset();
  });

  const env = () => ({ ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.url });
  const review = (cwd: string, args: string[] = [], what = ['shop']) =>
    runCli(['review', ...what, '--mode', 'lenses', '--json', 'result.json', ...args], { cwd, env: env() });

  it('runs security, logic and performance in parallel over one shared, cached prefix', async () => {
    const cwd = await fixtureWorkspace('shop');
    const run = await review(cwd);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /^reviewers · 3\/3 reviewers · \d+ calls · \$\d+\.\d\d · 0:\d\d$/m);

    const calls = reviews(server);
    assert.deepEqual(calls.map((r) => r.reviewer).sort(), ['logic', 'performance', 'security']);
    // In parallel: the reviewers sharing a primed prefix with each other, the one on its own model with the prime.
    const overlap = (a: LoggedRequest, b: LoggedRequest, what: string) =>
      assert.ok(a.started_at < b.ended_at! && b.started_at < a.ended_at!, what);
    const by = Object.fromEntries(calls.map((r) => [r.reviewer, r]));
    overlap(by.security!, by.logic!, 'security and logic overlap');
    overlap(by.performance!, server.requests.find(isPrime)!, 'performance runs while the prime writes the opus prefix');
    assert.deepEqual(Object.fromEntries(calls.map((r) => [r.reviewer, body(r).model])), {
      security: 'claude-opus-5-5',
      logic: 'claude-opus-5-5',
      performance: 'claude-sonnet-5-5',
    });

    // One system prompt, one tool list, one output schema, and the same user blocks up to the brief.
    const [first, ...rest] = calls.map(body);
    for (const b of rest) {
      assert.deepEqual(b.system, first!.system);
      assert.deepEqual(b.tools, first!.tools);
      assert.deepEqual(b.output_config!.format, first!.output_config!.format);
      assert.deepEqual(b.messages[0]!.content.slice(0, -1), first!.messages[0]!.content.slice(0, -1));
    }
    const prefix = first!.messages[0]!.content.slice(0, -1);
    assert.ok(prefix.at(-1)!.cache_control, 'the scope block ends at a cache breakpoint');
    assert.match(
      prefix.at(-1)!.text!,
      /<untrusted_source_[0-9a-f]{8} path="shop\/cart\.ts" role="primary" lines="38">/,
    );
    for (const r of calls) {
      assert.match(lastBlock(r), new RegExp(`^# Your lens: ${r.reviewer}`));
      assert.match(lastBlock(r), /## Before you answer: self-critique[\s\S]*below 3/);
      assert.deepEqual(Object.keys(packetOf(r)), ['reviewer', 'review_target']);
      assert.equal(packetOf(r).reviewer, r.reviewer);
      assert.equal(body(r).output_config!.effort, 'xhigh');
    }

    // Security and logic share a model: one prime writes their prefix first, and both read it. Performance
    // is alone on its model, so nothing is primed for it.
    const primes = server.requests.filter(isPrime);
    assert.deepEqual(
      primes.map((r) => body(r).model),
      ['claude-opus-5-5'],
    );
    const opus = calls.filter((r) => body(r).model === 'claude-opus-5-5');
    for (const r of opus) {
      assert.ok(r.started_at >= primes[0]!.ended_at!, `${r.reviewer} started after the prime`);
      assert.ok(r.usage!.cache_read_input_tokens > 0, `${r.reviewer} read the cache`);
    }
    assert.deepEqual(body(primes[0]!).messages[0]!.content.slice(0, -1), prefix);
    const json = await loadJson<Json>(join(cwd, 'result.json'));
    assert.ok(json.usage.cache_read_input_tokens > 0);
    assert.match(run.stdout, /4 model calls, cache read \d+% of prompt tokens/);
  });

  it('with one model for all, one prime writes the prefix and every reviewer call reads it; max effort warns', async () => {
    const cwd = await fixtureWorkspace('shop');
    const run = await review(cwd, ['--model', 'claude-test-1', '--effort', 'max']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /warning: max effort risks overthinking/);
    const calls = reviews(server).sort((a, b) => a.seq - b.seq);
    assert.ok(calls.every((r) => body(r).model === 'claude-test-1' && body(r).output_config!.effort === 'max'));
    assert.deepEqual(
      calls.map((r) => r.usage!.cache_read_input_tokens > 0),
      [true, true, true],
    );
    assert.equal(server.requests.filter(isPrime).length, 1);
  });

  it('a reviewer answered from the result cache does not count: its one partner on the model goes unprimed', async () => {
    const cwd = await fixtureWorkspace('shop');
    const cache = mkdtempSync(join(tmpdir(), 'skeptic-lens-cache-'));
    const cached = (args: string[]) =>
      runCli(['review', 'shop', '--mode', 'lenses', '--json', 'result.json', ...args], {
        cwd,
        env: { ...env(), XDG_CACHE_HOME: cache },
      });
    assert.equal((await cached(['--max-reviewers', '1'])).code, 0);
    assert.deepEqual(
      reviews(server).map((r) => r.reviewer),
      ['security'],
    );
    server.reset();
    const run = await cached([]);
    assert.equal(run.code, 0, run.stderr);
    // Security comes from the cache; logic is the only call on the opus prefix, performance the only one on sonnet's.
    assert.deepEqual(
      reviews(server)
        .map((r) => r.reviewer)
        .sort(),
      ['logic', 'performance'],
    );
    assert.deepEqual(server.requests.filter(isPrime), []);
  });

  it('keeps confident findings, drops the rest, merges one line across reviewers, and writes the report', async () => {
    const cwd = await fixtureWorkspace('shop');
    const run = await review(cwd);
    assert.equal(run.code, 0, run.stderr);
    const json = await loadJson<Json>(join(cwd, 'result.json'));
    const parsed = LensJsonReport.safeParse(json);
    assert.ok(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues));
    assert.deepEqual(json.findings.map(key), [
      'shop/cart.ts:17 HIGH logic+performance',
      'shop/cart.ts:26 MEDIUM logic',
    ]);
    assert.equal(
      json.findings[0]!.evidence,
      '(logic) i <= length reads items[length]. (performance) Math.round runs per item.',
    );
    assert.deepEqual(json.lowConfidenceDropped, { logic: 1, security: 1 });
    assert.deepEqual(json.reviewers, ['security', 'logic', 'performance']);
    assert.deepEqual(json.gateCheck, { passed: true, reason: null });
    assert.equal(json.validation.performed, false);
    assert.equal(json.report_path, 'code-review-shop.md');

    const report = readFileSync(join(cwd, 'code-review-shop.md'), 'utf8');
    assert.match(report, /^# Code Review Report$/m);
    assert.match(report, /## High-Priority Findings\n\n### 1\. `shop\/cart\.ts:17` — Loop reads past the end/);
    assert.match(report, /\| `shop\/cart\.ts` \| 2 \| HIGH \|/);
    assert.match(report, /Self-critique: 2 findings below confidence 3 dropped \(security 1, logic 1\)/);
  });

  it('repairs a malformed reply through the runner and keeps its findings', async () => {
    const cwd = await fixtureWorkspace('shop');
    server.setScenario({ ...SHOP, faults: [{ kind: 'schema_invalid', match: { reviewer: 'logic' } }] });
    const run = await review(cwd);
    assert.equal(run.code, 0, run.stderr);
    const logic = reviews(server).filter((r) => r.reviewer === 'logic');
    assert.deepEqual(
      logic.map((r) => r.turn),
      [1, 2],
    );
    assert.match(JSON.stringify(logic[1]!.body), /Your previous reply was rejected/);
    const json = await loadJson<Json>(join(cwd, 'result.json'));
    assert.ok(json.findings.some((f) => f.line === 26 && f.reviewers.includes('logic')));
  });

  it('names a reviewer that keeps failing as missing, keeps the others, and exits 3', async () => {
    const cwd = await fixtureWorkspace('shop');
    server.setScenario({ ...SHOP, faults: [{ kind: 'invalid_json', times: -1, match: { reviewer: 'performance' } }] });
    const run = await review(cwd);
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stdout, /Missing reviewers: performance/);
    assert.equal(reviews(server).filter((r) => r.reviewer === 'performance').length, 3, 'one try and two repairs');
    const json = await loadJson<Json>(join(cwd, 'result.json'));
    assert.deepEqual(json.missingReviewers, ['performance']);
    assert.deepEqual(json.findings.map(key), ['shop/cart.ts:17 HIGH logic', 'shop/cart.ts:26 MEDIUM logic']);
    const report = readFileSync(join(cwd, 'code-review-shop.md'), 'utf8');
    assert.match(report, /\*\*Missing reviewers\*\*: performance/);
    assert.match(
      report,
      /Not reviewed: lens performance — reply rejected after 2 repair turns: the reply is not valid JSON/,
    );
  });

  it('full fan-out: routes the TypeScript extras, validates CRITICAL/HIGH findings and demotes a rejected one to INFO', async () => {
    const cwd = await fixtureWorkspace('shop');
    const run = await review(cwd, ['--full-fanout']);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(
      reviews(server)
        .map((r) => r.reviewer)
        .sort(),
      ['logic', 'performance', 'security', 'silent-failures', 'tests', 'types'],
    );
    const validators = server.requests.filter((r) => r.record === 'LensValidation');
    assert.deepEqual(validators.map((r) => `${r.file}:${packetOf(r).line}`).sort(), [
      'shop/cart.ts:17',
      'shop/cart.ts:26',
    ]);
    assert.ok(
      validators.every((r) => body(r).model === 'claude-haiku-5-5' && body(r).output_config!.effort === undefined),
    );
    assert.ok(
      Math.min(...validators.map((r) => r.started_at)) >= Math.max(...reviews(server).map((r) => r.ended_at!)),
      'validators run after the reviewers',
    );

    const json = await loadJson<Json>(join(cwd, 'result.json'));
    assert.ok(LensJsonReport.safeParse(json).success);
    assert.deepEqual(json.validation, {
      performed: true,
      preValidation: { critical: 0, high: 2 },
      postValidation: { critical: 0, high: 1 },
      rejected: 1,
      timeouts: 0,
    });
    assert.deepEqual(json.summary, { total: 2, critical: 0, high: 1, medium: 0, low: 0, info: 1 });
    const rejected = json.findings.find((f) => f.line === 26)!;
    assert.deepEqual(
      [rejected.severity, rejected.validated, rejected.originalSeverity, rejected.reviewers],
      ['INFO', false, 'HIGH', ['silent-failures', 'logic']],
    );
    assert.equal(json.findings.find((f) => f.line === 17)!.validated, true);
    const report = readFileSync(join(cwd, 'code-review-shop.md'), 'utf8');
    assert.match(report, /\| Before validation \| 0 \| 2 \|\n\| After validation \| 0 \| 1 \|/);
  });

  it('full fan-out: a validator that fails keeps the severity, marked timeout', async () => {
    const cwd = await fixtureWorkspace('shop');
    server.setScenario({ ...SHOP, faults: [{ kind: 'invalid_json', times: -1, match: { record: 'LensValidation' } }] });
    const run = await review(cwd, ['--full-fanout', '--max-reviewers', '5']);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(
      reviews(server)
        .map((r) => r.reviewer)
        .sort(),
      ['logic', 'performance', 'security', 'silent-failures', 'types'],
    );
    const json = await loadJson<Json>(join(cwd, 'result.json'));
    assert.deepEqual(
      json.findings.map((f) => [f.severity, f.validated]),
      [
        ['HIGH', 'timeout'],
        ['HIGH', 'timeout'],
      ],
    );
    assert.equal(json.validation.timeouts, 2);
  });

  it('routes a Python-only scope to silent-failures and tests, not types', async () => {
    const cwd = await fixtureWorkspace('pyshop');
    const run = await review(cwd, ['--full-fanout'], ['pyshop']);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(
      reviews(server)
        .map((r) => r.reviewer)
        .sort(),
      ['logic', 'performance', 'security', 'silent-failures', 'tests'],
    );
    const report = readFileSync(join(cwd, 'code-review-pyshop.md'), 'utf8');
    assert.match(report, /not routed: types \(no statically or gradually typed code\), spec-compliance \(no spec/);
  });

  it('feeds --spec to every reviewer and routes spec-compliance; marks --rubric criteria', async () => {
    const cwd = await fixtureWorkspace('shop');
    writeFileSync(join(cwd, 'spec.md'), '# Cart spec\n- AC-1: total() sums every item exactly once.\n');
    writeFileSync(
      join(cwd, 'rubric.md'),
      '- [ ] Totals are correct (Evaluator: skeptic)\n- [ ] Copy reviewed (Evaluator: human)\n',
    );
    const run = await review(cwd, ['--full-fanout', '--spec', 'spec.md', '--rubric', 'rubric.md']);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(reviews(server).some((r) => r.reviewer === 'spec-compliance'));
    for (const r of reviews(server))
      assert.match(
        body(r).messages[0]!.content[0]!.text!,
        /<untrusted_context_[0-9a-f]{8} path="spec\.md">\n# Cart spec/,
      );
    const json = await loadJson<Json>(join(cwd, 'result.json'));
    assert.equal(json.spec, 'spec.md');
    assert.deepEqual(json.rubric, {
      file: 'rubric.md',
      criteria: 1,
      passed: 0,
      failed: 1,
      items: [{ line: 1, text: 'Totals are correct (Evaluator: skeptic)', status: 'FAIL' }],
    });
    assert.match(
      readFileSync(join(cwd, 'code-review-shop.md'), 'utf8'),
      /^- \[!\] FAIL — 0 critical, 1 high findings — Totals are correct/m,
    );
    assert.equal(
      readFileSync(join(cwd, 'rubric.md'), 'utf8').split('\n')[0],
      '- [ ] Totals are correct (Evaluator: skeptic)',
      'the rubric file itself is not edited',
    );

    const missing = await review(cwd, ['--rubric', 'nope.md']);
    assert.equal(missing.code, 2);
    assert.equal(missing.stderr.trim(), 'skeptic: rubric file not found: nope.md');
  });

  it('skips a change under 5 lines unless forced, and says so in the JSON when forced', async () => {
    const repo = new TempRepo();
    repo.write('src/a.ts', 'export const a = 1;\n').commit('a');
    repo.write('src/a.ts', 'export const a = 2;\n');
    const skipped = await runCli(['review', '--mode', 'lenses', '--changes'], { cwd: repo.dir, env: env() });
    assert.equal(skipped.code, 0, skipped.stderr);
    assert.match(skipped.stdout, /^SKIP: < 5 changed lines$/m);
    assert.equal(server.requests.length, 0);
    const forced = await runCli(['review', '--mode', 'lenses', '--changes', '--force', '--json', 'result.json'], {
      cwd: repo.dir,
      env: env(),
    });
    assert.equal(forced.code, 0, forced.stderr);
    const json = await loadJson<Json>(repo.path('result.json'));
    assert.deepEqual(json.gateCheck, { passed: false, reason: 'SKIP: < 5 changed lines (reviewed anyway: --force)' });
    assert.match(lastBlock(reviews(server)[0]!), /"review_target": "uncommitted changes"/);
    assert.match(
      JSON.stringify(body(reviews(server)[0]!)),
      /Changed lines, numbered as in the files below:\\n- src\/a\.ts: 1\\n/,
    );
    repo.remove();
  });

  it('reviews two repositories on their own changes, checks across them, and merges one report', async () => {
    const ws = mkdtempSync(join(tmpdir(), 'skeptic-multi-'));
    const repo = (name: string, file: string, before: string, after: string) => {
      const r = new TempRepo();
      r.write(file, before).commit('init');
      r.write(file, after);
      renameSync(r.dir, join(ws, name));
    };
    repo(
      'api',
      'src/order.ts',
      'export interface Order {\n  id: string;\n  total: number;\n}\n',
      'export interface Order {\n  id: string;\n  amountCents: number;\n  currency: string;\n}\n\nexport const API_VERSION = 2;\n',
    );
    repo(
      'web',
      'src/client.ts',
      'export function show(o: { total: number }) {\n  return o.total;\n}\n',
      'export function show(o: { total: number }) {\n  const value = o.total;\n  return value.toFixed(2);\n}\n\nexport const API_VERSION = 1;\n',
    );
    server.setScenario({
      lenses: {
        logic: [
          {
            file: 'web/src/client.ts',
            line: 3,
            severity: 'MEDIUM',
            title: 'toFixed on a possibly missing total',
            confidence: 4,
          },
        ],
        'cross-repo': [
          {
            file: 'api/src/order.ts',
            line: 3,
            severity: 'HIGH',
            title: 'total renamed to amountCents; web still reads total',
            evidence: 'web/src/client.ts:2 reads o.total.',
            confidence: 5,
          },
        ],
      },
    });
    const run = await runCli(['review', '--mode', 'lenses', '--changes', 'api', 'web', '--json', 'result.json'], {
      cwd: ws,
      env: env(),
    });
    assert.equal(run.code, 0, run.stderr);

    const calls = reviews(server);
    assert.equal(calls.length, 6);
    for (const r of calls) {
      const repoName = packetOf(r).repository as string;
      const shown = [
        ...JSON.stringify(body(r).messages).matchAll(
          /untrusted_source_[0-9a-f]{8} path=\\"([^\\]+)\\" role=\\"primary\\"/g,
        ),
      ].map((m) => m[1]);
      assert.deepEqual(shown, [repoName === 'api' ? 'api/src/order.ts' : 'web/src/client.ts']);
    }
    const cross = server.requests.filter((r) => r.reviewer === 'cross-repo');
    assert.equal(cross.length, 1);
    assert.ok(
      cross[0]!.started_at >= Math.max(...calls.map((r) => r.ended_at!)),
      'the cross-repo check comes after the per-repository reviews',
    );
    const repos = packetOf(cross[0]!).repositories as Array<{
      repository: string;
      changed_files: Array<{ path: string }>;
      findings: unknown[];
    }>;
    assert.deepEqual(
      repos.map((r) => [r.repository, r.changed_files.map((f) => f.path), r.findings.length]),
      [
        ['api', ['api/src/order.ts'], 0],
        ['web', ['web/src/client.ts'], 1],
      ],
    );

    const json = await loadJson<Json>(join(ws, 'result.json'));
    assert.ok(LensJsonReport.safeParse(json).success);
    assert.deepEqual(
      json.findings.map((f) => [f.repository, f.file, f.reviewers[0]]),
      [
        ['api', 'api/src/order.ts', 'cross-repo'],
        ['web', 'web/src/client.ts', 'logic'],
      ],
    );
    assert.deepEqual(
      json.repositories.map((r) => r.path),
      ['api', 'web'],
    );
    assert.equal(json.report_path, 'code-review-cross-repo.md');
    const report = readFileSync(join(ws, 'code-review-cross-repo.md'), 'utf8');
    const at = ['## Repository: api', '## Repository: web', '## Cross-Repo Issues'].map((h) => report.indexOf(h));
    assert.ok(at[0]! > 0 && at[1]! > at[0]! && at[2]! > at[1]!, at.join(','));
    assert.match(report.slice(at[1]!, at[2]!), /`web\/src\/client\.ts:3` — toFixed on a possibly missing total/);
    assert.match(report.slice(at[2]!), /`api\/src\/order\.ts:3` — total renamed to amountCents/);
  });

  it('exits 2 with the reason when the API refuses the key, and writes no report', async () => {
    const cwd = await fixtureWorkspace('shop');
    server.setScenario({ ...SHOP, faults: [{ kind: 'status', status: 401, times: -1 }] });
    const run = await review(cwd);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /HTTP 401/);
    assert.ok(!existsSync(join(cwd, 'code-review-shop.md')) && !existsSync(join(cwd, 'result.json')));
  });

  it('plan --mode lenses estimates the lens calls without a key', async () => {
    const cwd = await fixtureWorkspace('shop');
    const run = await runCli(['plan', 'shop', '--mode', 'lenses', '--full-fanout'], { cwd });
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /^Estimate \(lens mode\): 16 model calls · .* · up to \$\d+\.\d\d \(list prices of \d{4}-\d\d-\d\d, before cache savings\)$/m,
    );
    assert.match(run.stdout, /^ {2}security: 1 call · ~[\d.]+k in · ~[\d.]+k out · \$\d+\.\d\d$/m);
    assert.match(run.stdout, /^ {2}validator: up to 10 calls/m);

    // The same estimate as data, and through the Message Batches API at half of it.
    const dollars = (args: string[]) =>
      runCli(['plan', 'shop', '--mode', 'lenses', '--full-fanout', '--json', ...args], { cwd }).then((r) => {
        type Priced = { cost_usd: number };
        const estimate = (JSON.parse(r.stdout) as { estimate: Priced & { by_step: Record<string, Priced> } }).estimate;
        return { total: estimate.cost_usd, security: estimate.by_step.security!.cost_usd };
      });
    const [list, batch] = [await dollars([]), await dollars(['--batch'])];
    assert.ok(list.total > 0 && list.security > 0 && list.security < list.total, JSON.stringify(list));
    assert.deepEqual(batch, { total: list.total / 2, security: list.security / 2 });
    const batchText = await runCli(['plan', 'shop', '--mode', 'lenses', '--batch'], { cwd });
    assert.match(batchText.stdout, /up to \$\d+\.\d\d \(Message Batches \(half\) prices of /);
    assert.equal(server.requests.length, 0);
  });

  it('rejects lens options outside lens mode, and paths with a change scope in staged mode', async () => {
    const cwd = await fixtureWorkspace('shop');
    for (const args of [
      ['shop', '--full-fanout'],
      ['shop', '--rubric', 'r.md'],
      ['--changes', 'shop'],
      ['shop', '--mode', 'fast'],
      ['shop', '--mode', 'lenses', '--reviewer-model', 'judge=x'],
      ['shop', '--mode', 'lenses', '--max-reviewers', '9'],
    ]) {
      const run = await runCli(['review', ...args], { cwd, env: env() });
      assert.equal(run.code, 2, args.join(' '));
      assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
    }
    assert.equal(server.requests.length, 0);
  });

  it('--batch: the same findings through the Message Batches API, in rounds, without primes', async () => {
    const live = await fixtureWorkspace('shop');
    assert.equal((await review(live, ['--full-fanout'])).code, 0);
    const expected = (await loadJson<Json>(join(live, 'result.json'))).findings.map(key).sort();
    server.reset();
    const cwd = await fixtureWorkspace('shop');
    const run = await review(cwd, ['--full-fanout', '--batch']);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual((await loadJson<Json>(join(cwd, 'result.json'))).findings.map(key).sort(), expected);
    assert.ok(server.requests.every((r) => r.batch !== null && !isPrime(r)));
    // Reviewers in one round, the validators of their findings in the next.
    assert.match(run.stdout, /Through the Message Batches API at half price: 2 rounds, 2 batches\./);
    assert.match(
      readFileSync(join(cwd, 'code-review-shop.md'), 'utf8'),
      /cost ≈ \$\d+\.\d\d at the price table of [\d-]+, through the Message Batches API at half price: 2 rounds, 2 batches\./,
    );
  });
});
