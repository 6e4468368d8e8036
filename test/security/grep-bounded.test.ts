/**
 * A search cannot hold the process: a pattern whose RE2 program is large, over long lines, is matched on
 * each line's first 2000 characters (the answer says so), and SIGTERM once a search is asked for still
 * ends the run (the search gives the event loop a turn every few milliseconds: test/unit/tools.test.ts).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli';
import { useFakeServer } from '../helpers/fakeServer';
import { put } from '../helpers/tree';

const KEY = 'sk-ant-api03-grep-suite-key-0123456789';
const A_TS = { file: 'src/a.ts' };

describe('grep under a hostile pattern, through the CLI', function () {
  this.timeout(120_000);
  const fake = useFakeServer();
  let ws: string;
  before(async () => {
    ws = mkdtempSync(join(tmpdir(), 'skeptic-grep-'));
    await put(ws, 'src/a.ts', 'export function add(a: number, b: number): number {\n  return a + b;\n}\n');
    // One line of a megabyte (minutes of matching, unbounded), and seconds of lines of two thousand characters
    // in a text file (no parser to wait on: the search is what runs).
    await put(ws, 'src/one-line.ts', `// x\nexport const s = "${'a'.repeat(1_000_000)}";\n`);
    await put(ws, 'src/many-lines.txt', `y\n${`${'a'.repeat(2000)}\n`.repeat(120)}`);
  });
  after(() => rmSync(ws, { recursive: true, force: true }));
  const grep = (pattern: string) => ({
    ...fake.scenario,
    faults: [{ kind: 'tool_use' as const, match: A_TS, tool: 'grep', input: { pattern } }],
  });
  const toolResult = () =>
    fake.server.requests
      .flatMap((r) => (r.body as { messages: Array<{ content: unknown }> }).messages)
      .flatMap((m) =>
        Array.isArray(m.content) ? (m.content as Array<{ type: string; content?: string; is_error?: boolean }>) : [],
      )
      .find((b) => b.type === 'tool_result');

  it('long lines are matched on their first 2000 characters, and the answer says so', async () => {
    fake.server.setScenario(grep('(.{1000})[^ab]'));
    const run = await runCli(['review', '--yes', 'src/a.ts', 'src/one-line.ts'], {
      cwd: ws,
      env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: fake.server.url },
    });
    assert.equal(run.code, 0, run.stderr);
    const result = toolResult();
    assert.equal(result?.is_error, false, result?.content);
    assert.match(result?.content ?? '', /lines over 2000 characters were searched in their first 2000/);
  });

  it('a pattern whose counted repetitions multiply past the cap is refused as a bad pattern', async () => {
    fake.server.setScenario(grep('(.{100}){100}x'));
    const run = await runCli(['review', '--yes', 'src/a.ts'], {
      cwd: ws,
      env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: fake.server.url },
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(toolResult()?.content ?? '', /bad pattern: its counted repetitions/);
  });

  it('SIGTERM once a search is asked for ends the run with exit 143', async () => {
    // That the search itself lets a signal through while it matches is test/unit/tools.test.ts's to show.
    fake.server.setScenario(grep('(.{1000})[^ab]'));
    const asked = fake.server.until(
      () => fake.server.requests.some((r) => r.file === 'src/a.ts' && r.fault === 'tool_use' && r.status === 200),
      'the grep call to be served',
    );
    const run = await runCli(['review', '--yes', 'src/a.ts', 'src/many-lines.txt'], {
      cwd: ws,
      env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: fake.server.url },
      stop: { signal: 'SIGTERM', when: asked },
    });
    assert.equal(run.code, 143, run.stderr);
    assert.match(run.stderr, /terminated: finishing what is done and writing a partial report/);
  });
});
