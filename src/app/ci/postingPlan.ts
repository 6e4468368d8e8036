/**
 * What one `skeptic ci` run writes, decided before anything is written (pure, so the rules are tested
 * without a server): which new findings go inline (on a right-side line of the diff, at most 30, the
 * most urgent first), which go in the review's body, and which earlier comments are marked fixed.
 * Everything is keyed by fingerprint: a fingerprint seen on the pull request before is never posted again.
 */
import type { Finding } from '../../model/finding';
import { meetsPriority, sortFindings } from '../../model/order';
import type { Priority } from '../../model/records';
import { fixedComment, fixedItem, isMarkedFixed, markedFingerprints } from '../../report/pullRequest';

/** What goes inline unless --min-priority says otherwise: must-fix and should-fix; nice-to-haves are folded. */
export const DEFAULT_INLINE_MIN: Priority = 'should_fix';

/**
 * The findings that may be posted in the review (at `min` or above, and every pre-existing one, which the
 * review's body lists apart) and those folded into the summary comment instead: listed there on every run,
 * never as a comment of their own.
 */
export function foldBelow(findings: Finding[], min: Priority): { review: Finding[]; folded: Finding[] } {
  const review = findings.filter((f) => f.pre_existing || meetsPriority(f.priority, min));
  return { review, folded: sortFindings(findings.filter((f) => !review.includes(f))) };
}

/** GitHub shows a long review poorly and each comment notifies: the rest goes in the body. */
export const MAX_INLINE = 30;

export interface Author {
  login: string;
  type: string;
}

/** A review comment as listed by GitHub (a reply has `in_reply_to_id`). */
export interface PostedComment {
  id: number;
  body: string;
  path: string;
  in_reply_to_id?: number | undefined;
  user: Author | null;
}

export interface PostedReview {
  id: number;
  body: string | null;
  user: Author | null;
}

export interface InlineComment {
  finding: Finding;
  path: string;
  line: number;
}

export interface PostingPlan {
  inline: InlineComment[];
  offDiff: Finding[];
  overflow: Finding[];
  preExisting: Finding[];
}

/** `prefix`: cwd inside the repository ('' or 'dir/'); `commentable`: right-side hunk lines by top-relative path. */
export function planPosting(
  findings: Finding[],
  commentable: Map<string, Array<[number, number]>>,
  prefix: string,
): PostingPlan {
  const plan: PostingPlan = { inline: [], offDiff: [], overflow: [], preExisting: [] };
  for (const f of sortFindings(findings)) {
    // Lines the change did not touch are not the change's to answer for: never a comment on the diff.
    if (f.pre_existing) {
      plan.preExisting.push(f);
      continue;
    }
    const path = topPath(f.file, prefix);
    const line = path === null ? null : commentableLine(commentable.get(path) ?? [], f.line, f.end_line ?? f.line);
    if (path === null || line === null) plan.offDiff.push(f);
    else if (plan.inline.length >= MAX_INLINE) plan.overflow.push(f);
    else plan.inline.push({ finding: f, path, line });
  }
  return plan;
}

/** A cwd-relative path as GitHub names it (from the repository's top), or null outside the repository. */
export function topPath(file: string, prefix: string): string | null {
  const parts: string[] = prefix.split('/').filter(Boolean);
  for (const part of file.split('/')) {
    if (part === '..') {
      if (!parts.pop()) return null;
    } else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}

/** The finding's first line inside a hunk, or null when none of its lines is in one. */
function commentableLine(hunks: Array<[number, number]>, from: number, to: number): number | null {
  for (const [start, end] of hunks) {
    const line = Math.max(start, from);
    if (line <= Math.min(end, to)) return line;
  }
  return null;
}

export interface Fixes {
  /** Comments someone replied to: edited to say fixed, the thread kept. */
  edit: Array<{ id: number; body: string }>;
  /** Comments nobody replied to: deleted. */
  remove: number[];
  /** Review bodies with a listed finding that is gone. */
  reviews: Array<{ id: number; body: string }>;
}

/**
 * Earlier findings of ours that this run no longer finds, among the files it reviewed whole (a file left
 * out, or whose review failed, says nothing about its findings).
 */
export function planFixes(input: {
  comments: PostedComment[];
  reviews: PostedReview[];
  ours: (user: Author | null) => boolean;
  current: Set<string>;
  /** Top-relative paths reviewed completely by this run. */
  reviewed: Set<string>;
  prefix: string;
  headSha: string;
}): Fixes {
  const gone = (body: string) => {
    const fps = markedFingerprints(body);
    return fps.length > 0 && !isMarkedFixed(body) && fps.every((fp) => !input.current.has(fp));
  };
  const replied = new Set(input.comments.flatMap((c) => (c.in_reply_to_id === undefined ? [] : [c.in_reply_to_id])));
  const fixes: Fixes = { edit: [], remove: [], reviews: [] };
  for (const c of input.comments) {
    if (c.in_reply_to_id !== undefined || !input.ours(c.user) || !input.reviewed.has(c.path) || !gone(c.body)) continue;
    if (replied.has(c.id)) fixes.edit.push({ id: c.id, body: fixedComment(c.body, input.headSha) });
    else fixes.remove.push(c.id);
  }
  for (const r of input.reviews) {
    if (!r.body || !input.ours(r.user)) continue;
    let changed = false;
    const body = r.body
      .split('\n')
      .map((line) => {
        const file = /^- \S+ `([^`]+?):\d+(?:-\d+)?`/.exec(line)?.[1];
        const path = file === undefined ? null : topPath(file, input.prefix);
        if (path === null || !input.reviewed.has(path) || !gone(line)) return line;
        changed = true;
        return fixedItem(line, input.headSha);
      })
      .join('\n');
    if (changed) fixes.reviews.push({ id: r.id, body });
  }
  return fixes;
}

/** Every fingerprint already on the pull request in something of ours: never posted again. */
export function postedFingerprints(
  comments: PostedComment[],
  reviews: PostedReview[],
  ours: (user: Author | null) => boolean,
): Set<string> {
  const bodies = [
    ...comments.filter((c) => ours(c.user)).map((c) => c.body),
    ...reviews.filter((r) => ours(r.user)).map((r) => r.body ?? ''),
  ];
  return new Set(bodies.flatMap(markedFingerprints));
}
