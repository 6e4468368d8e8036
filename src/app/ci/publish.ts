/**
 * Writes a `skeptic ci` run to its pull request: reads what is there (review comments, reviews, issue
 * comments), posts one review with event COMMENT (never an approval or a change request), marks gone
 * findings fixed, and keeps one summary comment up to date. A 403 on a write means the token cannot write
 * (a fork's pull_request run, or read-only permissions): nothing more is written, and the caller shows
 * the findings as annotations instead.
 *
 * Skeptic's own comments are those its token wrote, by identity (the token's login, resolved once):
 * a marker in anyone else's comment, a person's or another bot's, means nothing, and nothing anyone
 * else wrote is edited or deleted.
 */
import { z } from 'zod';
import { GitHub, GitHubError, type Identity } from '../../io/github';
import type { Finding } from '../../model/finding';
import {
  fitBody,
  inlineComment,
  reviewBody,
  summaryMarkdown,
  SUMMARY_MARKER,
  MAX_STEP_SUMMARY,
  type CiOutcome,
  type SummaryParts,
} from '../../report/pullRequest';
import { SetupError } from '../../model/setup';
import type { CiContext } from './environment';
import type { PullRequestCheckout } from './checkout';
import { foldBelow, planFixes, planPosting, postedFingerprints, topPath, type Author } from './postingPlan';
import type { Priority } from '../../model/records';

export { annotation, summaryMarkdown } from '../../report/pullRequest';

const User = z.object({ login: z.string(), type: z.string() }).nullable();
const ReviewComment = z.object({
  id: z.number().int(),
  body: z.string(),
  path: z.string(),
  in_reply_to_id: z.number().int().optional(),
  user: User,
});
const Review = z.object({ id: z.number().int(), body: z.string().nullable(), user: User, state: z.string() });
const IssueComment = z.object({ id: z.number().int(), body: z.string().optional().default(''), user: User });

/** What the run found, before anything is posted. */
export type RunOutcome =
  | { kind: 'reviewed'; result: Extract<CiOutcome, { kind: 'reviewed' }>['result'] }
  | Exclude<CiOutcome, { kind: 'reviewed' }>;

export interface Published {
  posted: 'comments' | 'annotations';
  /** The summary as it stands: the comment's text and the job summary's. */
  summary: string;
  outcome: CiOutcome;
  /** A GitHub error (not a read-only token) that stopped the writing. */
  failure?: string;
}

export async function publish(p: {
  ctx: CiContext;
  checkout: PullRequestCheckout;
  run: RunOutcome;
  /** The lowest priority posted inline (or in the review's body); the rest is folded into the summary. */
  inlineMin: Priority;
  report?: { name: string; markdown: string };
  log: (line: string) => void;
  signal?: AbortSignal;
}): Promise<Published> {
  const { ctx } = p;
  const gh = gitHubFor(ctx, p.log, p.signal);
  const repo = `/repos/${ctx.repository}`;
  const n = ctx.pr.number;
  const thread = await readThread(gh, ctx);
  const summaryComment = thread.issueComments.find((c) => thread.ours(c.user) && c.body.includes(SUMMARY_MARKER));
  const writer = new Writer(p.log);
  const posted =
    p.run.kind === 'reviewed'
      ? await postFindings({ ...p, gh, thread, writer, result: p.run.result })
      : { newFindings: 0, fixed: 0, folded: [] };

  const render = (): SummaryParts => ({
    outcome:
      p.run.kind === 'reviewed'
        ? {
            kind: 'reviewed',
            result: p.run.result,
            posted: writer.writable ? 'comments' : 'annotations',
            newFindings: posted.newFindings,
            fixed: posted.fixed,
          }
        : p.run,
    headSha: ctx.pr.headSha,
    ...(ctx.runUrl ? { runUrl: ctx.runUrl } : {}),
    ...(p.report ? { reportName: p.report.name, reportMarkdown: p.report.markdown } : {}),
    ...(writer.unposted.length ? { unposted: writer.unposted } : {}),
    ...(posted.folded.length ? { folded: { min: p.inlineMin, findings: posted.folded } } : {}),
  });
  const body = summaryMarkdown(render());
  await writer.write(() =>
    summaryComment
      ? gh.call('PATCH', `${repo}/issues/comments/${summaryComment.id}`, null, { body })
      : gh.call('POST', `${repo}/issues/${n}/comments`, null, { body }),
  );
  // A read-only token found out at the summary changes what the summary says.
  const parts = render();
  return {
    posted: writer.writable ? 'comments' : 'annotations',
    summary: summaryMarkdown(parts, MAX_STEP_SUMMARY),
    outcome: parts.outcome,
    ...(writer.failure ? { failure: writer.failure } : {}),
  };
}

/** The GitHub client of the run, saying each wait it makes in the log. */
function gitHubFor(ctx: CiContext, log: (line: string) => void, signal: AbortSignal | undefined): GitHub {
  return new GitHub({
    apiUrl: ctx.apiUrl,
    token: ctx.token,
    onWait: (ms, why, kind) =>
      log(
        kind === 'rate limit'
          ? `GitHub rate limit (${why || 'no reason given'}): waiting ${Math.ceil(ms / 1000)}s as GitHub asks, then retrying`
          : `GitHub failed a read (${why}): trying again in ${Math.ceil(ms / 1000)}s`,
      ),
    ...(signal ? { signal } : {}),
  });
}

/** What the pull request already holds, and which of it this token wrote. */
async function readThread(gh: GitHub, ctx: CiContext) {
  const repo = `/repos/${ctx.repository}`;
  const n = ctx.pr.number;
  const [self, comments, reviews, issueComments] = await readOrExplain(ctx, () =>
    Promise.all([
      gh.identity(),
      gh.list(`${repo}/pulls/${n}/comments`, ReviewComment),
      gh.list(`${repo}/pulls/${n}/reviews`, Review),
      gh.list(`${repo}/issues/${n}/comments`, IssueComment),
    ]),
  );
  return { comments, reviews, issueComments, ours: (u: Author | null) => isSelf(self, u) };
}
type Thread = Awaited<ReturnType<typeof readThread>>;

/**
 * The writes to the pull request. A read-only token turns them all into no-ops (the findings go to
 * annotations); any other GitHub error stops them too, since a write that failed may still have landed.
 */
class Writer {
  writable = true;
  failure: string | undefined;
  /** The findings the review could not carry: the summary comment lists them instead. */
  unposted: Finding[] = [];

  constructor(private readonly log: (line: string) => void) {}

  async write(fn: () => Promise<unknown>): Promise<boolean> {
    if (!this.writable) return false;
    try {
      await fn();
      return true;
    } catch (err) {
      if (!(err instanceof GitHubError)) throw err;
      if (err instanceof ReviewRefused) {
        // The summary can still carry what the review could not: something is always posted.
        this.unposted = err.findings;
        this.log(`${err.message}; the summary comment lists the findings instead`);
        return false;
      }
      this.writable = false;
      if (err.status === 403 && !/rate limit/i.test(err.detail)) {
        this.log(
          `GitHub refused a write (403 ${err.detail}): the token is read-only here (a fork's pull request, or missing pull-requests: write); the findings go to annotations, the job summary and SARIF`,
        );
      } else {
        // Anything else stops the writing too: a write that failed may still have landed, and is never repeated.
        this.failure = err.message;
        this.log(`${err.message}; nothing more is written to the pull request, the findings go to annotations`);
      }
      return false;
    }
  }
}

/** Posts the findings not yet on the pull request, and marks fixed the comments whose findings are gone. */
async function postFindings(p: {
  gh: GitHub;
  ctx: CiContext;
  checkout: PullRequestCheckout;
  result: Extract<RunOutcome, { kind: 'reviewed' }>['result'];
  inlineMin: Priority;
  thread: Thread;
  writer: Writer;
  log: (line: string) => void;
}): Promise<{ newFindings: number; fixed: number; folded: Finding[] }> {
  const { gh, ctx, checkout, result, writer } = p;
  const { comments, reviews, ours } = p.thread;
  const repo = `/repos/${ctx.repository}`;
  const n = ctx.pr.number;
  const known = postedFingerprints(comments, reviews, ours);
  const { folded, review } = foldBelow(result.findings, p.inlineMin);
  const fresh = review.filter((f) => f.fingerprint && !known.has(f.fingerprint));
  if (fresh.length)
    await writer.write(async () => {
      writer.unposted = await postReview({
        gh,
        path: `${repo}/pulls/${n}/reviews`,
        headSha: ctx.pr.headSha,
        fresh,
        checkout,
        log: p.log,
      });
    });
  const reviewed = new Set(
    result.files.filter((f) => f.status === 'reviewed').flatMap((f) => topPath(f.path, checkout.prefix) ?? []),
  );
  const fixes = result.stop
    ? { edit: [], remove: [], reviews: [] }
    : planFixes({
        comments,
        reviews,
        ours,
        // A finding a suppression now hides is not fixed: its comment stays, and the summary says what hid it.
        current: new Set(
          [...result.findings, ...(result.suppressed ?? []).map((s) => s.finding)].flatMap((f) => f.fingerprint ?? []),
        ),
        reviewed,
        prefix: checkout.prefix,
        headSha: ctx.pr.headSha,
      });
  let fixed = 0;
  for (const e of fixes.edit)
    if (await writer.write(() => gh.call('PATCH', `${repo}/pulls/comments/${e.id}`, null, { body: fitBody(e.body) })))
      fixed++;
  for (const id of fixes.remove)
    if (await writer.write(() => gh.call('DELETE', `${repo}/pulls/comments/${id}`, null))) fixed++;
  for (const r of fixes.reviews)
    await writer.write(() => gh.call('PUT', `${repo}/pulls/${n}/reviews/${r.id}`, null, { body: fitBody(r.body) }));
  return { newFindings: fresh.length, fixed, folded };
}

/** GitHub refused the review even with every finding in its body: these findings are not on the pull request. */
class ReviewRefused extends GitHubError {
  constructor(
    cause: GitHubError,
    readonly findings: Finding[],
  ) {
    super(cause.status, `GitHub refused the review (${cause.status} ${cause.detail})`, cause.detail);
  }
}

/**
 * One review, event COMMENT; if GitHub refuses an inline place after all (422), the same with every finding
 * in the body. Returns the findings the body could not hold (GitHub's size limit), for the summary.
 */
async function postReview(p: {
  gh: GitHub;
  path: string;
  headSha: string;
  fresh: Finding[];
  checkout: PullRequestCheckout;
  log: (line: string) => void;
}): Promise<Finding[]> {
  const { gh, path, headSha, fresh, checkout, log } = p;
  const plan = planPosting(fresh, checkout.commentable, checkout.prefix);
  const comments = plan.inline.map((c) => ({
    path: c.path,
    line: c.line,
    side: 'RIGHT',
    body: inlineComment(c.finding),
  }));
  const first = reviewBody({
    headSha,
    inline: comments.length,
    offDiff: plan.offDiff,
    preExisting: plan.preExisting,
    overflow: plan.overflow,
  });
  try {
    await gh.call('POST', path, null, { commit_id: headSha, event: 'COMMENT', body: first.body, comments });
    return first.left;
  } catch (err) {
    if (!(err instanceof GitHubError && err.status === 422)) throw err;
    if (!comments.length) throw new ReviewRefused(err, fresh);
    log(
      `GitHub refused the review's inline comments (422 ${err.detail}); posting every finding in the review's body instead`,
    );
    const all = [...plan.inline.map((c) => c.finding), ...plan.offDiff, ...plan.overflow];
    const second = reviewBody({
      headSha,
      inline: 0,
      offDiff: all,
      preExisting: plan.preExisting,
      overflow: [],
      refusedInline: err.detail,
    });
    try {
      await gh.call('POST', path, null, { commit_id: headSha, event: 'COMMENT', body: second.body, comments: [] });
    } catch (again) {
      if (again instanceof GitHubError && again.status === 422) throw new ReviewRefused(again, fresh);
      throw again;
    }
    return second.left;
  }
}

/** The token's own identity: the same login and kind (a person's token and a bot can share no login). */
function isSelf(self: Identity, user: Author | null): boolean {
  return user !== null && user.login === self.login && user.type === self.type;
}

/** The reads come first: a token that cannot even read the pull request is a setup problem, said plainly. */
async function readOrExplain<T>(ctx: CiContext, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (!(err instanceof GitHubError)) throw err;
    if (err.status === 401)
      throw new SetupError(
        `GitHub refused GITHUB_TOKEN (401 ${err.detail}): pass the job's token (env: GITHUB_TOKEN: \${{ github.token }})`,
      );
    if (err.status === 404 || err.status === 403)
      throw new SetupError(
        `GITHUB_TOKEN cannot read pull request #${ctx.pr.number} of ${ctx.repository} (${err.status} ${err.detail}): give the job permissions: pull-requests: read (write to post)`,
      );
    // GitHub down (5xx after the retries), no answer, or an answer not to follow: said as it is, not as a crash.
    throw new SetupError(err.message);
  }
}
