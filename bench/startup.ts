/**
 * `npm run bench:startup [-- --runs N]`: how long the built CLI takes to start, with V8's code cache and
 * without it (SKEPTIC_NO_CODE_CACHE=1), beside a bare `node -e 0`: `--version` and `plan` to exit, and
 * `review` from spawn to its first request at the fake Messages API, over a 30-file git repository; beside
 * that, the floor under it: a bundle of the Anthropic SDK alone sending one request (bench/floor/), started
 * the same way. Prints medians, in total, minus bare Node's own start and over the floor; asserts nothing.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startFakeAnthropic, type FakeAnthropic } from '../test/fake-anthropic/server';
import { syntheticProject } from './project';

const CLI = join(resolve(__dirname, '../..'), 'dist/cli.js');
const FLOOR = join(__dirname, 'floor/start.js');

interface Start {
  /** The program: the CLI unless said. */
  script?: string;
  args: string[];
  /** Measured to the first request at the fake server instead of to the exit. */
  toFirstRequest?: boolean;
}

/** Milliseconds from spawn to the process's exit, or to its first request (then it is stopped). */
function timeOnce(
  script: string[],
  start: Start,
  cwd: string,
  env: NodeJS.ProcessEnv,
  server: FakeAnthropic,
): Promise<number> {
  return new Promise((done, fail) => {
    const seen = server.requests.length;
    const t0 = Date.now();
    const child = spawn(process.execPath, [...script, ...start.args], { cwd, env, stdio: 'ignore' });
    let poll: NodeJS.Timeout | undefined;
    if (start.toFirstRequest) {
      poll = setInterval(() => {
        if (server.requests.length === seen) return;
        clearInterval(poll);
        done(server.requests[seen]!.started_at - t0);
        child.kill();
      }, 1);
    }
    child.on('error', fail);
    child.on('exit', (code) => {
      clearInterval(poll);
      if (start.toFirstRequest) {
        if (server.requests.length === seen)
          fail(new Error(`${script.join(' ')} exited with ${code} before a request`));
        return;
      }
      if (code === 0) done(Date.now() - t0);
      else fail(new Error(`${start.args.join(' ')} exited with ${code}`));
    });
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function medianOf(runs: number, once: () => Promise<number>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await once());
  return median(times);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' } } });
  const runs = Number(values.runs);
  const cwd = await syntheticProject(30, 10);
  const git = (...args: string[]) => execFileSync('git', args, { cwd, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.email=bench@skeptic', '-c', 'user.name=bench', 'commit', '-qm', 'tree');
  const server = await startFakeAnthropic({ scenario: {}, latencyMs: 300 });
  try {
    const home = await mkdtemp(join(tmpdir(), 'skeptic-startup-'));
    const base = { ...process.env, XDG_CACHE_HOME: home, ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: server.url };
    const bare = await medianOf(runs, () => timeOnce(['-e', '0'], { args: [] }, cwd, base, server));
    const starts: Record<string, Start> = {
      '--version': { args: ['--version'] },
      plan: { args: ['plan'] },
      'review → 1st request': { args: ['review', '--yes', '--no-cache'], toFirstRequest: true },
      'SDK alone → request': { script: FLOOR, args: [], toFirstRequest: true },
    };
    console.log(
      `startup over ${runs} runs each (median ms; "− node" subtracts a bare \`node -e 0\`, ${bare.toFixed(0)} ms here, "÷ node" divides by it; load ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores)`,
    );
    const cached: Record<string, number> = {};
    for (const [label, start] of Object.entries(starts)) {
      const row: string[] = [];
      const script = [start.script ?? CLI];
      for (const [variant, env] of [
        ['code cache', base],
        ['no code cache', { ...base, SKEPTIC_NO_CODE_CACHE: '1' }],
      ] as const) {
        await timeOnce(script, start, cwd, env, server); // the first start makes the code cache
        const m = await medianOf(runs, () => timeOnce(script, start, cwd, env, server));
        cached[label] ??= m;
        row.push(`${variant} ${m.toFixed(0)} (− node ${(m - bare).toFixed(0)}, ÷ node ${(m / bare).toFixed(2)})`);
      }
      console.log(`  ${label.padEnd(22)} ${row.join(' · ')}`);
    }
    const review = cached['review → 1st request']!;
    const floor = cached['SDK alone → request']!;
    console.log(
      `  review's own start over the SDK floor, code cache: ${(review - floor).toFixed(0)} ms; a start at 2.5× bare node would leave it ${(2.5 * bare - floor).toFixed(0)} ms`,
    );
  } finally {
    await server.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
