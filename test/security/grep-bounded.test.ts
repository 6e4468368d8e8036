/**
 * A search cannot hold the process: a pattern whose RE2 program is large, over long lines, is matched on
 * each line's first 2000 characters (the answer says so), and the search gives the event loop a turn every
 * few milliseconds, so SIGTERM during it still stops the run within a second.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, runCli, type CliRun } from '../helpers/cli';
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

  it('SIGTERM while a search runs is answered within a second, and the run ends with exit 143', async () => {
    fake.server.setScenario(grep('(.{1000})[^ab]'));
    const served = () => fake.server.requests.some((r) => r.file === 'src/a.ts' && r.status === 200);
    const run = await stopWhen(['review', '--yes', 'src/a.ts', 'src/many-lines.txt'], served);
    assert.equal(run.code, 143, run.stderr);
    // The process answers the signal at once (the search yields); what follows is the partial report.
    assert.ok(run.answerMs < 1000, `took ${run.answerMs} ms to answer SIGTERM: ${run.stderr}`);
  });

  /** Starts the CLI, sends SIGTERM 300 ms after `ready()` first holds (the search under way), and times its answer. */
  function stopWhen(args: string[], ready: () => boolean): Promise<CliRun & { answerMs: number }> {
    return new Promise((resolve, reject) => {
      const env = {
        ...process.env,
        ANTHROPIC_API_KEY: KEY,
        ANTHROPIC_BASE_URL: fake.server.url,
        XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'skeptic-grep-cache-')),
      };
      const child = spawn(process.execPath, [CLI, ...args], { cwd: ws, env });
      let stdout = '';
      let stderr = '';
      let sentAt = 0;
      let seenAt = 0;
      let answeredAt = 0;
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (sentAt && !answeredAt && /terminated: finishing what is done/.test(stderr)) answeredAt = Date.now();
      });
      const poll = setInterval(() => {
        if (!seenAt && ready()) seenAt = Date.now();
        if (!seenAt || Date.now() - seenAt < 300) return;
        clearInterval(poll);
        sentAt = Date.now();
        child.kill('SIGTERM');
      }, 20);
      child.on('error', reject);
      child.on('close', (code) => {
        clearInterval(poll);
        resolve({ code, stdout, stderr, answerMs: answeredAt ? answeredAt - sentAt : Infinity });
      });
    });
  }
});
