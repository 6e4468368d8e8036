import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeAnthropic, type FakeAnthropic } from '../fake-anthropic/server';
import { runCli } from '../helpers/cli';
import { numericFunction, put } from '../helpers/tree';

/** The endpoint's window, which it does not state: the client believes the model's 1M until a request is refused. */
const WINDOW = 33_000;

/** A module and its test, a long table of cases: each fits the window alone, the two together do not. */
async function longTestTree(): Promise<string> {
  const cwd = await mkdtemp(join(tmpdir(), 'skeptic-batch-strands-'));
  const body = Array.from({ length: 5 }, (_, g) => numericFunction(`f${g}`, 120));
  await put(cwd, 'mod/scale.ts', `/** Scaling. */\n${body.join('\n\n')}\n`);
  const cases = Array.from(
    { length: 450 },
    (_, c) => `  [[${c}, ${c + 1}, ${c + 2}], 3, ${9 * (c + 1)}], // case ${c}`,
  );
  await put(
    cwd,
    'mod/scale.test.ts',
    `import { f0 } from './scale';\nconst CASES: [number[], number, number][] = [\n${cases.join('\n')}\n];\n` +
      `test('f0', () => CASES.forEach(([xs, k, want]) => expect(f0(xs, k)).toBe(want)));\n`,
  );
  return cwd;
}

describe('a batch run: the transport counts every unit, a unit rebuilt inside another too', function () {
  this.timeout(120_000);
  let fake: FakeAnthropic;
  before(async () => {
    fake = await startFakeAnthropic({ contextWindow: WINDOW, statesWindow: false });
  });
  after(() => fake.close());

  it('a request the API calls too long is rebuilt without the companion and goes in the next round', async () => {
    const cwd = await longTestTree();
    // The rebuilt unit runs inside the one refused: were that one still counted, no round would go out again
    // and the run would wait for its --timeout.
    const run = await runCli(['review', 'mod', '--yes', '--batch', '--timeout', '60s', '--json', 'result.json'], {
      cwd,
      env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url, XDG_CACHE_HOME: join(cwd, '.cache') },
    });
    assert.equal(run.code, 0, run.stderr);
    const json = JSON.parse(await readFile(join(cwd, 'result.json'), 'utf8')) as {
      files: { path: string; status: string; reason?: string }[];
    };
    assert.ok(json.files.some((f) => f.path === 'mod/scale.ts'));
    for (const f of json.files) assert.equal(f.status, 'reviewed', `${f.path}: ${f.reason}`);
    const report = await readFile(join(cwd, 'code-review-mod.md'), 'utf8');
    assert.match(report, /mod\/scale\.ts: sent without its companion mod\/scale\.test\.ts, to fit/);
    const refused = fake.requests.filter((r) => r.status === 400);
    assert.ok(refused.length > 0 && refused.every((r) => r.batch !== null), 'refused inside a batch');
    assert.ok(
      fake.requests.every((r) => r.batch !== null),
      'every request went through a batch',
    );
  });
});
