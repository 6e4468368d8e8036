/**
 * Git for fetching benchmark data and pull requests: never prompts for credentials (a private or missing
 * repository fails instead of hanging), and sends a GitHub token, when there is one, to github.com only
 * through the environment, so it never appears in a process listing or in a remote's saved URL.
 */
import { execFile } from 'node:child_process';

import { EvalError } from './errors';

export class FetchError extends EvalError {}

export interface GitOptions {
  cwd: string;
  /** A GitHub token for https://github.com/ (rate limits); never sent to other hosts. */
  token?: string;
  signal?: AbortSignal;
}

export function git(args: string[], opts: GitOptions): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0' };
  if (opts.token) {
    const basic = Buffer.from(`x-access-token:${opts.token}`).toString('base64');
    Object.assign(env, {
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'http.https://github.com/.extraheader',
      GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${basic}`,
    });
  }
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      {
        cwd: opts.cwd,
        env,
        maxBuffer: 64 * 1024 * 1024,
        encoding: 'utf8',
        ...(opts.signal ? { signal: opts.signal } : {}),
      },
      (err, stdout, stderr) => {
        if (!err) return resolve(stdout);
        const why =
          (stderr || err.message)
            .trim()
            .split('\n')
            .filter((l) => !/^(warning|hint):/.test(l))[0]
            ?.replace(/^fatal: /, '') ?? err.message;
        reject(new FetchError(`git ${args[0]} failed: ${why}`));
      },
    );
  });
}

/** GITHUB_TOKEN or GH_TOKEN, else what an authenticated gh CLI holds; none is fine (public repositories). */
export async function githubToken(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const fromEnv = (env.GITHUB_TOKEN ?? env.GH_TOKEN)?.trim();
  if (fromEnv) return fromEnv;
  return new Promise((resolve) => {
    execFile('gh', ['auth', 'token'], { encoding: 'utf8', timeout: 5000 }, (err, stdout) =>
      resolve(err ? undefined : stdout.trim() || undefined),
    );
  });
}
