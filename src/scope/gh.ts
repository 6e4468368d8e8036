/** Pull-request scope through the GitHub CLI (`gh`), run without a shell. */
import { execFile } from 'node:child_process';
import { ScopeError } from './inventory';

export interface PullRequest {
  number: number;
  title: string;
  body: string;
  /** As gh reports it: OPEN, CLOSED or MERGED. */
  state: string;
  isDraft: boolean;
  baseRefName: string;
  headRefName: string;
}

export interface GhOptions {
  cwd: string;
  /** The environment gh runs with (its PATH finds gh); defaults to process.env. */
  env?: NodeJS.ProcessEnv;
}

const NOT_INSTALLED =
  'the GitHub CLI (gh) is not installed; install it from https://cli.github.com and run gh auth login';

/** gh failed: `installed` false when there is no gh to run; `why`, the first line it wrote (or the error's). */
class GhFailed extends ScopeError {
  constructor(
    message: string,
    readonly o: { installed: boolean; why: string },
  ) {
    super(message);
  }
}

function gh(args: string[], opts: GhOptions): Promise<string> {
  // No prompts and no pager: gh runs unattended here.
  const env = { ...(opts.env ?? process.env), GH_PROMPT_DISABLED: '1', GH_PAGER: 'cat', NO_COLOR: '1' };
  return new Promise((resolve, reject) => {
    execFile(
      'gh',
      args,
      { cwd: opts.cwd, env, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' },
      (err, stdout, stderr) => {
        if (!err) return resolve(stdout);
        if ((err as NodeJS.ErrnoException).code === 'ENOENT')
          return reject(new GhFailed(NOT_INSTALLED, { installed: false, why: NOT_INSTALLED }));
        const why = (stderr || err.message).trim().split('\n')[0]!;
        reject(new GhFailed(`gh ${args.slice(0, 3).join(' ')} failed: ${why}`, { installed: true, why }));
      },
    );
  });
}

export async function ghPrView(num: number, opts: GhOptions): Promise<PullRequest> {
  const out = await gh(
    ['pr', 'view', String(num), '--json', 'number,title,body,state,isDraft,baseRefName,headRefName'],
    opts,
  );
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(out) as Record<string, unknown>;
  } catch {
    throw new ScopeError(`gh pr view ${num} returned something that is not JSON`);
  }
  const str = (k: string) => (typeof raw[k] === 'string' ? raw[k] : '');
  return {
    number: typeof raw.number === 'number' ? raw.number : num,
    title: str('title'),
    body: str('body'),
    state: str('state').toUpperCase(),
    isDraft: raw.isDraft === true,
    baseRefName: str('baseRefName'),
    headRefName: str('headRefName'),
  };
}

/** The PR's unified diff (base to head), paths relative to the repository top. */
export function ghPrDiff(num: number, opts: GhOptions): Promise<string> {
  return gh(['pr', 'diff', String(num), '--color', 'never'], opts);
}

/**
 * The open pull request of the checked-out branch, for the auto-detected scope; when there is none, why
 * (gh missing or signed out, no pull request, or one that is not open), never an error.
 */
export async function ghBranchPullRequest(opts: GhOptions): Promise<{ number: number } | { none: string }> {
  // Both questions at once: each can be a round trip to GitHub, and the scope (so the first request) waits on them.
  const view = gh(['pr', 'view', '--json', 'number,state,headRefName'], opts);
  view.catch(() => undefined); // read below, once gh is known to be signed in
  try {
    await gh(['auth', 'status'], opts);
  } catch (err) {
    return { none: err instanceof GhFailed && !err.o.installed ? 'gh is not installed' : 'gh is not signed in' };
  }
  let raw: { number?: unknown; state?: unknown; headRefName?: unknown };
  try {
    raw = JSON.parse(await view) as typeof raw;
  } catch (err) {
    const why = err instanceof GhFailed ? err.o.why : (err as Error).message;
    return {
      none: /no pull requests? found/i.test(why)
        ? 'no pull request for this branch'
        : `gh found no pull request (${why})`,
    };
  }
  if (typeof raw.number !== 'number') return { none: 'gh answered without a pull request number' };
  const state = String(raw.state).toUpperCase();
  if (state !== 'OPEN') return { none: `the branch's pull request #${raw.number} is ${state.toLowerCase()}` };
  return { number: raw.number };
}
