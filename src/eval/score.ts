/**
 * From judgements to scores, under one of two counting rules.
 *
 * `martian` is the Martian Code Review Bench's own rule (offline/code_review_benchmark/step3_judge_comments.py):
 * a golden comment is found when the judge said yes to it for any finding, and a finding is a false positive
 * only when the judge said yes to it for no golden comment at all. So one finding may answer several golden
 * comments, and two findings that say the same true thing both escape the false-positive count. Precision is
 * true positives (found golden comments) ÷ (true positives + false positives), recall found ÷ golden, each
 * summed over PRs before dividing. As in that scorer, a yes at confidence 0 is not a match.
 *
 * `one-to-one` is Skeptic's stricter rule: a finding counts for at most one golden comment and a golden
 * comment for at most one finding, as many pairs as the yes answers allow (a maximum bipartite matching,
 * the judge's most confident pairs tried first); every finding left over is a false positive.
 */
import type { Finding } from '../model/finding';
import type { GoldenComment } from './cases';
import type { Judgement } from './verdict';

export const MATCHINGS = ['martian', 'one-to-one'] as const;
export type Matching = (typeof MATCHINGS)[number];

/** What the judge's answers add up to for one PR. */
export interface Assignment {
  /** golden index → the finding shown as its match (its most confident yes). */
  matches: Map<number, number>;
  /** Findings that are not false positives. */
  credited: Set<number>;
}

export function assign(judgements: Judgement[], goldenCount: number, matching: Matching): Assignment {
  if (matching === 'one-to-one') {
    const matches = matchOneToOne(judgements, goldenCount);
    return { matches, credited: new Set(matches.values()) };
  }
  const matches = new Map<number, number>();
  const best = new Map<number, number>();
  const credited = new Set<number>();
  for (const j of judgements) {
    const confidence = j.verdict?.match ? j.verdict.confidence : 0;
    if (confidence <= 0) continue;
    credited.add(j.finding);
    if (confidence > (best.get(j.golden) ?? 0)) {
      best.set(j.golden, confidence);
      matches.set(j.golden, j.finding);
    }
  }
  return { matches, credited };
}

/** golden index → finding index. */
export function matchOneToOne(judgements: Judgement[], goldenCount: number): Map<number, number> {
  const yes = judgements.filter((j) => j.verdict?.match).sort((a, b) => b.verdict!.confidence - a.verdict!.confidence);
  const options = Array.from({ length: goldenCount }, (_, g) =>
    yes.filter((j) => j.golden === g).map((j) => j.finding),
  );
  const owner = new Map<number, number>(); // finding → golden
  // Kuhn's augmenting paths: a golden comment takes a free finding, or moves the finding's owner to another.
  const augment = (g: number, seen: Set<number>): boolean => {
    for (const f of options[g]!) {
      if (seen.has(f)) continue;
      seen.add(f);
      const current = owner.get(f);
      if (current === undefined || augment(current, seen)) {
        owner.set(f, g);
        return true;
      }
    }
    return false;
  };
  for (let g = 0; g < goldenCount; g++) augment(g, new Set());
  return new Map([...owner].map(([f, g]) => [g, f]));
}

/** `matched`: golden comments found; `tp`, `fp`, `fn` as the matching counts them (see the top of this file). */
export interface Tally {
  findings: number;
  golden: number;
  matched: number;
  tp: number;
  fp: number;
  fn: number;
}

export function tallyOf(a: Assignment, findings: number, golden: number): Tally {
  const tp = a.matches.size;
  return { findings, golden, matched: tp, tp, fp: findings - a.credited.size, fn: golden - tp };
}

/** A PR nothing was judged for: every golden comment missed, no candidate. */
export const missed = (golden: number): Tally => ({ findings: 0, golden, matched: 0, tp: 0, fp: 0, fn: golden });

export interface Scores {
  /** null where the denominator is 0 (no findings: precision is undefined, not 0 or 100). */
  precision: number | null;
  recall: number | null;
  f1: number | null;
}

export function scores(t: Tally): Scores {
  const precision = t.tp + t.fp ? t.tp / (t.tp + t.fp) : null;
  const recall = t.golden ? t.tp / t.golden : null;
  const f1 =
    precision !== null && recall !== null
      ? precision + recall
        ? (2 * precision * recall) / (precision + recall)
        : 0
      : null;
  return { precision, recall, f1 };
}

export function sumTallies(tallies: Tally[]): Tally {
  const sum = (k: keyof Tally) => tallies.reduce((n, t) => n + t[k], 0);
  return {
    findings: sum('findings'),
    golden: sum('golden'),
    matched: sum('matched'),
    tp: sum('tp'),
    fp: sum('fp'),
    fn: sum('fn'),
  };
}

/** Recall per group of golden comment (severity or category): found ÷ present, in the benchmark's order. */
export function groupRecall(
  items: Array<{ group: string; matched: boolean }>,
  order: readonly string[],
): Array<{ group: string; golden: number; matched: number }> {
  const groups = [...order, ...[...new Set(items.map((i) => i.group))].filter((g) => !order.includes(g)).sort()];
  return groups.map((group) => {
    const mine = items.filter((i) => i.group === group);
    return { group, golden: mine.length, matched: mine.filter((i) => i.matched).length };
  });
}

/**
 * Whether a finding is even a candidate for a golden comment that says where it is (AACR-Bench): the same
 * file, and on the PR's side a line range within one line of the comment's. The review only cites the PR's
 * lines, so a comment on the base side (a removed line) is placed by its file alone.
 */
export function placeAgrees(golden: GoldenComment, finding: Pick<Finding, 'locations'>): boolean {
  const at = golden.location;
  if (!at) return true;
  return finding.locations.some((loc) => {
    if (loc.file !== at.path) return false;
    if (at.side === 'left') return true;
    const end = loc.endLine ?? loc.line;
    return loc.line <= at.to + NEAR && end >= at.from - NEAR;
  });
}

/** How far (in lines) a finding may sit from a golden comment's range and still be at its place. */
const NEAR = 1;
