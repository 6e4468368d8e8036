import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeAnthropic, type FakeAnthropic, type LoggedRequest } from '../fake-anthropic/server';
import { runCli } from '../helpers/cli';
import { put } from '../helpers/tree';

const module = (name: string, functions: number) =>
  Array.from(
    { length: functions },
    (_, i) => `export function ${name}${i}(x: number): number {\n  return x + ${i};\n}\n`,
  ).join('\n');

/** Cache primes (one output token) are not steps of a file. */
const isPrime = (r: LoggedRequest) => (r.body as { max_tokens?: number }).max_tokens === 1;

describe('staged request order through the CLI against the fake API', function () {
  this.timeout(60_000);
  let server: FakeAnthropic;

  before(async () => {
    // Enough latency that calls queue for the two slots: the order is then the scheduler's, not arrival's.
    server = await startFakeAnthropic({ latencyMs: 40 });
  });
  after(() => server.close());

  it('starts a file whose chain is the run’s long pole first, and otherwise serves later steps first', async () => {
    // Eight small files, then one with 120 functions (15 Step 3 calls, 8 rounds of two slots): its chain is
    // longer than a third of the whole run, although it comes last in the start order.
    const cwd = await mkdtemp(join(tmpdir(), 'skeptic-schedule-'));
    const small = Array.from({ length: 8 }, (_, i) => `src/a${i}.ts`);
    for (const [i, path] of small.entries()) await put(cwd, path, module(`a${i}f`, 2));
    await put(cwd, 'src/z.ts', module('zf', 120));
    const run = await runCli(['review', 'src', '--concurrency', '2', '--json', 'result.json'], {
      cwd,
      env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.url },
    });
    assert.equal(run.code, 0, run.stderr);

    const calls = server.requests.filter((r) => !isPrime(r));
    const at = (file: string, record: string) => calls.findIndex((r) => r.file === file && r.record === record);
    const step1 = small.map((f) => at(f, 'Step1Record'));
    // Only the files that took the two slots as they came free go before it; first come, or later steps
    // first, would send it last of all.
    assert.ok(
      step1.filter((i) => i < at('src/z.ts', 'Step1Record')).length <= 2,
      `z.ts Step 1 at ${at('src/z.ts', 'Step1Record')}, small files' at ${step1.join(', ')}`,
    );
    // Among the small files, later steps first: the first one's Step 2 goes before the last one's Step 1
    // (first come would send every Step 1 first).
    assert.ok(
      at('src/a0.ts', 'FileAnalysis') < at('src/a7.ts', 'Step1Record'),
      `a0.ts Step 2 at ${at('src/a0.ts', 'FileAnalysis')}, a7.ts Step 1 at ${at('src/a7.ts', 'Step1Record')}`,
    );
  });
});
