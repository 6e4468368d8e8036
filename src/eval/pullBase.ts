/**
 * The commit a pull request was opened against, as GitHub records it (`base.sha` of GET
 * /repos/{owner}/{repo}/pulls/{number}): the base a benchmark's golden comments were written against. The
 * default branch's tip is not it: the branch has moved on since, and once a PR is merged its head is part
 * of that branch, so a merge base with it would be the head itself and the diff empty.
 */
import { z } from 'zod';
import type { PullRequestRef } from './checkout';

const PullRecord = z.looseObject({ base: z.looseObject({ sha: z.string().regex(/^[0-9a-f]{40}$/) }) });
const TIMEOUT_MS = 15_000;

export type PullBase = { sha: string } | { error: string };

/** The API address for the PR's repository, or null when it is not a GitHub repository. */
export function pullApiUrl(ref: PullRequestRef, apiUrl = 'https://api.github.com'): string | null {
  const m = /^https:\/\/github\.com\/([^/]+)\/([^/]+)$/.exec(ref.repoUrl);
  return m ? `${apiUrl.replace(/\/+$/, '')}/repos/${m[1]}/${m[2]}/pulls/${ref.number}` : null;
}

/** GitHub's base commit for the PR, or why it could not be learned (the caller falls back and says so). */
export async function pullBase(
  url: string,
  opts: { token?: string; signal?: AbortSignal; fetch?: typeof fetch } = {},
): Promise<PullBase> {
  const signal = opts.signal
    ? AbortSignal.any([opts.signal, AbortSignal.timeout(TIMEOUT_MS)])
    : AbortSignal.timeout(TIMEOUT_MS);
  let res: Response;
  try {
    res = await (opts.fetch ?? fetch)(url, {
      headers: {
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      },
      signal,
    });
  } catch (err) {
    opts.signal?.throwIfAborted();
    return { error: `GitHub's API did not answer (${(err as Error).message})` };
  }
  if (!res.ok) {
    const limited = (res.status === 403 || res.status === 429) && res.headers.get('x-ratelimit-remaining') === '0';
    return {
      error: limited
        ? `GitHub's API rate limit is spent${opts.token ? '' : ' (set GITHUB_TOKEN for a higher one)'}`
        : `GitHub's API answered ${res.status} for the PR`,
    };
  }
  const parsed = PullRecord.safeParse(await res.json().catch(() => null));
  return parsed.success ? { sha: parsed.data.base.sha } : { error: "GitHub's API answer has no base commit" };
}
