import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { list, MessagesBody, parseRequest, text } from '../fake-anthropic/request';
import { startFakeAnthropic, type FakeAnthropic } from '../fake-anthropic/server';
import { runCli } from '../helpers/cli';
import { put } from '../helpers/tree';

/** One module of 200 functions: its inventory with the answer listing it does not fit one request of this window. */
const FUNCTIONS = 200;
const WINDOW = 40_000;
const PATH = 'big/module.ts';

const module = () =>
  `/** Many helpers. */\n${Array.from(
    { length: FUNCTIONS },
    (_, g) =>
      `export function f${g}(xs: number[], k: number): number {\n  let acc = 0;\n  for (const x of xs) acc += x * k + ${g};\n  return acc;\n}`,
  ).join('\n\n')}\n`;

describe('Step 2 of a file whose inventory does not fit one request', function () {
  this.timeout(180_000);
  let fake: FakeAnthropic;
  before(async () => {
    fake = await startFakeAnthropic({ contextWindow: WINDOW });
  });
  after(() => fake.close());

  it('goes in parts: every function analysed and reviewed, nothing over the window, a rerun asks nothing', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'skeptic-big-file-'));
    await put(cwd, PATH, module());
    const table = { opus: { context_window: WINDOW }, sonnet: { context_window: WINDOW } };
    await writeFile(join(cwd, 'window.json'), JSON.stringify(table));
    const env = {
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: fake.url,
      XDG_CACHE_HOME: await mkdtemp(join(tmpdir(), 'skeptic-big-file-cache-')),
    };
    const args = ['big', '--prices', 'window.json'];
    const overWindow = () =>
      fake.requests.filter((r) => {
        const u = r.usage;
        const max = (r.body as { max_tokens: number }).max_tokens;
        const prompt = u ? u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens : Infinity;
        return r.status !== 200 || prompt + max > WINDOW;
      });
    const analyses = () => fake.requests.filter((r) => r.record === 'FileAnalysis');

    fake.reset();
    await runCli(['review', ...args, '--yes', '--json', 'result.json'], { cwd, env });
    assert.deepEqual(
      overWindow().map((r) => `${r.record} ${r.status}`),
      [],
    );
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
    const json = JSON.parse(await readFile(join(cwd, 'result.json'), 'utf8')) as {
      files: { path: string; status: string; functions_reviewed: number; reason?: string }[];
    };
    const file = json.files.find((f) => f.path === PATH);
    assert.equal(file?.status, 'reviewed', file?.reason);
    assert.equal(file.functions_reviewed, FUNCTIONS);
    const report = await readFile(join(cwd, 'code-review-big.md'), 'utf8');
    assert.doesNotMatch(report, /Step 2 left out/);

    // The plan walks the same parts with the same keys: nothing left to ask.
    const plan = await runCli(['plan', ...args, '--json'], { cwd, env });
    assert.equal(plan.code, 0, plan.stderr);
    const steps = (JSON.parse(plan.stdout) as { estimate: { by_step: Record<string, { calls: number }> } }).estimate
      .by_step;
    assert.equal(steps.analyze!.calls, 0);
    assert.equal(steps.review!.calls, 0);

    fake.reset();
    await runCli(['review', ...args, '--yes'], { cwd, env });
    assert.deepEqual(
      fake.requests.filter((r) => r.record === 'FileAnalysis' || r.record === 'BatchReview'),
      [],
    );
  });
});
