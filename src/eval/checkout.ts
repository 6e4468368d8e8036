/**
 * A pull request's code on disk: its head checked out (detached) and its base fetched, shallow, deepened
 * only until the two share a merge base. Head and base are the commits the benchmark names when it names
 * them (AACR-Bench); otherwise the head is `pull/N/head` and the base the commit GitHub records the PR was
 * opened against (pullBase.ts); only when that cannot be learned, the repository's default branch, and the
 * outcome says so. A finished checkout is reused without any network access, so a rerun works offline and
 * reviews the same commits.
 */
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { FetchError, git, type GitOptions } from './git';
import { z } from 'zod';
import type { PullRequestRef } from './cases';
import { pullBase } from './pullBase';

/** Where the base came from: the benchmark's data, GitHub's record of the PR, or the merge base with the default branch. */
export type BaseSource = 'benchmark' | 'github' | 'merge-base';

export interface Checkout {
  dir: string;
  /** A ref in the checkout naming the base tip; the branch scope finds the merge base from it. */
  baseRef: string;
  headSha: string;
  base: { source: BaseSource; /** Why the PR's own base was not used (merge-base only). */ why?: string };
}

export interface CheckoutOptions extends Omit<GitOptions, 'cwd'> {
  /** GitHub's REST API (GITHUB_API_URL in Actions); default https://api.github.com. */
  apiUrl?: string;
}

const HEAD_REF = 'refs/skeptic-eval/head';
const BASE_REF = 'refs/skeptic-eval/base';
const FIRST_DEPTH = 50;
const DEEPEN_ROUNDS = 6;

/** `<repository>/pull/<n>` on GitHub or any git URL; other shapes are refused with the reason. */
export function parsePullUrl(url: string): PullRequestRef {
  const m = /^((?:https|file):\/\/.+?)\/pull\/(\d+)\/?$/.exec(url.trim());
  if (!m) throw new FetchError(`not a pull request URL (expected https://github.com/OWNER/REPO/pull/N): ${url}`);
  return { repoUrl: m[1]!.replace(/\.git$/, ''), number: Number(m[2]) };
}

/**
 * Data downloaded from a benchmark names its pull requests on GitHub (both benchmarks document so); any other
 * repository, a `file://` one above all, would have this machine's files reviewed and sent. Only data the user
 * named with --data may point at an offline copy.
 */
export function refuseForeignRepos(cases: readonly { url: string; pull: PullRequestRef }[]): void {
  const foreign = cases.filter((c) => !/^https:\/\/github\.com\/[^/]+\/[^/]+$/.test(c.pull.repoUrl));
  if (foreign.length)
    throw new FetchError(
      `the downloaded benchmark data names ${foreign.length} pull request(s) outside https://github.com (first: ${foreign[0]!.url}); refused, as nothing but the benchmark's GitHub repositories is fetched from downloaded data; to review a local copy, pass your own data with --data DIR`,
    );
}

/** A folder name for the PR: its URL's last two path segments and number, made filesystem-safe. */
export function pullSlug(ref: PullRequestRef): string {
  const tail = ref.repoUrl.split('/').filter(Boolean).slice(-2).join('-');
  return `${tail.replace(/[^A-Za-z0-9._-]+/g, '_')}-${ref.number}`;
}

const BASE_CONFIG = 'skeptic-eval.base';

export async function checkoutPull(ref: PullRequestRef, dir: string, opts: CheckoutOptions): Promise<Checkout> {
  const { apiUrl, ...gitOpts } = opts;
  const existing = await reuse(dir, gitOpts);
  if (existing) return existing;
  const base = await ownBase(ref, opts);
  // A half-made checkout (an interrupted fetch) is started over.
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const at = { ...gitOpts, cwd: dir };
  await git(['init', '-q'], at);
  await git(['remote', 'add', 'origin', ref.repoUrl], at);
  const refspecs = [
    `+${ref.headSha ?? `refs/pull/${ref.number}/head`}:${HEAD_REF}`,
    `+${base.sha ?? 'HEAD'}:${BASE_REF}`,
  ];
  await git(['fetch', '-q', '--no-tags', `--depth=${FIRST_DEPTH}`, 'origin', ...refspecs], at);
  for (let round = 0; !(await mergeBase(at)); round++) {
    if (round === DEEPEN_ROUNDS) {
      await git(['fetch', '-q', '--no-tags', '--unshallow', 'origin', ...refspecs], at);
      if (!(await mergeBase(at)))
        throw new FetchError(`PR #${ref.number} shares no history with its base in ${ref.repoUrl}`);
      break;
    }
    await git(['fetch', '-q', '--no-tags', `--deepen=${FIRST_DEPTH << round}`, 'origin', ...refspecs], at);
  }
  if (base.source === 'merge-base' && (await isAncestor(HEAD_REF, BASE_REF, at)))
    throw new FetchError(
      `PR #${ref.number} is already merged into the default branch and its own base is unknown (${base.why}): a review against the merge base would see no change`,
    );
  await git(['-c', 'advice.detachedHead=false', 'checkout', '-q', '--detach', HEAD_REF], at);
  const recorded: Checkout['base'] = { source: base.source, ...(base.why ? { why: base.why } : {}) };
  await git(['config', BASE_CONFIG, JSON.stringify(recorded)], at);
  return { dir, baseRef: BASE_REF, headSha: (await git(['rev-parse', HEAD_REF], at)).trim(), base: recorded };
}

/** The base to fetch: the benchmark's pinned commit, else GitHub's record of the PR, else none (the default branch). */
async function ownBase(
  ref: PullRequestRef,
  opts: CheckoutOptions,
): Promise<{ sha?: string; source: BaseSource; why?: string }> {
  if (ref.baseSha) return { sha: ref.baseSha, source: 'benchmark' };
  const found = await pullBase(ref, {
    ...(opts.apiUrl ? { apiUrl: opts.apiUrl } : {}),
    ...(opts.token ? { token: opts.token } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  return 'sha' in found ? { sha: found.sha, source: 'github' } : { source: 'merge-base', why: found.error };
}

/** Whether a finished checkout of the PR is already in `dir` (it will be reused without network). */
export async function hasCheckout(dir: string): Promise<boolean> {
  return (await reuse(dir, {})) !== null;
}

async function reuse(dir: string, opts: Omit<GitOptions, 'cwd'>): Promise<Checkout | null> {
  if (!(await stat(join(dir, '.git')).catch(() => null))) return null;
  const at = { ...opts, cwd: dir };
  try {
    const head = (await git(['rev-parse', '--verify', '-q', HEAD_REF], at)).trim();
    const checkedOut = (await git(['rev-parse', 'HEAD'], at)).trim();
    const base = BaseRecord.safeParse(JSON.parse(await git(['config', BASE_CONFIG], at)));
    return head === checkedOut && base.success && (await mergeBase(at))
      ? { dir, baseRef: BASE_REF, headSha: head, base: base.data }
      : null;
  } catch {
    return null;
  }
}

const BaseRecord = z.object({ source: z.enum(['benchmark', 'github', 'merge-base']), why: z.string().optional() });

async function isAncestor(a: string, b: string, opts: GitOptions): Promise<boolean> {
  return git(['merge-base', '--is-ancestor', a, b], opts).then(
    () => true,
    () => false,
  );
}

async function mergeBase(opts: GitOptions): Promise<boolean> {
  return git(['merge-base', BASE_REF, HEAD_REF], opts).then(
    () => true,
    () => false,
  );
}

/**
 * How many files the checked-out change touches (renames as one, as a PR's file list counts them), from the
 * merge base to the head: set beside the count the benchmark recorded, a difference says the head has moved.
 */
export async function changedFiles(checkout: Checkout): Promise<number> {
  const out = await git(['diff', '--name-only', '-M', `${checkout.baseRef}...${checkout.headSha}`], {
    cwd: checkout.dir,
  });
  return out.split('\n').filter(Boolean).length;
}
