/**
 * The commit a pull request was opened against, as GitHub records it (`base.sha` of GET
 * /repos/{owner}/{repo}/pulls/{number}): the base a benchmark's golden comments were written against. The
 * default branch's tip is not it: the branch has moved on since, and once a PR is merged its head is part
 * of that branch, so a merge base with it would be the head itself and the diff empty.
 */
import { z } from 'zod';
import { GitHub, GitHubError } from '../io/github';
import type { PullRequestRef } from './cases';

const PullRecord = z.looseObject({ base: z.looseObject({ sha: z.string().regex(/^[0-9a-f]{40}$/) }) });
const TIMEOUT_MS = 30_000;
/** A benchmark run should not sit out an hour-long rate limit for one lookup: it falls back instead. */
const MAX_RATE_WAIT_MS = 60_000;

export type PullBase = { sha: string } | { error: string };

/** GitHub's base commit for the PR, or why it could not be learned (the caller falls back and says so). */
export async function pullBase(
  ref: PullRequestRef,
  opts: { apiUrl?: string; token?: string; signal?: AbortSignal } = {},
): Promise<PullBase> {
  const repo = /^https:\/\/github\.com\/([^/]+\/[^/]+)$/.exec(ref.repoUrl)?.[1];
  if (!repo) return { error: 'not a GitHub repository' };
  const timeout = AbortSignal.timeout(TIMEOUT_MS);
  const github = new GitHub({
    apiUrl: opts.apiUrl ?? 'https://api.github.com',
    ...(opts.token ? { token: opts.token } : {}),
    maxWaitMs: MAX_RATE_WAIT_MS,
    signal: opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout,
  });
  try {
    return { sha: (await github.call('GET', `/repos/${repo}/pulls/${ref.number}`, PullRecord)).base.sha };
  } catch (err) {
    opts.signal?.throwIfAborted();
    const why = err instanceof GitHubError ? err.message : `no answer: ${(err as Error).message}`;
    return { error: `GitHub's API: ${why}${opts.token ? '' : ' (no GITHUB_TOKEN)'}` };
  }
}
