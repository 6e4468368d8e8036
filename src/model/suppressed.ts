/**
 * Findings a suppression hid: a `skeptic-ignore` comment, the team's file or the user's own list. They are
 * not findings any more, but every output says they were hidden, by what, and whether the change under
 * review added the suppression: an author who silences the reviewer in their own change is seen doing so.
 */
import type { Finding } from './finding';
import type { MergedFinding } from './lens';
import { formatLocation, type Location } from './location';
import { TEAM_DISMISSALS_PATH } from './dismissals';

/**
 * What hid a finding, as `--json`'s `by` spells it (a stable contract): a `skeptic-ignore` comment in the
 * code, the team's committed `.skeptic/dismissed.json`, or the user's own list (the extension's).
 */
export const SUPPRESSION_KINDS = ['comment', 'team', 'user'] as const;
export type SuppressionKind = (typeof SUPPRESSION_KINDS)[number];

export interface SuppressedFinding {
  /** The finding as it would have been shown, with its fingerprint. */
  finding: Finding;
  /** Lens mode: the record behind it, for the lens outputs. */
  lens?: MergedFinding;
  by: SuppressionKind;
  /** The comment's reason, or the dismissal's reason and note; null when the comment gives none. */
  note: string | null;
  /** The change under review adds the suppression: the comment is on a line it adds, or it adds the team entry. */
  addedInChange: boolean;
  /** Where the suppression is written (the comment's line, the team entry's line); null for the user's list. */
  at: Location | null;
  /** A comment that names no rule: it hides any rule's finding on its line. */
  everyRule?: true;
}

/** The summary's count, each kind apart: "3 suppressed (2 by skeptic-ignore comments, …)"; null when none were. */
export function describeSuppressed(list: readonly SuppressedFinding[] | undefined): string | null {
  if (!list?.length) return null;
  const n = (by: SuppressionKind) => list.filter((s) => s.by === by).length;
  const added = list.filter((s) => s.addedInChange).length;
  return `${list.length} suppressed (${n('comment')} by skeptic-ignore comments, ${n('team')} by the team file ${TEAM_DISMISSALS_PATH}, ${n('user')} by your own list${added ? `; ${added} of them by suppressions this change adds` : ''})`;
}

/** The suppressions the change under review adds: the findings its author hid from this review. */
export function addedByChange(list: readonly SuppressedFinding[] | undefined): SuppressedFinding[] {
  return (list ?? []).filter((s) => s.addedInChange);
}

/**
 * What hid one finding, as plain text for a renderer to escape: "a skeptic-ignore comment at a.ts:17 that
 * names no rule (it hides every rule)", "the team file's entry at .skeptic/dismissed.json:9", "your own list".
 */
export function suppressionLabel(s: SuppressedFinding): string {
  const at = s.at ? ` at ${formatLocation(s.at)}` : '';
  switch (s.by) {
    case 'comment':
      return `a skeptic-ignore comment${at}${s.everyRule ? ' that names no rule (it hides every rule)' : ''}`;
    case 'team':
      return `the team file's entry${s.at ? at : ` in ${TEAM_DISMISSALS_PATH}`}`;
    case 'user':
      return 'your own dismissal list';
  }
}

/** "hidden by a skeptic-ignore comment at a.ts:17, added by this change: reason" (plain text). */
export function describeSuppression(s: SuppressedFinding): string {
  return `hidden by ${suppressionLabel(s)}${s.addedInChange ? ', added by this change' : ''}${s.note ? `: ${s.note}` : ''}`;
}

/**
 * The summary's lines for the suppressions the change adds, one per finding they hide: a reviewer of the
 * change sees what its author silenced without opening the report.
 */
export function addedByChangeLines(list: readonly SuppressedFinding[] | undefined): string[] {
  const hidden = addedByChange(list);
  if (!hidden.length) return [];
  return [
    `Suppressions this change adds hide ${hidden.length === 1 ? '1 finding' : `${hidden.length} findings`} (the report lists them):`,
    ...hidden.map(
      (s) => `  ${formatLocation(s.finding)} ${s.finding.rule_id} ${s.finding.priority}: ${describeSuppression(s)}`,
    ),
  ];
}
