/** Runs the built CLI (dist/cli.js) as a user would, in its own process. */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { cp, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Tests are bundled to out/test/<dir>/; the repository root is three levels up.
export const REPO = join(__dirname, '../../..');
export const CLI = join(REPO, 'dist/cli.js');
export const FIXTURES = join(REPO, 'test/fixtures');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A run sees none of the machine's own provider setup (a developer's Claude Code variables, AWS or Google
 * credentials), and its credential chains never reach out of the machine: no instance metadata service, no
 * Google metadata server but the fake's.
 */
export const NO_PROVIDER_ENV: Record<string, string | undefined> = {
  ANTHROPIC_API_KEY: undefined,
  ANTHROPIC_AUTH_TOKEN: undefined,
  ANTHROPIC_BASE_URL: undefined,
  CLAUDE_CODE_USE_BEDROCK: undefined,
  CLAUDE_CODE_USE_VERTEX: undefined,
  CLAUDE_CODE_SKIP_BEDROCK_AUTH: undefined,
  CLAUDE_CODE_SKIP_VERTEX_AUTH: undefined,
  ANTHROPIC_BEDROCK_BASE_URL: undefined,
  ANTHROPIC_VERTEX_BASE_URL: undefined,
  ANTHROPIC_VERTEX_PROJECT_ID: undefined,
  CLOUD_ML_REGION: undefined,
  AWS_REGION: undefined,
  AWS_DEFAULT_REGION: undefined,
  AWS_PROFILE: undefined,
  AWS_ACCESS_KEY_ID: undefined,
  AWS_SECRET_ACCESS_KEY: undefined,
  AWS_SESSION_TOKEN: undefined,
  AWS_BEARER_TOKEN_BEDROCK: undefined,
  AWS_CONFIG_FILE: '/nonexistent/skeptic-test/aws-config',
  AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/skeptic-test/aws-credentials',
  AWS_EC2_METADATA_DISABLED: 'true',
  AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: undefined,
  AWS_CONTAINER_CREDENTIALS_FULL_URI: undefined,
  AWS_WEB_IDENTITY_TOKEN_FILE: undefined,
  GOOGLE_APPLICATION_CREDENTIALS: undefined,
  CLOUDSDK_CONFIG: '/nonexistent/skeptic-test/gcloud',
  GCE_METADATA_HOST: undefined,
  GCE_METADATA_IP: undefined,
  METADATA_SERVER_DETECTION: 'none',
};

/**
 * Sends `signal` once `when` holds: a promise (the fake server's log, say) or a line on stderr. The run fails
 * if the promise rejects, or if the process ends before it was signalled.
 */
export interface CliStop {
  signal: NodeJS.Signals;
  when: Promise<unknown> | RegExp;
}

/**
 * `script`: another build of the CLI (default dist/cli.js); `nodeArgs`: Node's own options before it. Each run gets its own empty user cache
 * (XDG_CACHE_HOME) unless the test passes one: the result cache is on by default, and one test's answers
 * must not leak into another's.
 */
export function runCli(
  args: string[],
  opts: {
    cwd: string;
    env?: Record<string, string | undefined>;
    script?: string;
    nodeArgs?: string[];
    stop?: CliStop;
    /** Told the process id once it is started. */
    spawned?: (pid: number) => void;
  },
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const fresh = mkdtempSync(join(tmpdir(), 'skeptic-user-cache-'));
    const env = {
      ...process.env,
      ...NO_PROVIDER_ENV,
      XDG_CACHE_HOME: fresh,
      ...opts.env,
    };
    const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), opts.script ?? CLI, ...args], {
      cwd: opts.cwd,
      env: env as NodeJS.ProcessEnv,
    });
    let stdout = '';
    let stderr = '';
    let signalled = false;
    const stop = opts.stop;
    const signal = () => {
      if (signalled || !stop) return;
      signalled = true;
      child.kill(stop.signal);
    };
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (stop?.when instanceof RegExp && stop.when.test(stderr)) signal();
    });
    if (stop && !(stop.when instanceof RegExp)) {
      stop.when.then(signal, (err: unknown) => {
        child.kill('SIGKILL');
        reject(err as Error);
      });
    }
    if (child.pid !== undefined) opts.spawned?.(child.pid);
    child.on('error', reject);
    child.on('close', (code) => {
      if (stop && !signalled) {
        const what = stop.when instanceof RegExp ? `stderr to match ${stop.when}` : 'its stop signal';
        return reject(new Error(`the CLI exited (code ${code}) before ${what}:\n${stderr}`));
      }
      resolve({ code, stdout, stderr });
    });
  });
}

/** A fresh copy of a fixture folder inside a new temp dir; returns the temp dir (the cwd for a run). */
export async function fixtureWorkspace(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'skeptic-ws-'));
  await cp(join(FIXTURES, name), join(dir, name), { recursive: true });
  return dir;
}

export async function loadJson<T = unknown>(path: string): Promise<T> {
  return JSON.parse(await readFile(path, 'utf8')) as T;
}
