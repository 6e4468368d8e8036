import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
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

  let cli = 0;
  let turn: Promise<void> = Promise.resolve();
  before(async () => {
    // One answer at a time, oldest first, each once the CLI has done all it can with the ones before (every
    // thread asleep): calls then queue for the two slots, and the order is the scheduler's, not the machine's.
    server = await startFakeAnthropic({ hold: () => (turn = turn.then(() => asleep(cli))) });
  });
  after(() => server.close());

  it('starts a file whose chain is the run’s long pole first: the pipeline hands the schedule its files and steps', async function () {
    if (process.platform !== 'linux') this.skip(); // the CLI's idleness is read from /proc
    // Eight small files, then one with 120 functions (15 Step 3 calls, 8 rounds of two slots): its chain is
    // longer than a third of the whole run, although it comes last in the start order.
    const cwd = await mkdtemp(join(tmpdir(), 'skeptic-schedule-'));
    const small = Array.from({ length: 8 }, (_, i) => `src/a${i}.ts`);
    for (const [i, path] of small.entries()) await put(cwd, path, module(`a${i}f`, 2));
    await put(cwd, 'src/z.ts', module('zf', 120));
    const run = await runCli(['review', 'src', '--concurrency', '2', '--json', 'result.json'], {
      cwd,
      env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.url },
      spawned: (pid) => (cli = pid),
    });
    assert.equal(run.code, 0, run.stderr);

    const calls = server.requests.filter((r) => !isPrime(r));
    const at = (file: string, record: string) => calls.findIndex((r) => r.file === file && r.record === record);
    const step1 = small.map((f) => at(f, 'Step1Record'));
    // Only the files that took the two slots as they came free go before it; first come, or later steps
    // first, would send it last of all. (The rest of the order, which depends on when each answer lands
    // relative to the next file's call, is simulated exactly in test/unit/schedule.test.ts.)
    assert.ok(
      step1.filter((i) => i < at('src/z.ts', 'Step1Record')).length <= 2,
      `z.ts Step 1 at ${at('src/z.ts', 'Step1Record')}, small files' at ${step1.join(', ')}`,
    );
  });
});

/** Resolves once every thread of process `pid` is asleep on two looks 5 ms apart (Linux's /proc). */
async function asleep(pid: number, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  const states = () => {
    try {
      return readdirSync(`/proc/${pid}/task`).map(
        (t) => /\) (\S)/.exec(readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8'))?.[1],
      );
    } catch {
      return []; // gone: nothing left to wait for
    }
  };
  let quiet = 0;
  while (quiet < 2) {
    if (Date.now() > deadline) throw new Error(`the CLI (pid ${pid}) was never idle for ${ms} ms`);
    await sleep(5);
    quiet = states().every((s) => s === 'S') ? quiet + 1 : 0;
  }
}
