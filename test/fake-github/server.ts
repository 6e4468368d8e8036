/**
 * A fake GitHub REST API on 127.0.0.1, built from GitHub's REST documentation for the endpoints a pull
 * request review uses: pull request reviews (list, create, update), review comments (list, reply, edit,
 * delete) and issue comments (list, create, edit, delete). It keeps GitHub's rules that matter here:
 * - a review comment must sit on a line of one of the diff's hunks, on the side it names, else the whole
 *   review is refused with 422 "Unprocessable Entity" and nothing of it is created;
 * - a COMMENT or REQUEST_CHANGES review needs a body; bodies over 65,536 characters are refused (422);
 * - a token without write access gets 403 "Resource not accessible by integration" on every write;
 * - an unknown token gets 401 "Bad credentials";
 * - lists page by `per_page` (default 30, at most 100) and `page`, with a `Link` header;
 * - every answer carries the x-ratelimit-* headers; a rate-limit fault answers 403 (primary:
 *   x-ratelimit-remaining 0 until x-ratelimit-reset) or 429 with retry-after (secondary);
 * - `GET /user` answers a person's token with its account; an installation token (GITHUB_TOKEN, a bot)
 *   gets 403 "Resource not accessible by integration", as GitHub answers it;
 * - any user with a token may comment and review, so a pull request carries people's and other bots'
 *   comments beside Skeptic's, and each is listed with its own author;
 * - a server fault answers 502 or 503 with GitHub's JSON error for the next requests.
 * It logs every request so tests can assert what was sent.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeUser {
  login: string;
  type: 'User' | 'Bot';
  /** A read-only token (a fork's pull_request run) may read but not write. */
  write: boolean;
}

export interface FakePull {
  number: number;
  headSha: string;
  /** The commit the PR was opened against (`base.sha` of GET /pulls/{n}). */
  baseSha?: string;
  /** `closed` and `merged` once merged. */
  merged?: boolean;
  /** The pull request's unified diff (as `git diff` or GitHub's .diff gives it): which lines take comments. */
  diff: string;
}

export interface LoggedGitHubRequest {
  method: string;
  path: string;
  token: string | null;
  body: unknown;
  status: number;
}

interface Comment {
  id: number;
  body: string;
  user: { login: string; type: string };
  created_at: string;
  updated_at: string;
}
interface ReviewComment extends Comment {
  pull_request_review_id: number | null;
  path: string;
  line: number;
  side: 'LEFT' | 'RIGHT';
  commit_id: string;
  in_reply_to_id?: number;
}
interface Review {
  id: number;
  body: string;
  state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'PENDING';
  commit_id: string;
  user: { login: string; type: string };
}

export type RateLimitFault =
  { kind: 'primary'; resetInSeconds: number } | { kind: 'secondary'; retryAfterSeconds: number };

export interface FakeGitHub {
  readonly url: string;
  readonly requests: LoggedGitHubRequest[];
  readonly reviews: Review[];
  readonly reviewComments: ReviewComment[];
  readonly issueComments: Comment[];
  /** owner/name → pull number → the pull request. */
  setPull(repository: string, pull: FakePull): void;
  /** The next request answers this rate limit (then the limit is lifted). */
  rateLimitNext(fault: RateLimitFault): void;
  /** The next `count` requests answer this server error (502 Bad Gateway, 503 …). */
  serverErrorNext(count: number, status?: number): void;
  /** The next list answer's `Link: rel="next"` points at this URL (a hostile or misconfigured proxy). */
  linkNextTo(url: string): void;
  /** As a person would: a reply in a review comment's thread. */
  reply(repository: string, number: number, to: number, body: string, user: string): void;
  close(): Promise<void>;
}

const LIMIT = 1000; // GITHUB_TOKEN's hourly limit in Actions
const MAX_BODY = 65_536;
const DOCS = 'https://docs.github.com/rest';

export async function startFakeGitHub(users: Record<string, FakeUser>): Promise<FakeGitHub> {
  const pulls = new Map<string, FakePull>();
  const requests: LoggedGitHubRequest[] = [];
  const reviews: Array<Review & { key: string }> = [];
  const reviewComments: Array<ReviewComment & { key: string }> = [];
  const issueComments: Array<Comment & { key: string }> = [];
  let nextId = 1000;
  let used = 0;
  let fault: RateLimitFault | null = null;
  let serverErrors = { count: 0, status: 502 };
  let foreignLink: string | null = null;
  const now = () => new Date().toISOString();

  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
      const token = /^(?:Bearer|token) (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? null;
      let body: unknown = null;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        body = raw;
      }
      const entry: LoggedGitHubRequest = { method: req.method ?? 'GET', path: url.pathname, token, body, status: 0 };
      requests.push(entry);
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        entry.status = status;
        used++;
        res.writeHead(status, {
          'content-type': 'application/json; charset=utf-8',
          'x-ratelimit-limit': String(LIMIT),
          'x-ratelimit-remaining': String(Math.max(0, LIMIT - used)),
          'x-ratelimit-used': String(used),
          'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
          'x-ratelimit-resource': 'core',
          ...headers,
        });
        res.end(payload === undefined ? '' : JSON.stringify(payload));
      };
      const error = (status: number, message: string, anchor: string, errors?: unknown[]) =>
        send(status, {
          message,
          ...(errors ? { errors } : {}),
          documentation_url: `${DOCS}/${anchor}`,
          status: String(status),
        });

      if (serverErrors.count > 0) {
        serverErrors.count--;
        return error(serverErrors.status, serverErrors.status === 503 ? 'Service Unavailable' : 'Server Error', '');
      }
      if (fault) {
        const f = fault;
        fault = null;
        if (f.kind === 'primary') {
          const reset = String(Math.floor(Date.now() / 1000) + f.resetInSeconds);
          return send(
            403,
            {
              message: 'API rate limit exceeded for installation ID 1.',
              documentation_url: `${DOCS}/overview/rate-limits-for-the-rest-api`,
              status: '403',
            },
            { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
          );
        }
        return send(
          429,
          {
            message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
            documentation_url: `${DOCS}/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits`,
            status: '429',
          },
          { 'retry-after': String(f.retryAfterSeconds) },
        );
      }
      const user = token ? users[token] : undefined;
      // GET /repos/{owner}/{repo}/pulls/{n}: public data, served without a token too (GitHub's unauthenticated limit aside).
      const got = /^\/repos\/([^/]+\/[^/]+)\/pulls\/(\d+)$/.exec(url.pathname);
      if (got && entry.method === 'GET' && (!token || user)) {
        const pull = pulls.get(`${got[1]}#${got[2]}`);
        if (!pull) return error(404, 'Not Found', 'pulls/pulls#get-a-pull-request');
        return send(200, {
          number: pull.number,
          state: pull.merged ? 'closed' : 'open',
          merged: pull.merged ?? false,
          head: { sha: pull.headSha, ref: `pr-${pull.number}` },
          base: { sha: pull.baseSha ?? '0'.repeat(40), ref: 'main' },
        });
      }
      if (!user) return error(401, 'Bad credentials', '');
      const author = { login: user.login, type: user.type };
      const method = entry.method;
      if (url.pathname === '/user' && method === 'GET') {
        if (user.type === 'Bot')
          return error(403, 'Resource not accessible by integration', 'users/users#get-the-authenticated-user');
        return send(200, { login: user.login, id: 1, node_id: 'U_1', type: 'User', site_admin: false });
      }
      const isWrite = method !== 'GET';

      const m =
        /^\/repos\/([^/]+\/[^/]+)\/(pulls|issues)\/(?:(\d+)\/)?(reviews|comments)(?:\/(\d+))?(\/replies)?$/.exec(
          url.pathname,
        );
      if (!m) return error(404, 'Not Found', '');
      const [, repo, kind, num, what, id, replies] = m;
      const key = `${repo}#${num ?? ''}`;
      const pull = num ? pulls.get(`${repo}#${num}`) : undefined;
      if (num && !pull) return error(404, 'Not Found', '');
      if (isWrite && !user.write)
        return error(
          403,
          'Resource not accessible by integration',
          kind === 'issues' ? 'issues/comments' : 'pulls/reviews',
        );

      const list = <T extends { key: string }>(items: T[]) => {
        const link = foreignLink;
        foreignLink = null;
        if (link === null) return page(url, items.filter((i) => i.key === key).map(strip), send);
        return send(
          200,
          items
            .filter((i) => i.key === key)
            .slice(0, 1)
            .map(strip),
          { link: `<${link}>; rel="next"` },
        );
      };
      const tooLong = (text: unknown) => typeof text === 'string' && text.length > MAX_BODY;

      // Pull request reviews: GET/POST /pulls/{n}/reviews, PUT /pulls/{n}/reviews/{id}
      if (kind === 'pulls' && what === 'reviews' && num) {
        if (method === 'GET' && !id) return list(reviews);
        if (method === 'PUT' && id) {
          const r = reviews.find((x) => x.id === Number(id) && x.key === key);
          const text = (body as { body?: unknown } | null)?.body;
          if (!r) return error(404, 'Not Found', 'pulls/reviews#update-a-review-for-a-pull-request');
          if (typeof text !== 'string')
            return error(
              422,
              'Invalid request.\n\n"body" wasn\'t supplied.',
              'pulls/reviews#update-a-review-for-a-pull-request',
            );
          r.body = text;
          return send(200, strip(r));
        }
        if (method === 'POST' && !id) return createReview(pull!, key, body, author);
      }
      // Review comments: GET /pulls/{n}/comments, POST /pulls/{n}/comments/{id}/replies, PATCH/DELETE /pulls/comments/{id}
      if (kind === 'pulls' && what === 'comments') {
        if (num && method === 'GET' && !id) return list(reviewComments);
        if (num && method === 'POST' && id && replies) {
          const parent = reviewComments.find((c) => c.id === Number(id) && c.key === key);
          if (!parent) return error(404, 'Not Found', 'pulls/comments#create-a-reply-for-a-review-comment');
          const reply = {
            ...parent,
            id: nextId++,
            body: String((body as { body?: unknown })?.body ?? ''),
            user: author,
            in_reply_to_id: parent.id,
            created_at: now(),
            updated_at: now(),
          };
          reviewComments.push(reply);
          return send(201, strip(reply));
        }
        if (!num && id) {
          const at = reviewComments.findIndex((c) => c.id === Number(id) && c.key.startsWith(`${repo}#`));
          if (at < 0) return error(404, 'Not Found', 'pulls/comments');
          if (method === 'DELETE') {
            reviewComments.splice(at, 1);
            return send(204, undefined);
          }
          if (method === 'PATCH') {
            const text = (body as { body?: unknown } | null)?.body;
            if (typeof text !== 'string')
              return error(422, 'Validation Failed', 'pulls/comments#update-a-review-comment-for-a-pull-request', [
                { resource: 'PullRequestReviewComment', code: 'missing_field', field: 'body' },
              ]);
            if (tooLong(text))
              return error(422, 'Validation Failed', 'pulls/comments#update-a-review-comment-for-a-pull-request', [
                {
                  resource: 'PullRequestReviewComment',
                  code: 'custom',
                  field: 'body',
                  message: 'body is too long (maximum is 65536 characters)',
                },
              ]);
            reviewComments[at]!.body = text;
            reviewComments[at]!.updated_at = now();
            return send(200, strip(reviewComments[at]!));
          }
        }
      }
      // Issue comments: GET/POST /issues/{n}/comments, PATCH/DELETE /issues/comments/{id}
      if (kind === 'issues' && what === 'comments') {
        if (num && method === 'GET' && !id) return list(issueComments);
        const text = (body as { body?: unknown } | null)?.body;
        const invalid = () =>
          typeof text !== 'string' || text === ''
            ? error(422, 'Validation Failed', 'issues/comments', [
                { resource: 'IssueComment', code: 'missing_field', field: 'body' },
              ])
            : tooLong(text)
              ? error(422, 'Validation Failed', 'issues/comments', [
                  {
                    resource: 'IssueComment',
                    code: 'custom',
                    field: 'body',
                    message: 'body is too long (maximum is 65536 characters)',
                  },
                ])
              : null;
        if (num && method === 'POST' && !id) {
          if (invalid()) return;
          const c = { key, id: nextId++, body: text as string, user: author, created_at: now(), updated_at: now() };
          issueComments.push(c);
          return send(201, strip(c));
        }
        if (!num && id) {
          const at = issueComments.findIndex((c) => c.id === Number(id) && c.key.startsWith(`${repo}#`));
          if (at < 0) return error(404, 'Not Found', 'issues/comments');
          if (method === 'DELETE') {
            issueComments.splice(at, 1);
            return send(204, undefined);
          }
          if (method === 'PATCH') {
            if (invalid()) return;
            issueComments[at]!.body = text as string;
            issueComments[at]!.updated_at = now();
            return send(200, strip(issueComments[at]!));
          }
        }
      }
      return error(404, 'Not Found', '');

      function createReview(pr: FakePull, k: string, input: unknown, who: { login: string; type: string }) {
        const b = (input ?? {}) as { body?: unknown; event?: unknown; commit_id?: unknown; comments?: unknown };
        const anchor = 'pulls/reviews#create-a-review-for-a-pull-request';
        const event = b.event === undefined ? 'PENDING' : b.event;
        if (!['APPROVE', 'REQUEST_CHANGES', 'COMMENT', 'PENDING'].includes(String(event)))
          return error(422, 'Unprocessable Entity', anchor, ['Event is invalid']);
        if (
          (event === 'COMMENT' || event === 'REQUEST_CHANGES') &&
          (typeof b.body !== 'string' || b.body === '') &&
          !(Array.isArray(b.comments) && b.comments.length)
        ) {
          return error(422, 'Unprocessable Entity', anchor, ['Body is required for this event']);
        }
        if (tooLong(b.body))
          return error(422, 'Unprocessable Entity', anchor, ['Body is too long (maximum is 65536 characters)']);
        const lines = rightAndLeftLines(pr.diff);
        const comments = Array.isArray(b.comments) ? (b.comments as Array<Record<string, unknown>>) : [];
        for (const c of comments) {
          const side = c.side === 'LEFT' ? 'LEFT' : 'RIGHT';
          const onDiff =
            typeof c.path === 'string' &&
            typeof c.line === 'number' &&
            (lines.get(`${side} ${c.path}`)?.has(c.line) ?? false);
          if (typeof c.body !== 'string' || !onDiff) {
            // All or nothing: GitHub creates no part of a review it refuses.
            return error(422, 'Unprocessable Entity', anchor, [
              "Pull request review thread line must be part of the diff and Pull request review thread diff hunk can't be blank",
            ]);
          }
        }
        const commit = typeof b.commit_id === 'string' ? b.commit_id : pr.headSha;
        const state =
          event === 'APPROVE'
            ? 'APPROVED'
            : event === 'REQUEST_CHANGES'
              ? 'CHANGES_REQUESTED'
              : event === 'COMMENT'
                ? 'COMMENTED'
                : 'PENDING';
        const review = {
          key: k,
          id: nextId++,
          body: typeof b.body === 'string' ? b.body : '',
          state,
          commit_id: commit,
          user: who,
        } as Review & { key: string };
        reviews.push(review);
        for (const c of comments) {
          reviewComments.push({
            key: k,
            id: nextId++,
            pull_request_review_id: review.id,
            path: c.path as string,
            line: c.line as number,
            side: c.side === 'LEFT' ? 'LEFT' : 'RIGHT',
            body: c.body as string,
            commit_id: commit,
            user: who,
            created_at: now(),
            updated_at: now(),
          });
        }
        return send(200, strip(review));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reviews,
    reviewComments,
    issueComments,
    setPull: (repository, pull) => void pulls.set(`${repository}#${pull.number}`, pull),
    rateLimitNext: (f) => void (fault = f),
    serverErrorNext: (count, status = 502) => void (serverErrors = { count, status }),
    linkNextTo: (link) => void (foreignLink = link),
    reply: (repository, number, to, body, login) => {
      const parent = reviewComments.find((c) => c.id === to);
      if (!parent) throw new Error(`no review comment ${to}`);
      reviewComments.push({
        ...parent,
        key: `${repository}#${number}`,
        id: nextId++,
        body,
        user: { login, type: 'User' },
        in_reply_to_id: to,
        created_at: now(),
        updated_at: now(),
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function strip<T extends { key: string }>(item: T): Omit<T, 'key'> {
  const { key: _key, ...rest } = item;
  return rest;
}

/** GitHub's pagination: per_page (default 30, at most 100), page (from 1), and a Link header to the next page. */
function page(
  url: URL,
  items: unknown[],
  send: (status: number, body: unknown, headers?: Record<string, string>) => void,
): void {
  const perPage = Math.min(100, Math.max(1, Number(url.searchParams.get('per_page') ?? 30) || 30));
  const p = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
  const slice = items.slice((p - 1) * perPage, p * perPage);
  const headers: Record<string, string> = {};
  if (p * perPage < items.length) {
    const next = new URL(url.toString());
    next.searchParams.set('page', String(p + 1));
    next.searchParams.set('per_page', String(perPage));
    headers.link = `<${next.toString()}>; rel="next"`;
  }
  send(200, slice, headers);
}

/** From a unified diff, the lines each hunk shows: "RIGHT path" → new-side numbers, "LEFT path" → old-side. */
function rightAndLeftLines(diff: string): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  let path = '';
  let oldPath = '';
  let left = 0;
  let right = 0;
  const add = (side: string, p: string, n: number) => {
    const k = `${side} ${p}`;
    if (!out.has(k)) out.set(k, new Set());
    out.get(k)!.add(n);
  };
  for (const line of diff.split('\n')) {
    if (line.startsWith('diff --git ')) continue;
    if (line.startsWith('--- ')) oldPath = line.slice(4).replace(/^a\//, '');
    else if (line.startsWith('+++ ')) path = line.slice(4).replace(/^b\//, '');
    else if (line.startsWith('@@')) {
      const h = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
      left = Number(h?.[1] ?? 0);
      right = Number(h?.[2] ?? 0);
    } else if (line.startsWith('+')) add('RIGHT', path, right++);
    else if (line.startsWith('-')) add('LEFT', oldPath, left++);
    else if (line.startsWith(' ')) {
      add('RIGHT', path, right++);
      add('LEFT', oldPath, left++);
    }
  }
  return out;
}
