import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { list, MessagesBody, parseRequest, text, type Json, type ParsedRequest } from '../fake-anthropic/request';
import type { Scenario } from '../fake-anthropic/scenario';
import { startFakeAnthropic, type FakeAnthropic } from '../fake-anthropic/server';
import { runCli } from '../helpers/cli';
import { put } from '../helpers/tree';
import { FILE_RULES } from '../../src/engine/staged/fileRules';

/**
 * One module of 200 functions: its inventory with the answer listing it does not fit one request of this
 * window, nor do its Step 2 rows one synthesis request.
 */
const FUNCTIONS = 200;
const WINDOW = 34_000;
const PATH = 'big/module.ts';

/** f{g} starts on line 2 + 6g. */
const module = (functions = FUNCTIONS) =>
  `/** Many helpers. */\n${Array.from(
    { length: functions },
    (_, g) =>
      `export function f${g}(xs: number[], k: number): number {\n  let acc = 0;\n  for (const x of xs) acc += x * k + ${g};\n  return acc;\n}`,
  ).join('\n\n')}\n`;

describe('a file whose records do not fit one request', function () {
  this.timeout(180_000);
  let fake: FakeAnthropic;
  before(async () => {
    fake = await startFakeAnthropic({ contextWindow: WINDOW });
  });
  after(() => fake.close());

  /** The module in a fresh folder, with the window in its price table; the CLI's environment and arguments. */
  async function bigFile(scenario: Scenario = {}, functions = FUNCTIONS) {
    fake.setScenario(scenario);
    const cwd = await mkdtemp(join(tmpdir(), 'skeptic-big-file-'));
    await put(cwd, PATH, module(functions));
    const table = { opus: { context_window: WINDOW }, sonnet: { context_window: WINDOW } };
    await writeFile(join(cwd, 'window.json'), JSON.stringify(table));
    const env = {
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: fake.url,
      XDG_CACHE_HOME: await mkdtemp(join(tmpdir(), 'skeptic-big-file-cache-')),
    };
    return { cwd, env, args: ['big', '--prices', 'window.json'] };
  }
  /** Requests refused, or over the window by the fake's own count (prompt tokens and max_tokens). */
  const overWindow = () =>
    fake.requests
      .filter((r) => {
        const u = r.usage;
        const max = (r.body as { max_tokens: number }).max_tokens;
        const prompt = u ? u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens : Infinity;
        return r.status !== 200 || prompt + max > WINDOW;
      })
      .map((r) => `${r.record} ${r.status}`);

  /**
   * The module reviewed, every function of it (result.json), and the plan after the run walking the same requests
   * with the same keys: nothing left to ask. The report's text.
   */
  async function reviewedWhole(cwd: string, env: NodeJS.ProcessEnv, args: string[], functions: number) {
    const json = JSON.parse(await readFile(join(cwd, 'result.json'), 'utf8')) as {
      files: { path: string; status: string; functions_reviewed: number; reason?: string }[];
    };
    const file = json.files.find((f) => f.path === PATH);
    assert.equal(file?.status, 'reviewed', file?.reason);
    assert.equal(file.functions_reviewed, functions);
    const plan = await runCli(['plan', ...args, '--json'], { cwd, env });
    assert.equal(plan.code, 0, plan.stderr);
    const steps = (JSON.parse(plan.stdout) as { estimate: { by_step: Record<string, { calls: number }> } }).estimate
      .by_step;
    assert.equal(steps.analyze!.calls, 0);
    assert.equal(steps.review!.calls, 0);
    return readFile(join(cwd, 'code-review-big.md'), 'utf8');
  }

  it('goes in parts: every function analysed and reviewed, nothing over the window, a rerun asks nothing', async () => {
    const { cwd, env, args } = await bigFile();
    const analyses = () => fake.requests.filter((r) => r.record === 'FileAnalysis');

    fake.reset();
    await runCli(['review', ...args, '--yes', '--json', 'result.json'], { cwd, env });
    assert.deepEqual(overWindow(), []);
    const parts = analyses();
    assert.ok(parts.length > 1, `expected Step 2 in parts, got ${parts.length} request(s)`);
    // Each function in exactly one part, in order. The parts go out together, so they reach the fake in any
    // order: taken by their first row.
    const rows = parts
      .map((r) =>
        list(parseRequest(MessagesBody.parse(r.body)).packet, 'function_inventory').map((f) =>
          text(f, 'qualified_name'),
        ),
      )
      .sort((a, b) => Number(a[0]?.slice(1)) - Number(b[0]?.slice(1)))
      .flat();
    assert.deepEqual(
      rows,
      Array.from({ length: FUNCTIONS }, (_, g) => `f${g}`),
    );
    const report = await reviewedWhole(cwd, env, args, FUNCTIONS);
    assert.doesNotMatch(report, /Step 2 left out/);

    fake.reset();
    await runCli(['review', ...args, '--yes'], { cwd, env });
    assert.deepEqual(
      fake.requests.filter((r) => r.record === 'FileAnalysis' || r.record === 'BatchReview'),
      [],
    );
  });

  /** Step 5's records of the module: its rows do not fit the synthesis request, so only these two go in full. */
  const FLAGGED = ['f3', 'f150'];
  const FLAGGED_SCENARIO: Scenario = {
    files: {
      [PATH]: {
        reviews: Object.fromEntries(
          FLAGGED.map((name) => [
            name,
            {
              A1: {
                verdict: 'flag',
                confidence: 'high',
                line: 4 + 6 * Number(name.slice(1)),
                action: 'Check k.',
                rationale: 'k may be NaN.',
              },
            },
          ]),
        ),
      },
    },
  };

  it('goes with the rows of the functions with findings and the names of the rest, and the report says so', async () => {
    const { cwd, env, args } = await bigFile(FLAGGED_SCENARIO);
    const synthesisPlanned = async () => {
      const plan = await runCli(['plan', ...args, '--json'], { cwd, env });
      assert.equal(plan.code, 0, plan.stderr);
      return (JSON.parse(plan.stdout) as { estimate: { by_step: { synthesize: { calls: number } } } }).estimate.by_step
        .synthesize.calls;
    };
    const syntheses = () => fake.requests.filter((r) => r.record?.startsWith('Synthesis'));

    const planned = await synthesisPlanned();
    fake.reset();
    const run = await runCli(['review', ...args, '--yes', '--json', 'result.json'], { cwd, env });
    assert.equal(run.code, 0, run.stderr);
    // Every request within the window by the fake's own count, none refused.
    assert.deepEqual(overWindow(), []);

    // One synthesis request, as the plan foresaw: the flagged rows in full, the others by name.
    assert.deepEqual(
      syntheses().map((r) => r.record),
      ['SynthesisResult'],
    );
    assert.equal(planned, 1);
    const [analysis] = list(parseRequest(MessagesBody.parse(syntheses()[0]!.body)).packet, 'file_analyses');
    assert.deepEqual(
      list(analysis!, 'functions').map((f) => text(f, 'qualified_name')),
      FLAGGED,
    );
    const notListed = analysis!.functions_not_listed as Json;
    assert.equal(notListed.count, FUNCTIONS - FLAGGED.length);
    assert.equal((notListed.names as string[]).length, FUNCTIONS - FLAGGED.length);

    const json = JSON.parse(await readFile(join(cwd, 'result.json'), 'utf8')) as {
      files: { path: string; status: string; functions_reviewed: number }[];
      findings: { rule_id: string }[];
    };
    assert.equal(json.files[0]?.functions_reviewed, FUNCTIONS);
    assert.equal(json.findings.filter((f) => f.rule_id === 'A1').length, FLAGGED.length);
    const report = await readFile(join(cwd, 'code-review-big.md'), 'utf8');
    assert.doesNotMatch(report, /synthesis did not run/);
    assert.match(report, /## Executive Summary\n\nThe fake reviewed 1 files/);
    assert.match(
      report,
      new RegExp(
        `${PATH}: synthesis read the rows of 2 of its ${FUNCTIONS} functions \\(those with findings\\) and only the names of the other 198, to fit the model's context window`,
      ),
    );

    // The plan walks the same shortened request with the same key: nothing left to ask, nor does a rerun.
    assert.equal(await synthesisPlanned(), 0);
    fake.reset();
    assert.equal((await runCli(['review', ...args, '--yes'], { cwd, env })).code, 0);
    assert.deepEqual(syntheses(), []);
  });

  it('too large even as an outline: each request outlines only its own functions, and the whole review completes', async () => {
    // Too long to send whole, and its outline leaves no room beside it for a batch of functions in full.
    const functions = 600;
    const { cwd, env, args } = await bigFile({}, functions);
    fake.reset();
    const run = await runCli(['review', ...args, '--yes', '--json', 'result.json'], { cwd, env });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(overWindow(), []);

    // Step 2's parts and Step 3's batches: the outline lists exactly the functions each is about.
    const asked = fake.requests.map((r) => parseRequest(MessagesBody.parse(r.body)));
    const about = (p: ParsedRequest) =>
      p.record === 'FileAnalysis'
        ? list(p.packet, 'function_inventory').map((f) => text(f, 'qualified_name'))
        : p.functions;
    const listed = (p: ParsedRequest) =>
      p.sources.find((s) => s.role === 'outline')?.lines.map((l) => /function (f\d+)/.exec(l.text)?.[1]) ?? [];
    const focused = asked.filter((p) => p.record === 'FileAnalysis' || p.record === 'BatchReview');
    assert.ok(focused.length > 2, `${focused.length} Step 2 and 3 requests`);
    for (const p of focused) assert.deepEqual(listed(p), about(p), `${p.record} ${about(p).join(',')}`);
    // How to read an outline, in every request that sends one.
    const outlined = fake.requests.filter((q) => JSON.stringify(q.body).includes('role=\\"outline\\"'));
    assert.ok(outlined.length >= focused.length);
    for (const r of outlined)
      assert.ok(JSON.stringify(r.body).includes(JSON.stringify(FILE_RULES.outline).slice(1, -1)), `${r.record}`);
    assert.deepEqual(focused.flatMap(about).filter((n, i, all) => all.indexOf(n) === i).length, functions);
    // Step 1 lists as many of the first functions as fit, and says how many that is.
    const step1 = asked.find((p) => p.record === 'Step1Record')!;
    const first = listed(step1);
    assert.ok(first.length > 0 && first.length < functions, `Step 1 listed ${first.length}`);
    assert.deepEqual(
      first,
      Array.from({ length: first.length }, (_, g) => `f${g}`),
    );
    assert.match(
      JSON.stringify(fake.requests.find((r) => r.record === 'Step1Record')!.body),
      new RegExp(`its outline lists ${first.length} of the file's ${functions} functions`),
    );

    const report = await reviewedWhole(cwd, env, args, functions);
    assert.match(report, /its whole outline \(each request outlines only the functions it is about\)/);
  });
});
