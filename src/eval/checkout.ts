/**
 * A pull request's code on disk: its head checked out (detached) and its base fetched, shallow, deepened
 * only until the two share a merge base. Head and base are the commits the benchmark names when it names
 * them (AACR-Bench); otherwise the head is `pull/N/head` and the base the repository's default branch (for
 * the Martian benchmark's forked PRs, the branch they were opened against). A finished checkout is reused
 * without any network access, so a rerun works offline and reviews the same commits.
 */
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { FetchError, git, type GitOptions } from './git';

export interface PullRequestRef {
  /** Where git fetches the repository from (https://…, or file://… for an offline copy). */
  repoUrl: string;
  number: number;
  /** Commits the benchmark pins, when it does. */
  headSha?: string;
  baseSha?: string;
}

export interface Checkout {
  dir: string;
  /** A ref in the checkout naming the base tip; the branch scope finds the merge base from it. */
  baseRef: string;
  headSha: string;
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

/** A folder name for the PR: its URL's last two path segments and number, made filesystem-safe. */
export function pullSlug(ref: PullRequestRef): string {
  const tail = ref.repoUrl.split('/').filter(Boolean).slice(-2).join('-');
  return `${tail.replace(/[^A-Za-z0-9._-]+/g, '_')}-${ref.number}`;
}

export async function checkoutPull(ref: PullRequestRef, dir: string, opts: Omit<GitOptions, 'cwd'>): Promise<Checkout> {
  const existing = await reuse(dir, opts);
  if (existing) return existing;
  // A half-made checkout (an interrupted fetch) is started over.
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const at = { ...opts, cwd: dir };
  await git(['init', '-q'], at);
  await git(['remote', 'add', 'origin', ref.repoUrl], at);
  const refspecs = [
    `+${ref.headSha ?? `refs/pull/${ref.number}/head`}:${HEAD_REF}`,
    `+${ref.baseSha ?? 'HEAD'}:${BASE_REF}`,
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
  await git(['-c', 'advice.detachedHead=false', 'checkout', '-q', '--detach', HEAD_REF], at);
  return { dir, baseRef: BASE_REF, headSha: (await git(['rev-parse', HEAD_REF], at)).trim() };
}

async function reuse(dir: string, opts: Omit<GitOptions, 'cwd'>): Promise<Checkout | null> {
  if (!(await stat(join(dir, '.git')).catch(() => null))) return null;
  const at = { ...opts, cwd: dir };
  try {
    const head = (await git(['rev-parse', '--verify', '-q', HEAD_REF], at)).trim();
    const checkedOut = (await git(['rev-parse', 'HEAD'], at)).trim();
    return head === checkedOut && (await mergeBase(at)) ? { dir, baseRef: BASE_REF, headSha: head } : null;
  } catch {
    return null;
  }
}

async function mergeBase(opts: GitOptions): Promise<boolean> {
  return git(['merge-base', BASE_REF, HEAD_REF], opts).then(
    () => true,
    () => false,
  );
}
