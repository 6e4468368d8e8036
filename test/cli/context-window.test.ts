import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Scenario } from '../fake-anthropic/scenario';
import { list, MessagesBody, parseRequest, text } from '../fake-anthropic/request';
import { startFakeAnthropic, type FakeAnthropic, type LoggedRequest } from '../fake-anthropic/server';
import { runCli } from '../helpers/cli';
import { numericFunction, put } from '../helpers/tree';

/** 90 small modules in nine folders: a synthesis of all of them does not fit the window below. */
const FILES = 90;
const pathOf = (i: number) => `wide/pkg${Math.floor(i / 10)}/mod${i}.ts`;
/** Room for any one file's steps, not for the records of every file in one request. */
const WINDOW = 33_000;

/** A cross-file finding between two files of one folder: only that folder's part sees it. */
const PLANTED: Scenario = {
  synthesis: {
    cross_file_findings: [
      {
        rule_id: 'G1',
        confidence: 'high',
        priority: 'should_fix',
        locations: [`${pathOf(31)}:2`, `${pathOf(32)}:2`],
        action: 'Share one scaling helper.',
        rationale: 'Both modules scale the same way.',
      },
    ],
  },
};

/** The files whose records a synthesis request carries. */
const filesShown = (r: LoggedRequest) =>
  list(parseRequest(MessagesBody.parse(r.body)).packet, 'file_entries').flatMap((e) => text(e, 'path') ?? []);

async function wideTree(): Promise<string> {
  const cwd = await mkdtemp(join(tmpdir(), 'skeptic-wide-'));
  for (let i = 0; i < FILES; i++) {
    await put(
      cwd,
      pathOf(i),
      `/** Module ${i}. */\nexport function scale${i}(x: number): number {\n  return x * ${i};\n}\n`,
    );
  }
  return cwd;
}

/**
 * Sixty modules in six folders under the same window, some too large for it as they are: modules whose long
 * test (their companion, reviewed too) fits only alone, and modules whose text fits only as an outline, their
 * functions too long to review eight to a request. A small project context file fits beside every other module.
 */
const MIXED = 60;
const mixedPath = (i: number) => `wide/pkg${Math.floor(i / 10)}/mod${i}.ts`;
const testPath = (i: number) => `wide/pkg${Math.floor(i / 10)}/mod${i}.test.ts`;
const LONG_TEST = (i: number) => i % 10 === 3;
const BIG = (i: number) => i % 10 === 7;
/** A module with a long test has five functions, a big one twelve, of 120 and 200 lines; any other, one of five. */
const functionsOf = (i: number) => (BIG(i) ? 12 : LONG_TEST(i) ? 5 : 1);
const linesOf = (i: number) => (BIG(i) ? 200 : LONG_TEST(i) ? 120 : 5);

async function mixedTree(): Promise<string> {
  const cwd = await mkdtemp(join(tmpdir(), 'skeptic-mixed-'));
  await put(cwd, 'CLAUDE.md', '# Conventions\n\n- Helpers stay pure: no shared mutable state between modules.\n');
  for (let i = 0; i < MIXED; i++) {
    const body = Array.from({ length: functionsOf(i) }, (_, g) => numericFunction(`m${i}f${g}`, linesOf(i)));
    await put(cwd, mixedPath(i), `/** Module ${i}. */\n${body.join('\n\n')}\n`);
    if (LONG_TEST(i)) {
      // A table of cases, about as long as the module, and one test over it.
      const cases = Array.from(
        { length: 450 },
        (_, c) => `  [[${c}, ${c + 1}, ${c + 2}], 3, ${9 * (c + 1)}], // case ${c}`,
      );
      await put(
        cwd,
        testPath(i),
        `import { m${i}f0 } from './mod${i}';\nconst CASES: [number[], number, number][] = [\n${cases.join('\n')}\n];\n` +
          `test('m${i}f0', () => CASES.forEach(([xs, k, want]) => expect(m${i}f0(xs, k)).toBe(want)));\n`,
      );
    }
  }
  return cwd;
}

/** The user turn a request opened with (the system text describes the blocks too). */
const firstTurn = (r: LoggedRequest) => JSON.stringify(MessagesBody.parse(r.body).messages[0]);
/** What one request sent of a file: its source blocks by role. */
const rolesSent = (r: LoggedRequest) =>
  [...firstTurn(r).matchAll(/<untrusted_source_\w+ path=\\"[^"\\]*\\" role=\\"(\w+)\\"/g)].map((m) => m[1]);
const sendsContext = (r: LoggedRequest) => firstTurn(r).includes('Project context files');

describe('a wide review under a small context window', function () {
  this.timeout(180_000);
  let fake: FakeAnthropic;
  before(async () => {
    fake = await startFakeAnthropic({ contextWindow: WINDOW });
  });
  after(() => fake.close());
  beforeEach(() => {
    fake.setScenario(PLANTED);
    fake.reset();
  });

  const review = (cwd: string, args: string[] = [], at = fake) =>
    runCli(['review', 'wide', '--yes', '--json', 'result.json', ...args], {
      cwd,
      env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: at.url },
    });
  /** The window in the price table, as a user sets it: the client knows it before any request. */
  const toldWindow = async (cwd: string) => {
    const table = { opus: { context_window: WINDOW }, sonnet: { context_window: WINDOW } };
    await writeFile(join(cwd, 'window.json'), JSON.stringify(table));
    return ['--prices', 'window.json'];
  };
  /** Requests refused, or over the window by the fake's own count (prompt tokens and max_tokens). */
  const overWindow = (at = fake, window = WINDOW) =>
    at.requests
      .filter((r) => {
        const u = r.usage;
        const max = (r.body as { max_tokens: number }).max_tokens;
        const prompt = u ? u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens : Infinity;
        return r.status !== 200 || prompt + max > window;
      })
      .map((r) => `${r.record ?? r.reviewer} ${r.file} ${r.status}`);
  const synthesisCalls = () => fake.requests.filter((r) => r.record?.startsWith('Synthesis'));

  it('synthesizes by parts within the window it is told, and the report is complete', async () => {
    const cwd = await wideTree();
    const run = await review(cwd, await toldWindow(cwd));
    assert.equal(run.code, 0, run.stderr);
    // Nothing was sent that the API had to refuse.
    assert.deepEqual(
      fake.requests.filter((r) => r.status !== 200).map((r) => r.record),
      [],
    );
    const parts = synthesisCalls().filter((r) => r.record === 'SynthesisResult');
    assert.ok(parts.length > 1, `expected several partial syntheses, got ${parts.length}`);
    assert.equal(synthesisCalls().filter((r) => r.record === 'SynthesisMerge').length, 1);
    // Each file is in exactly one part.
    const shown = parts.flatMap(filesShown);
    assert.equal(shown.length, FILES);
    assert.equal(new Set(shown).size, FILES);

    const report = await readFile(join(cwd, 'code-review-wide.md'), 'utf8');
    assert.doesNotMatch(report, /synthesis did not run/);
    assert.match(report, new RegExp(`Fake synthesis over ${parts.length} parts: ${FILES} files reviewed`));
    for (let i = 0; i < FILES; i++) assert.ok(report.includes(`Fake profile of ${pathOf(i)}.`), pathOf(i));
    const json = JSON.parse(await readFile(join(cwd, 'result.json'), 'utf8')) as {
      findings: { rule_id: string; locations: string[] }[];
    };
    assert.deepEqual(
      json.findings.filter((f) => f.rule_id === 'G1').map((f) => f.locations),
      [[`${pathOf(31)}:2`, `${pathOf(32)}:2`]],
    );
  });

  it('rebuilds a request the API calls too long instead of sending it again', async () => {
    const cwd = await wideTree();
    // The client believes the model's 1M window; the endpoint holds less and does not say so.
    const silent = await startFakeAnthropic({ contextWindow: WINDOW, statesWindow: false, scenario: PLANTED });
    after(() => silent.close());
    const run = await review(cwd, [], silent);
    assert.equal(run.code, 0, run.stderr);
    const synthesisCalls = () => silent.requests.filter((r) => r.record?.startsWith('Synthesis'));
    const refused = silent.requests.filter((r) => r.status === 400);
    assert.equal(refused.length, 1, JSON.stringify(refused.map((r) => r.record)));
    assert.equal(refused[0]!.record, 'SynthesisResult');
    const bodies = silent.requests.map((r) => JSON.stringify(r.body));
    assert.equal(bodies.filter((b) => b === JSON.stringify(refused[0]!.body)).length, 1);
    assert.ok(synthesisCalls().filter((r) => r.status === 200 && r.record === 'SynthesisResult').length > 1);
    const report = await readFile(join(cwd, 'code-review-wide.md'), 'utf8');
    assert.match(report, /Fake synthesis over \d+ parts: 90 files reviewed/);
  });

  it('sends no request over the window the endpoint states, at any step, however densely it counts', async () => {
    // The price table says 1M; the endpoint says 60k and counts two bytes a token, denser than the sizing's three
    // (its fixed parts, the tools and the instructions, then take what 40k leaves at four characters a token).
    const window = 60_000;
    const dense = await startFakeAnthropic({ contextWindow: window, bytesPerToken: 2, scenario: PLANTED });
    after(() => dense.close());
    for (const cwd of [await wideTree(), await mixedTree()]) {
      dense.reset();
      const run = await review(cwd, [], dense);
      assert.equal(run.code, 0, run.stderr);
      // Every request fitted by the endpoint's own count, none was refused, and the count was asked near the window.
      assert.deepEqual(overWindow(dense, window), []);
      assert.ok(dense.counted() > 0);
      assert.ok(dense.requests.some((r) => r.record === 'SynthesisResult'));
      // Nothing lost: every file reviewed, every function of it, and the synthesis over all of them.
      const json = JSON.parse(await readFile(join(cwd, 'result.json'), 'utf8')) as {
        files: { path: string; status: string; reason?: string }[];
      };
      for (const f of json.files) assert.equal(f.status, 'reviewed', `${f.path}: ${f.reason}`);
      const report = await readFile(join(cwd, 'code-review-wide.md'), 'utf8');
      assert.doesNotMatch(report, /## Not Reviewed|synthesis did not run/);
      for (const f of json.files) assert.ok(report.includes(`Fake profile of ${f.path}.`), f.path);
    }
  });

  it('cuts the companion, then the context files, then sends an outline, and the report is complete', async () => {
    const cwd = await mixedTree();
    const run = await review(cwd, await toldWindow(cwd));
    assert.equal(run.code, 0, run.stderr);

    // Every request was within the window by the fake's own count, and none was refused.
    assert.deepEqual(overWindow(), []);

    // No unit lost: every file reviewed, every function of it.
    const json = JSON.parse(await readFile(join(cwd, 'result.json'), 'utf8')) as {
      files: { path: string; status: string; functions_reviewed: number; reason?: string }[];
    };
    assert.equal(json.files.length, MIXED + MIXED / 10);
    for (const f of json.files) assert.equal(f.status, 'reviewed', `${f.path}: ${f.reason}`);
    const reviewed = new Map(json.files.map((f) => [f.path, f.functions_reviewed]));
    for (let i = 0; i < MIXED; i++) assert.equal(reviewed.get(mixedPath(i)), functionsOf(i), mixedPath(i));
    const report = await readFile(join(cwd, 'code-review-wide.md'), 'utf8');
    assert.doesNotMatch(report, /## Not Reviewed/);
    assert.doesNotMatch(report, /synthesis did not run/);
    for (const f of json.files) assert.ok(report.includes(`Fake profile of ${f.path}.`), f.path);
    // A batch too long for the window went again in halves, not function by function.
    assert.match(report, /- 0 functions re-run solo by the completeness check/);

    // What was cut, file by file, is what the report's notes say, and nothing was cut that fitted.
    const sentOf = (path: string) => {
      const sent = fake.requests.filter((r) => r.file === path && r.record !== null);
      assert.ok(sent.length >= 3, path);
      return { roles: new Set(sent.flatMap(rolesSent)), context: sent.every(sendsContext) };
    };
    for (let i = 0; i < MIXED; i++) {
      const path = mixedPath(i);
      const { roles, context } = sentOf(path);
      if (BIG(i)) {
        assert.deepEqual([...roles].sort(), ['excerpt', 'outline'], path);
        // Eight of its functions in full do not fit one request: they went in batches of several, every one once.
        const batches = fake.requests
          .filter((r) => r.file === path && r.record === 'BatchReview')
          .map((r) => r.functions.length);
        assert.ok(batches.length > 1 && batches.every((n) => n >= 2 && n < 8), `${path}: ${batches.join(', ')}`);
        assert.equal(
          batches.reduce((a, b) => a + b, 0),
          12,
          path,
        );
        assert.match(
          report,
          new RegExp(`${path}: sent without .*its full text \\(sent as an outline of its 12 functions\\)`),
        );
      } else if (LONG_TEST(i)) {
        assert.deepEqual([...roles], ['primary'], path);
        assert.ok(context, path);
        assert.match(report, new RegExp(`${path}: sent without its companion ${testPath(i)}, to fit`));
        const test = sentOf(testPath(i));
        assert.deepEqual([...test.roles], ['primary'], testPath(i));
        assert.ok(test.context, testPath(i));
      } else {
        assert.deepEqual([...roles], ['primary'], path);
        assert.ok(context, path);
        assert.ok(!report.includes(`${path}: sent without`), path);
      }
    }
  });

  it('lens mode: parts sized to the window, and a file that fits in none is reported, never sent cut', async () => {
    const cwd = await wideTree();
    // One module far larger than any request the window allows.
    const big = 'wide/pkg9/huge.ts';
    await put(
      cwd,
      big,
      Array.from({ length: 3_000 }, (_, i) => `export const v${i} = ${i} * 2; // value ${i}`).join('\n'),
    );
    const run = await review(cwd, [...(await toldWindow(cwd)), '--mode', 'lenses']);
    assert.equal(run.code, 3, run.stderr);

    // Every request fitted, by the fake's own count; none was refused, and none carried the large file.
    assert.deepEqual(overWindow(), []);
    assert.ok(fake.requests.every((r) => !JSON.stringify(r.body).includes(`path=\\"${big}\\"`)));

    const report = await readFile(join(cwd, 'code-review-wide.md'), 'utf8');
    // Reported by name: the only file no reviewer read.
    assert.match(report, new RegExp(`- Files no reviewer read: \`${big}\` \\(every reviewer failed on it\\)\\.\n`));
    assert.match(
      report,
      /Not reviewed: lens \w[\w-]* part \d+\/\d+ — the request .* does not fit claude-\w+-5-5's context window of 33000 tokens/,
    );
    // The large file is a part of its own, never sent; every small module went in the others.
    const sent = fake.requests.map((r) => JSON.stringify(r.body));
    const seen = sent.flatMap((b) => [...b.matchAll(/part (\d+) of (\d+) of the scope/g)].map((m) => [m[1], m[2]]));
    const of = [...new Set(seen.map(([, n]) => Number(n)))];
    assert.equal(of.length, 1, of.join());
    assert.ok(of[0]! >= 2);
    assert.equal(new Set(seen.map(([k]) => k)).size, of[0]! - 1);
    for (let i = 0; i < FILES; i++)
      assert.ok(
        sent.some((b) => b.includes(`path=\\"${pathOf(i)}\\"`)),
        pathOf(i),
      );

    // The plan splits the scope as the run did: it reads the same table's windows.
    const plan = await runCli(['plan', 'wide', '--mode', 'lenses', ...(await toldWindow(cwd))], { cwd });
    assert.equal(plan.code, 0, plan.stderr);
    assert.match(plan.stdout, new RegExp(`\\(${of[0]} parts\\)`));
  });

  it('plan foresees synthesis by parts: the calls it counts are the calls the review makes', async () => {
    const cwd = await wideTree();
    const window = await toldWindow(cwd);
    const env = {
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: fake.url,
      XDG_CACHE_HOME: await mkdtemp(join(tmpdir(), 'skeptic-plan-cache-')),
    };
    const synthesisPlanned = async () => {
      const plan = await runCli(['plan', 'wide', '--json', ...window], { cwd, env });
      assert.equal(plan.code, 0, plan.stderr);
      return (JSON.parse(plan.stdout) as { estimate: { by_step: { synthesize: { calls: number } } } }).estimate.by_step
        .synthesize.calls;
    };
    const reviewed = async () => {
      fake.reset();
      const run = await runCli(['review', 'wide', '--yes', ...window], { cwd, env });
      assert.equal(run.code, 0, run.stderr);
      return synthesisCalls().length;
    };
    // Cold, the records are sized by rule: too many for one request under this window.
    assert.ok((await synthesisPlanned()) > 2);
    await reviewed();
    // One module edited (a function added): its records are predicted from its last answers, its part is asked.
    await writeFile(
      join(cwd, pathOf(5)),
      `/** Module 5. */\nexport function scale5(x: number): number {\n  return x * 5;\n}\nexport const twice5 = (x: number) => 2 * scale5(x);\n`,
    );
    const planned = await synthesisPlanned();
    const made = await reviewed();
    // That module's part and the merge; the other parts come from the cache.
    assert.equal(made, 2);
    assert.equal(planned, made);
  });
});
