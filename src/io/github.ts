/**
 * GitHub's REST API over Node's fetch: the token, JSON both ways, `Link` pagination, and waits on rate
 * limits the way GitHub documents them (403 or 429 with `retry-after` seconds, or with
 * `x-ratelimit-remaining: 0` until the epoch second in `x-ratelimit-reset`; a secondary limit without
 * either header waits a minute, then longer). A read that meets a server error (5xx) or a dropped
 * connection is tried again; a write is not: it may have landed, and posting it again would post it twice.
 * The token goes only to the configured API host: a `Link` to anywhere else is refused.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { githubFetch } from './boundedFetch';

export class GitHubError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** GitHub's own words: the `message` and `errors` of its error body. */
    readonly detail: string,
  ) {
    super(message);
  }
}

export interface GitHubOptions {
  /** GITHUB_API_URL, e.g. https://api.github.com */
  apiUrl: string;
  /** Absent: unauthenticated (public data only, at GitHub's lower rate limit). */
  token?: string;
  /** Told before each wait (on a rate limit, or before a read is tried again), with what GitHub said. */
  onWait?: (ms: number, why: string, kind: 'rate limit' | 'server error') => void;
  /** Longest single wait on a rate limit; a later reset fails the request with the time it resets. */
  maxWaitMs?: number;
  signal?: AbortSignal;
}

const ATTEMPTS = 5;
/** A read after a server error is tried this many times in all (waits of 1 s, then 2 s). */
const SERVER_ERROR_ATTEMPTS = 3;
const SERVER_ERROR_FIRST_WAIT_MS = 1000;
const SECONDARY_FIRST_WAIT_MS = 60_000;
const DEFAULT_MAX_WAIT_MS = 15 * 60_000;
/** GitHub's largest page. */
const PER_PAGE = 100;

/** Who wrote a comment, as GitHub lists it. */
export interface Identity {
  login: string;
  type: string;
}

/**
 * The author of everything a workflow's GITHUB_TOKEN writes. That token is an app installation's, and
 * GitHub answers its `GET /user` with 403 "Resource not accessible by integration".
 */
export const ACTIONS_BOT: Identity = { login: 'github-actions[bot]', type: 'Bot' };

const AuthenticatedUser = z.object({ login: z.string().min(1), type: z.string() });

export class GitHub {
  private readonly origin: string;
  constructor(private readonly opts: GitHubOptions) {
    this.origin = new URL(opts.apiUrl).origin;
  }

  /** Whose token this is: `GET /user` for a person's token, the Actions bot for an installation token. */
  async identity(): Promise<Identity> {
    try {
      return await this.call('GET', '/user', AuthenticatedUser);
    } catch (err) {
      if (err instanceof GitHubError && err.status === 403 && /not accessible by integration/i.test(err.detail))
        return ACTIONS_BOT;
      throw err;
    }
  }

  /** One call; `schema` checks the answer (an empty answer, as DELETE's 204, is not parsed). */
  async call<T>(method: string, path: string, schema: z.ZodType<T> | null, body?: unknown): Promise<T> {
    const res = await this.send(method, this.url(path), body);
    if (!schema) return undefined as T;
    return parse(schema, await res.json(), `${method} ${path}`);
  }

  /** Every page of a list, following `Link: rel="next"`. */
  async list<T>(path: string, item: z.ZodType<T>): Promise<T[]> {
    const out: T[] = [];
    let next: string | null = this.url(`${path}${path.includes('?') ? '&' : '?'}per_page=${PER_PAGE}`);
    while (next) {
      const res = await this.send('GET', next);
      const page: unknown = await res.json();
      if (!Array.isArray(page))
        throw new GitHubError(res.status, `GET ${path}: GitHub answered with something that is not a list`, '');
      for (const entry of page) out.push(parse(item, entry, `GET ${path}`));
      next = nextLink(res.headers.get('link'));
      if (next !== null && new URL(next, this.origin).origin !== this.origin)
        throw new GitHubError(
          res.status,
          `GET ${path}: GitHub's next page is on another host (${new URL(next, this.origin).host}); the token is not sent there`,
          '',
        );
    }
    return out;
  }

  private url(path: string): string {
    return `${this.opts.apiUrl.replace(/\/+$/, '')}${path}`;
  }

  private async send(method: string, url: string, body?: unknown): Promise<Response> {
    let secondaryWait = SECONDARY_FIRST_WAIT_MS;
    const read = method === 'GET';
    for (let attempt = 1; ; attempt++) {
      const serverWait = SERVER_ERROR_FIRST_WAIT_MS * 2 ** (attempt - 1);
      const res = await githubFetch(url, {
        method,
        headers: {
          accept: 'application/vnd.github+json',
          ...(this.opts.token ? { authorization: `Bearer ${this.opts.token}` } : {}),
          'x-github-api-version': '2022-11-28',
          'user-agent': 'skeptic-ci',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        ...(this.opts.signal ? { signal: this.opts.signal } : {}),
      }).catch((err: unknown) => {
        if (!read || attempt >= SERVER_ERROR_ATTEMPTS || this.opts.signal?.aborted)
          throw connectionError(method, url, err);
        return null;
      });
      if (res === null) {
        await this.pause(serverWait, 'no answer', 'server error');
        continue;
      }
      if (res.ok) return res;
      const detail = await errorDetail(res);
      const serverError = read && res.status >= 500;
      const wait = rateLimitWait(res, detail, secondaryWait) ?? (serverError ? serverWait : null);
      if (wait === null || attempt >= (serverError ? SERVER_ERROR_ATTEMPTS : ATTEMPTS)) {
        const what = `${method} ${new URL(url).pathname}`;
        throw new GitHubError(res.status, `${what} failed: ${res.status} ${detail}`.trim(), detail);
      }
      const maxWait = this.opts.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
      if (wait > maxWait) {
        const at = new Date(Date.now() + wait).toISOString().slice(11, 19);
        throw new GitHubError(
          res.status,
          `GitHub's rate limit resets at ${at} UTC, later than skeptic waits; run again then`,
          detail,
        );
      }
      if (detail.includes('secondary')) secondaryWait *= 2;
      if (res.status >= 500) await this.pause(wait, `${res.status} ${detail}`.trim(), 'server error');
      else await this.pause(wait, detail, 'rate limit');
    }
  }

  private async pause(ms: number, why: string, kind: 'rate limit' | 'server error'): Promise<void> {
    this.opts.onWait?.(ms, why, kind);
    await sleep(ms, undefined, this.opts.signal ? { signal: this.opts.signal } : {});
  }
}

/** A call that never got an answer: said as GitHub's failure (status 0), never as an internal error. */
function connectionError(method: string, url: string, err: unknown): GitHubError {
  const cause = err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
  return new GitHubError(0, `${method} ${new URL(url).pathname} failed: no answer from GitHub (${cause})`, cause);
}

/** How long GitHub asks to wait before retrying, or null when the failure is not a rate limit. */
export function rateLimitWait(res: Response, detail: string, secondaryWait: number, now = Date.now()): number | null {
  if (res.status !== 403 && res.status !== 429) return null;
  const retryAfter = Number(res.headers.get('retry-after'));
  if (res.headers.has('retry-after') && Number.isFinite(retryAfter)) return Math.max(0, retryAfter) * 1000;
  const reset = Number(res.headers.get('x-ratelimit-reset'));
  if (res.headers.get('x-ratelimit-remaining') === '0' && Number.isFinite(reset))
    return Math.max(0, reset * 1000 - now) + 1000;
  // A 403 without these is a permission problem, unless GitHub's message says it is a (secondary) limit.
  return /rate limit/i.test(detail) ? secondaryWait : null;
}

async function errorDetail(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { message?: unknown; errors?: unknown };
    const errors = Array.isArray(body.errors)
      ? body.errors.map((e) => (typeof e === 'string' ? e : JSON.stringify(e)))
      : [];
    return [typeof body.message === 'string' ? body.message : '', ...errors].filter(Boolean).join('; ');
  } catch {
    return text.slice(0, 200);
  }
}

function nextLink(link: string | null): string | null {
  if (!link) return null;
  for (const part of link.split(',')) {
    const m = /<([^>]+)>\s*;\s*rel="next"/.exec(part);
    if (m) return m[1]!;
  }
  return null;
}

function parse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new GitHubError(
      200,
      `${what}: GitHub's answer does not have the expected shape (${parsed.error.issues[0]?.message ?? 'invalid'})`,
      '',
    );
  return parsed.data;
}
