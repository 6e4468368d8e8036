/** One run of a built CLI under /usr/bin/time: wall, CPU, peak memory, and for a review its first request. */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FakeAnthropic } from '../test/fake-anthropic/server';

export interface Timed {
  /** Seconds. */
  wall: number;
  /** User + system seconds. */
  cpu: number;
  /** Peak resident set, MB. */
  rssMb: number;
  /** The 1-minute load average at the start. */
  load: number;
  /** With a server: seconds from spawn to the first request it received. */
  firstRequest?: number;
  stdout: string;
}

/** The built CLI at `cli`; throws when it fails (a review may exit 3: units failed, as a bench's partial run does). */
export function timed(
  cli: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  server?: FakeAnthropic,
): Promise<Timed> {
  return timedCommand([process.execPath, cli, ...args], cwd, env, server);
}

/** Any command (`argv`), timed the same way. */
export async function timedCommand(
  argv: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  server?: FakeAnthropic,
): Promise<Timed> {
  const out = join(await mkdtemp(join(tmpdir(), 'skeptic-bench-time-')), 'time');
  const from = server?.requests.length ?? 0;
  const load = loadavg()[0]!;
  const t0 = Date.now();
  const child = spawn('/usr/bin/time', ['-f', '%e %U %S %M', '-o', out, ...argv], {
    cwd,
    env: { ...process.env, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  if (code !== 0 && !(server && code === 3))
    throw new Error(`${argv.slice(1, 3).join(' ')} exited ${code}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
  const [wall, user, sys, kb] = (await readFile(out, 'utf8')).trim().split('\n').at(-1)!.split(' ').map(Number);
  await rm(dirname(out), { recursive: true, force: true });
  const first = server?.requests[from];
  return {
    wall: wall!,
    cpu: user! + sys!,
    rssMb: kb! / 1024,
    load,
    stdout,
    ...(first ? { firstRequest: (first.started_at - t0) / 1000 } : {}),
  };
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
