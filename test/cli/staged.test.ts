import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StagedJsonReport } from '../../src/report/json';
import { SarifLog } from '../../src/report/sarif';
import { useFakeServer } from '../helpers/fakeServer';
import { fixtureWorkspace, loadJson, runCli } from '../helpers/cli';

type Json = StagedJsonReport;
const key = (f: Json['findings'][number]) => `${f.file}:${f.line} ${f.rule_id} ${f.priority}`;

/** What each planted fate in shop.scenario.json must come to. */
const EXPECTED = [
  'shop/cart.ts:17 A1 must_fix', // kept
  'shop/cart.ts:12 A2 nice_to_have', // downgraded by the challenger
  'shop/cart.ts:32 A6 nice_to_have', // left out of its batch, recovered solo
  'shop/price.ts:7 A1 should_fix', // must_fix + low confidence: downgraded by the tiebreaker
  'shop/price.ts:11 A1 should_fix', // kept
  'shop/price.ts:6 F1 nice_to_have', // file-level, kept
  'shop/price.ts:3 G1 should_fix', // cross-file, kept
].sort();

describe('staged review through the CLI against the fake API', function () {
  this.timeout(60_000);
  const fake = useFakeServer();

  const review = (cwd: string, args: string[] = []) =>
    runCli(['review', 'shop', '--json', 'result.json', ...args], {
      cwd,
      env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.server.url },
    });

  it('gives every planted finding its fate, and writes the report and the JSON', async () => {
    const cwd = await fixtureWorkspace('shop');
    const run = await review(cwd);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^4 files under review, 2 companions discovered\.$/m);
    // Progress lines reach each step in order, with the run's calls, cost and time. Files move through the steps
    // on their own, so one file's Step 2 may still report after another's Step 3 has begun.
    const steps = [
      ...run.stderr.matchAll(/^Step (\d)\/5 · \w+ · \d+\/\d+(?: \w+)? · \d+ calls? · \$\d+\.\d\d · \d+:\d\d$/gm),
    ].map((m) => Number(m[1]));
    assert.deepEqual([...new Set(steps)], [1, 2, 3, 4, 5], run.stderr);

    const json = await loadJson<Json>(join(cwd, 'result.json'));
    assert.ok(StagedJsonReport.safeParse(json).success);
    assert.deepEqual(json.findings.map(key).sort(), EXPECTED);
    // Disqualified by the challenger, dropped by the tiebreaker, out of A7's scope, clean after self-challenge:
    assert.ok(
      !json.findings.some((f) => f.line === 26 || (f.file === 'shop/price.ts' && f.line === 3 && f.rule_id === 'A1')),
    );
    assert.ok(!json.findings.some((f) => f.rule_id === 'A7' || f.rule_id === 'G2' || f.function === 'Cart.count'));
    const g1 = json.findings.find((f) => f.rule_id === 'G1')!;
    assert.deepEqual(g1.locations, ['shop/price.ts:3', 'shop/cart.ts:18']);

    assert.equal(json.report_path, 'code-review-shop.md');
    assert.deepEqual(json.review_roots, ['shop']);
    const byPath = Object.fromEntries(json.files.map((f) => [f.path, f]));
    assert.equal(byPath['shop/README.md']!.status, 'skipped');
    assert.equal(byPath['shop/cart.ts']!.status, 'reviewed');
    assert.equal(byPath['shop/cart.ts']!.companion_path, 'shop/cart.test.ts');
    assert.equal(byPath['shop/cart.ts']!.functions_reviewed, 5);
    assert.equal(json.usage.calls, fake.server.requests.length);

    const report = await readFile(join(cwd, 'code-review-shop.md'), 'utf8');
    assert.match(report, /^# Code Review: shop$/m);
    assert.match(report, /^1\. `shop\/cart\.ts:17` - Loop while i < this\.items\.length \(/m);
    assert.match(report, /`shop\/price\.ts:3`, `shop\/cart\.ts:18` - Call round\(\)/);
  });

  it('keeps an A7 flag on a read-modify-write where Step 1 saw no concurrency, and drops an A7 nice-to-have there', async () => {
    const scenario = structuredClone(fake.scenario);
    const cart = scenario.files!['shop/cart.ts']!;
    cart.step1 = { ...cart.step1, concurrency_present: false };
    cart.reviews!['Cart.save'] = {
      A7: {
        verdict: 'flag',
        confidence: 'high',
        line: 25,
        action: 'Save inside a transaction, or with a version check.',
        rationale: "Two saves of one cart read the same row and the second write loses the first one's items.",
        category: 'concurrency',
      },
    };
    fake.server.setScenario(scenario);
    const cwd = await fixtureWorkspace('shop');
    const run = await review(cwd);
    assert.equal(run.code, 0, run.stderr);
    const json = await loadJson<Json>(join(cwd, 'result.json'));
    const a7 = json.findings.filter((f) => f.rule_id === 'A7').map(key);
    assert.deepEqual(a7, ['shop/cart.ts:25 A7 must_fix']);
    // It went to the challenger like any other finding.
    const challenge = fake.server.requests.find((r) => r.record === 'ChallengeResult' && r.file === 'shop/cart.ts');
    const packet = (challenge!.body as { messages: { content: { text: string }[] }[] }).messages[0]!.content.at(
      -1,
    )!.text;
    assert.match(packet, /"rule_id": "A7"/);
  });

  it('sends Steps 3 and 4 an explicit effort (high, or --effort for every step), and records it in the --json usage', async () => {
    const effortOf = (record: string) => {
      const body = fake.server.requests.find((r) => r.record === record)!.body as {
        output_config?: { effort?: string };
      };
      return body.output_config?.effort ?? null;
    };
    const cwd = await fixtureWorkspace('shop');
    const run = await review(cwd);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(
      ['Step1Record', 'FileAnalysis', 'PerFunctionReview', 'ChallengeResult', 'SynthesisResult'].map(effortOf),
      [null, null, 'high', 'high', null],
    );
    const json = await loadJson<Json>(join(cwd, 'result.json'));
    assert.deepEqual(json.usage.effort, {
      curate: null,
      analyze: null,
      review: 'high',
      challenge: 'high',
      synthesize: null,
    });

    fake.server.reset();
    const low = await review(cwd, ['--effort', 'low', '--json', 'low.json', '--no-cache']);
    assert.equal(low.code, 0, low.stderr);
    assert.deepEqual(['Step1Record', 'PerFunctionReview', 'ChallengeResult'].map(effortOf), ['low', 'low', 'low']);
    assert.equal((await loadJson<Json>(join(cwd, 'low.json'))).usage.effort.review, 'low');
  });

  it('writes SARIF for code-scanning tools with --sarif', async () => {
    const cwd = await fixtureWorkspace('shop');
    const run = await review(cwd, ['--sarif', 'out/skeptic.sarif']);
    assert.equal(run.code, 0, run.stderr);
    const log = SarifLog.parse(await loadJson(join(cwd, 'out/skeptic.sarif')));
    const results = log.runs[0]!.results.map(
      (r) =>
        `${r.locations[0]!.physicalLocation.artifactLocation.uri}:${r.locations[0]!.physicalLocation.region.startLine} ${r.ruleId} ${r.level}`,
    );
    assert.deepEqual(
      results.sort(),
      EXPECTED.map((e) =>
        e.replace('must_fix', 'error').replace('should_fix', 'warning').replace('nice_to_have', 'note'),
      ).sort(),
    );
  });

  it('logs every engine event to --events as timestamped JSON lines, with per-call usage, cost and running totals', async () => {
    const cwd = await fixtureWorkspace('shop');
    const run = await review(cwd, ['--events', 'logs/events.ndjson']);
    assert.equal(run.code, 0, run.stderr);
    type Line = {
      ts: string;
      type: string;
      step?: string;
      file?: string;
      usage?: { calls: number; cost_usd: number | null };
      totals?: { calls: number; cost_usd: number };
    };
    const lines = (await readFile(join(cwd, 'logs/events.ndjson'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Line);
    assert.ok(lines.every((l) => !Number.isNaN(Date.parse(l.ts))));
    const calls = lines.filter((l) => l.type === 'call');
    assert.equal(calls.length, fake.server.requests.filter((r) => r.status === 200).length);
    assert.deepEqual(
      calls.map((l) => l.totals!.calls),
      calls.map((_, i) => i + 1),
    );
    assert.ok(calls.some((l) => l.step === 'review' && l.file === 'shop/cart.ts'));
    const done = lines.at(-1)!;
    const json = await loadJson<Json>(join(cwd, 'result.json'));
    assert.equal(done.type, 'done');
    assert.deepEqual({ ...done.usage, effort: json.usage.effort }, json.usage);
    assert.ok(json.usage.cost_usd! > 0 && Math.abs(calls.at(-1)!.totals!.cost_usd - json.usage.cost_usd!) < 1e-9);
    // First where the calls go, then what Step 0 found.
    assert.deepEqual(
      lines.slice(0, 2).map((l) => l.type),
      ['setup', 'inventory'],
    );
    assert.ok(lines.some((l) => l.type === 'finding'));
  });

  it('re-runs a function its batch left out, solo, and self-challenge is in every review prompt', async () => {
    const cwd = await fixtureWorkspace('shop');
    fake.server.setScenario({
      ...fake.scenario,
      faults: [
        { kind: 'omit_functions', match: { record: 'BatchReview', file: 'shop/cart.ts' }, functions: ['Cart.clear'] },
      ],
    });
    const run = await review(cwd);
    assert.equal(run.code, 0, run.stderr);
    const cart = fake.server.requests.filter((r) => r.file === 'shop/cart.ts');
    const batch = cart.find((r) => r.record === 'BatchReview')!;
    assert.deepEqual(batch.functions, ['Cart.add', 'Cart.clear', 'Cart.count']);
    const solos = cart.filter((r) => r.record === 'PerFunctionReview').map((r) => r.functions[0]);
    assert.deepEqual(solos.sort(), ['Cart.clear', 'Cart.save', 'Cart.total']);
    const clearSolo = cart.find((r) => r.record === 'PerFunctionReview' && r.functions[0] === 'Cart.clear')!;
    assert.ok(clearSolo.started_at >= batch.ended_at!, 'the completeness re-run comes after the batch');
    for (const r of fake.server.requests.filter(
      (q) => q.record === 'PerFunctionReview' || q.record === 'BatchReview',
    )) {
      assert.match(JSON.stringify(r.body), /Self-challenge/);
    }
    const json = await loadJson<Json>(join(cwd, 'result.json'));
    assert.ok(json.findings.some((f) => f.function === 'Cart.clear' && f.rule_id === 'A6'));
  });

  it('sends synthesis records only: no source, no tools', async () => {
    const cwd = await fixtureWorkspace('shop');
    await review(cwd);
    const synth = fake.server.requests.filter((r) => r.record === 'SynthesisResult');
    assert.equal(synth.length, 1);
    const body = JSON.stringify(synth[0]!.body);
    const sourceTag = /<untrusted_source_[0-9a-f]{8} /;
    assert.ok(!sourceTag.test(body), 'no source block');
    for (const line of ['this.items[i].price', "text.replace('$', '')", 'JSON.stringify(this.items)'])
      assert.ok(!body.includes(JSON.stringify(line).slice(1, -1)), `source line leaked: ${line}`);
    assert.equal((synth[0]!.body as { tools?: unknown }).tools, undefined);
    // ... while the per-file calls do carry the source.
    const step3 = fake.server.requests.find((r) => r.record === 'PerFunctionReview')!;
    assert.ok(sourceTag.test(JSON.stringify(step3.body)));
  });

  it('puts the spec field names in one fenced json packet per call', async () => {
    const cwd = await fixtureWorkspace('shop');
    await review(cwd);
    const packetOf = (r: (typeof fake.server.requests)[number]) => {
      const blocks = (r.body as { messages: Array<{ content: Array<{ text?: string }> }> }).messages[0]!.content;
      const text = blocks[blocks.length - 1]!.text!;
      const fences = text.match(/```json\n([\s\S]*?)\n```/g)!;
      assert.equal(fences.length, 1);
      return JSON.parse(/```json\n([\s\S]*?)\n```/.exec(text)![1]!) as Record<string, unknown>;
    };
    const first = (record: string) =>
      fake.server.requests.find((r) => r.record === record && r.file === 'shop/cart.ts')!;
    assert.deepEqual(Object.keys(packetOf(first('Step1Record'))).sort(), ['companion_path', 'path']);
    assert.deepEqual(Object.keys(packetOf(first('PerFunctionReview'))).sort(), [
      'brutal_one_line',
      'companion_path',
      'concurrency_present',
      'end_line',
      'file_path',
      'function_qualified_name',
      'invariants',
      'kind',
      'risk_flags',
      'role_in_file',
      'start_line',
      'visibility',
    ]);
    const batch = packetOf(first('BatchReview'));
    assert.deepEqual(Object.keys((batch.functions as object[])[0]!).sort(), [
      'end_line',
      'function_qualified_name',
      'kind',
      'role_in_file',
      'start_line',
      'visibility',
    ]);
    // Step 2 gets the parser's inventory to describe, with exact lines.
    const inventory = packetOf(first('FileAnalysis')).function_inventory as object[];
    assert.ok(inventory.length > 0);
    assert.deepEqual(Object.keys(inventory[0]!).sort(), [
      'end_line',
      'kind',
      'qualified_name',
      'start_line',
      'visibility',
    ]);
    const challenge = packetOf(first('ChallengeResult'));
    assert.deepEqual(Object.keys(challenge).sort(), [
      'brutal_one_line',
      'companion_path',
      'file_path',
      'findings',
      'invariants',
    ]);
    // The spec's fields, plus where the finding points and the lines of its function (issue 24).
    assert.deepEqual(Object.keys((challenge.findings as object[])[0]!).sort(), [
      'action',
      'confidence',
      'function_lines',
      'function_qualified_name',
      'line',
      'location',
      'priority',
      'rationale',
      'rule_id',
    ]);
    // The challenger sees only non-clean findings: four for the cart (A1, A5, A2, A6).
    assert.equal((challenge.findings as object[]).length, 4);
  });

  it('does not challenge an all-clean file', async () => {
    const cwd = await fixtureWorkspace('shop');
    await review(cwd);
    const challenged = fake.server.requests
      .filter((r) => r.record === 'ChallengeResult')
      .map((r) => r.file)
      .sort();
    assert.deepEqual(challenged, ['shop/cart.ts', 'shop/price.ts']);
  });

  it('writes -v2 on a second run instead of overwriting', async () => {
    const cwd = await fixtureWorkspace('shop');
    await review(cwd);
    const first = await readFile(join(cwd, 'code-review-shop.md'), 'utf8');
    const second = await review(cwd);
    assert.equal(second.code, 0, second.stderr);
    assert.equal((await loadJson<Json>(join(cwd, 'result.json'))).report_path, 'code-review-shop-v2.md');
    assert.equal(await readFile(join(cwd, 'code-review-shop.md'), 'utf8'), first);
    assert.match(second.stdout, /Report: code-review-shop-v2\.md/);
  });

  it('ends a run full of faults with the same findings as a clean run', async () => {
    const cwd = await fixtureWorkspace('shop');
    fake.server.setScenario({
      ...fake.scenario,
      faults: [
        { kind: 'status', status: 429, retry_after: 0.05, match: { record: 'Step1Record', file: 'shop/cart.ts' } },
        { kind: 'status', status: 529, match: { record: 'FileAnalysis', file: 'shop/price.ts' } },
        { kind: 'status', status: 500, match: { record: 'ChallengeResult', file: 'shop/cart.ts' } },
        { kind: 'drop', match: { record: 'BatchReview', file: 'shop/price.ts' } },
        { kind: 'invalid_json', match: { record: 'PerFunctionReview', function: 'Cart.total' } },
        { kind: 'schema_invalid', match: { record: 'SynthesisResult' } },
        { kind: 'bad_line', match: { record: 'PerFunctionReview', function: 'Cart.save' } },
      ],
    });
    const run = await review(cwd);
    assert.equal(run.code, 0, run.stderr);
    const json = await loadJson<Json>(join(cwd, 'result.json'));
    assert.deepEqual(json.findings.map(key).sort(), EXPECTED);
    assert.equal((run.stderr.match(/^retry /gm) ?? []).length, 4, run.stderr);
    const statuses = fake.server.requests.map((r) => r.status);
    assert.ok(statuses.includes(429) && statuses.includes(529) && statuses.includes(500) && statuses.includes(null));
    // Three replies were rejected and repaired: a repair turn is a second user turn.
    assert.equal(fake.server.requests.filter((r) => r.turn === 2).length, 3);
  });

  it('asks again for an answer cut off at max_tokens, saying so, and keeps nothing of the cut one', async () => {
    const cwd = await fixtureWorkspace('shop');
    fake.server.setScenario({
      ...fake.scenario,
      faults: [{ kind: 'verbose', match: { record: 'FileAnalysis', file: 'shop/cart.ts' } }],
    });
    const run = await review(cwd);
    assert.equal(run.code, 0, run.stderr);
    const asked = fake.server.requests.filter((r) => r.record === 'FileAnalysis' && r.file === 'shop/cart.ts');
    assert.deepEqual(
      asked.map((r) => [r.turn, r.fault, r.usage?.output_tokens === (r.body as { max_tokens: number }).max_tokens]),
      [
        [1, 'verbose', true],
        [2, null, false],
      ],
    );
    const repair = JSON.stringify((asked[1]!.body as { messages: unknown[] }).messages.at(-1));
    assert.match(repair, /the reply was cut off at max_tokens; answer with a shorter record/);
    const json = await loadJson<Json>(join(cwd, 'result.json'));
    assert.deepEqual(json.findings.map(key).sort(), EXPECTED);
    const report = await readFile(join(cwd, 'code-review-shop.md'), 'utf8');
    assert.doesNotMatch(report, /And there is more to say about it/);
  });

  it('lays every call about a file out cache-first: one tool list and system text per model, the file, then the step; repairs keep a breakpoint', async () => {
    const cwd = await fixtureWorkspace('shop');
    fake.server.setScenario({
      ...fake.scenario,
      faults: [{ kind: 'schema_invalid', match: { record: 'ChallengeResult', file: 'shop/cart.ts' } }],
    });
    const run = await review(cwd);
    assert.equal(run.code, 0, run.stderr);
    type Block = { text?: string; cache_control?: unknown };
    type Body = {
      tools: Array<{ name: string }>;
      system: Block[];
      output_config?: { format?: unknown };
      tool_choice?: unknown;
      messages: Array<{ content: Block[] }>;
    };
    const cart = fake.server.requests
      .filter((r) => r.file === 'shop/cart.ts' && r.status === 200)
      .map((r) => ({ r, b: r.body as Body }));
    assert.deepEqual([...new Set(cart.map(({ r }) => r.record))].sort(), [
      'BatchReview',
      'ChallengeResult',
      'FileAnalysis',
      'PerFunctionReview',
      'Step1Record',
    ]);
    const [first] = cart;
    const challenger = cart.find(({ r }) => r.record === 'ChallengeResult')!;
    // Steps 1-3 and the challenger run on different models: each model has the submit tools of its own steps.
    const titles = (b: Body) => (b.tools ?? []).map((t) => t.name).filter((n) => n.startsWith('submit_'));
    assert.deepEqual(titles(challenger.b), ['submit_ChallengeResult']);
    assert.ok(!titles(first!.b).includes('submit_ChallengeResult'));
    // ... and its own system text (only its own steps' briefs).
    assert.notDeepEqual(challenger.b.system, first!.b.system);
    for (const { r, b } of cart) {
      // Same prefix whatever the step on a model: tools (read tools and its steps' strict submit tools), system, the source block.
      const mine = (r.record === 'ChallengeResult' ? challenger : first)!.b;
      assert.deepEqual(b.tools, mine.tools, `${r.record} tools`);
      assert.deepEqual(b.system, mine.system);
      assert.deepEqual(b.messages[0]!.content.slice(0, -1), first!.b.messages[0]!.content.slice(0, -1));
      assert.equal(b.output_config?.format, undefined);
      assert.equal(b.tool_choice, undefined);
      assert.match(b.messages[0]!.content.at(-1)!.text!, new RegExp(`submit_${r.record}`));
      const marks = [...b.system, ...b.messages.flatMap((m) => m.content)].filter((x) => x.cache_control).length;
      assert.ok(marks <= 4, `${marks} breakpoints`);
    }
    // From Step 2 on, the file's prefix is read from the cache the first call wrote.
    assert.ok(
      cart.filter(({ r }) => r.record !== 'Step1Record').every(({ r }) => r.usage!.cache_read_input_tokens > 0),
    );
    // The repair turn ends at a breakpoint and reads the whole first turn back.
    const repair = cart.find(({ r }) => r.turn === 2)!;
    assert.ok(repair.b.messages.at(-1)!.content.at(-1)!.cache_control);
    const asked = cart.find(({ r }) => r.record === 'ChallengeResult' && r.turn === 1)!;
    assert.ok(repair.r.usage!.cache_read_input_tokens > asked.r.usage!.cache_read_input_tokens);
  });

  it('falls back to forced submit tools where structured outputs are refused (synthesis), with the same findings', async () => {
    const cwd = await fixtureWorkspace('shop');
    fake.server.setScenario({ ...fake.scenario, faults: [{ kind: 'no_structured_output', times: -1 }] });
    const run = await review(cwd);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual((await loadJson<Json>(join(cwd, 'result.json'))).findings.map(key).sort(), EXPECTED);
    // File calls submit through strict tools and are never refused; synthesis asks for structured output once, then is forced.
    type Body = { output_config?: { format?: unknown }; tool_choice?: { type: string; name: string } };
    const refused = fake.server.requests.filter((r) => r.status === 400);
    assert.deepEqual(
      refused.map((r) => r.record),
      ['SynthesisResult'],
    );
    const synthesis = fake.server.requests.filter((r) => r.record === 'SynthesisResult' && r.status === 200);
    assert.deepEqual(
      synthesis.map((r) => (r.body as Body).tool_choice),
      [{ type: 'tool', name: 'submit_SynthesisResult' }],
    );
  });

  it('reports a unit that keeps failing, keeps the rest, and exits 3', async () => {
    const cwd = await fixtureWorkspace('shop');
    fake.server.setScenario({
      ...fake.scenario,
      faults: [{ kind: 'invalid_json', times: -1, match: { record: 'PerFunctionReview', function: 'Cart.save' } }],
    });
    const run = await review(cwd);
    assert.equal(run.code, 3, run.stderr);
    const json = await loadJson<Json>(join(cwd, 'result.json'));
    const cart = json.files.find((f) => f.path === 'shop/cart.ts')!;
    assert.equal(cart.status, 'failed');
    assert.match(cart.reason!, /Cart\.save.*not valid JSON/);
    assert.ok(
      json.findings.some((f) => f.line === 17),
      'the other functions still report',
    );
    const report = await readFile(join(cwd, 'code-review-shop.md'), 'utf8');
    assert.match(
      report,
      /## Not Reviewed\n\n- `shop\/cart\.ts` — review Cart\.save failed: reply rejected after 2 repair turns/,
    );
    // First try plus the completeness re-run, each with two repairs.
    assert.equal(
      fake.server.requests.filter((r) => r.record === 'PerFunctionReview' && r.functions[0] === 'Cart.save').length,
      6,
    );
  });

  it('keeps the synthesis when one cross-file finding cites a file outside the review, and says so', async () => {
    const cwd = await fixtureWorkspace('shop');
    const run = await runCli(['review', 'shop/cart.ts', '--json', 'result.json'], {
      cwd,
      env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: fake.server.url },
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stderr,
      /warning: cross-file finding G1 .* dropped: cites shop\/price\.ts, which was not reviewed/,
    );
    const report = await readFile(join(cwd, 'code-review-cart.md'), 'utf8');
    assert.match(report, /^A small cart with one crash path and loose money parsing\.$/m);
    assert.match(report, /^- cross-file finding G1 .* dropped: cites/m);
    const json = await loadJson<Json>(join(cwd, 'result.json'));
    assert.ok(!json.findings.some((f) => f.rule_id.startsWith('G')));
    // Two repair turns were tried first.
    assert.equal(fake.server.requests.filter((r) => r.record === 'SynthesisResult').length, 3);
  });

  it('by default, reruns cost nothing, outputs are never reviewed, and an edit in one function re-asks only that function and its file', async () => {
    const cwd = await fixtureWorkspace('shop');
    const env = {
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: fake.server.url,
      XDG_CACHE_HOME: join(cwd, '.user-cache'),
    };
    // Outputs written inside the folder under review: a later run must not review them.
    const again = (...more: string[]) =>
      runCli(
        [
          'review',
          'shop',
          '--json',
          'shop/result.json',
          '--sarif',
          'shop/out.sarif',
          '--out',
          'shop/notes.md',
          ...more,
        ],
        { cwd, env },
      );
    assert.equal((await again()).code, 0);
    // Units, not primes: whether a prime goes out depends on how close together the first calls arrive.
    const units = () =>
      fake.server.requests
        .filter((r) => r.record)
        .map((r) => `${r.record} ${r.file ?? ''} ${r.functions.join(',')}`)
        .sort();
    const firstUnits = units();

    fake.server.reset();
    const rerun = await again();
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.equal(fake.server.requests.length, 0, 'an unchanged tree costs no calls');
    assert.match(rerun.stdout, /^4 files under review/m);
    assert.match(
      (await runCli(['plan', 'shop', '--verbose'], { cwd, env })).stdout,
      /skeptic output: 4\n {4}shop\/notes-v2\.md\n {4}shop\/notes\.md\n {4}shop\/out\.sarif\n {4}shop\/result\.json/,
    );

    fake.server.reset();
    const cart = join(cwd, 'shop/cart.ts');
    await writeFile(
      cart,
      (await readFile(cart, 'utf8')).replace(
        '    this.items = [];\n  }\n\n  count',
        '    this.items = []; // emptied\n  }\n\n  count',
      ),
    );
    assert.equal((await again()).code, 0);
    const asked = fake.server.requests.filter((r) => r.record);
    // Synthesis may come from the cache too: its packet holds the records, which did not change here.
    assert.deepEqual(
      [...new Set(asked.map((r) => r.file ?? 'synthesis'))].filter((f) => f !== 'synthesis'),
      ['shop/cart.ts'],
      'not the companion, not the other files',
    );
    assert.deepEqual(
      asked.filter((r) => r.record === 'PerFunctionReview' || r.record === 'BatchReview').flatMap((r) => r.functions),
      ['Cart.clear'],
    );
    assert.deepEqual(
      asked
        .filter((r) => r.file === 'shop/cart.ts')
        .map((r) => r.record)
        .sort(),
      ['BatchReview', 'ChallengeResult', 'FileAnalysis', 'Step1Record'],
    );

    fake.server.reset();
    assert.equal((await again('--no-cache')).code, 0);
    assert.deepEqual(units(), firstUnits, '--no-cache asks for every unit');
  });

  it('with --cache-dir, a rerun of unchanged code makes no calls, and an edit re-asks only what it touches', async () => {
    const cwd = await fixtureWorkspace('shop');
    const first = await review(cwd, ['--cache-dir', '.skeptic-cache']);
    assert.equal(first.code, 0, first.stderr);
    const calls = fake.server.requests.length;
    const findings = (await loadJson<Json>(join(cwd, 'result.json'))).findings.map(key).sort();

    fake.server.reset();
    const second = await review(cwd, ['--cache-dir', '.skeptic-cache']);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(fake.server.requests.length, 0);
    assert.deepEqual((await loadJson<Json>(join(cwd, 'result.json'))).findings.map(key).sort(), findings);
    assert.ok(calls > 0);
    assert.match(
      await readFile(join(cwd, 'code-review-shop-v2.md'), 'utf8'),
      /\d+ units answered from the result cache/,
    );

    // A cache inside the folder under review is never reviewed itself (without --cache-dir, its files are listed).
    assert.match((await runCli(['plan', '.', '--verbose'], { cwd })).stdout, /^ {2}\.skeptic-cache\//m);
    assert.doesNotMatch(
      (await runCli(['plan', '.', '--verbose', '--cache-dir', '.skeptic-cache'], { cwd })).stdout,
      /^ {2}\.skeptic-cache\//m,
    );

    fake.server.reset();
    await writeFile(
      join(cwd, 'shop/price.ts'),
      (await readFile(join(cwd, 'shop/price.ts'), 'utf8')) + '\nexport const VERSION = 2;\n',
    );
    const third = await review(cwd, ['--cache-dir', '.skeptic-cache']);
    assert.equal(third.code, 0, third.stderr);
    const asked = new Set(fake.server.requests.map((r) => r.file ?? 'synthesis'));
    assert.deepEqual([...asked].sort(), ['shop/price.ts', 'synthesis']);
  });

  it('exits 2 without a key and writes nothing', async () => {
    const cwd = await fixtureWorkspace('shop');
    const run = await runCli(['review', 'shop', '--json', 'result.json'], {
      cwd,
      env: { ANTHROPIC_BASE_URL: fake.server.url },
    });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^skeptic: no API key: set ANTHROPIC_API_KEY/m);
    assert.deepEqual((await readdir(cwd)).sort(), ['shop']);
    assert.equal(fake.server.requests.length, 0);
  });

  it('exits 2 with the reason when the API refuses the key, and writes no report', async () => {
    const cwd = await fixtureWorkspace('shop');
    fake.server.setScenario({ ...fake.scenario, faults: [{ kind: 'status', status: 401, times: -1 }] });
    const run = await review(cwd);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /HTTP 401/);
    assert.deepEqual((await readdir(cwd)).sort(), ['shop']);
  });

  it('rejects bad arguments with one line and exit 2', async () => {
    const cwd = await fixtureWorkspace('shop');
    for (const args of [['--concurrency', '0'], ['--bogus'], ['--out', 'report.txt'], ['--step-model', 'judge=x']]) {
      const run = await review(cwd, args);
      assert.equal(run.code, 2, args.join(' '));
      assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
    }
    const missing = await runCli(['review', 'nope'], {
      cwd,
      env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: fake.server.url },
    });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /no such file or folder: nope/);
  });
});
