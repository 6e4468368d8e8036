/**
 * From judgements to scores, under one of two counting rules.
 *
 * `martian` is the Martian Code Review Bench's own crediting, as its judging step describes it: golden
 * comments are taken in the data's order and, for each, the candidates in the order the review gave them;
 * a yes (confidence above 0) credits the candidate only when its confidence is above the best that golden
 * comment has had so far, which then becomes its best. A golden comment with a best is a true positive;
 * every candidate never credited is a false positive. So a candidate whose yes comes after an equal or more
 * confident one for the same golden comment is a false positive unless another golden comment credits it,
 * and one candidate may answer several golden comments. Precision is true positives ÷ (true positives + false
 * positives), recall true positives ÷ golden, each summed over PRs before dividing.
 *
 * `one-to-one` is Skeptic's stricter rule: a finding counts for at most one golden comment and a golden
 * comment for at most one finding, as many pairs as the yes answers (confidence above 0) allow (a maximum
 * bipartite matching, the judge's most confident pairs tried first); every finding left over is a false positive.
 */
import type { Finding } from '../model/finding';
import type { GoldenComment } from './cases';
import type { Judgement } from './verdict';

export const MATCHINGS = ['martian', 'one-to-one'] as const;
export type Matching = (typeof MATCHINGS)[number];

/** What the judge's answers add up to for one PR. */
export interface Assignment {
  /** golden index → the finding shown as its match (the one that set its best confidence). */
  matches: Map<number, number>;
  /** Findings that are not false positives. */
  credited: Set<number>;
}

/** A yes the rules count: confidence above 0. */
const confidentYes = (j: Judgement) => (j.verdict?.match && j.verdict.confidence > 0 ? j.verdict.confidence : null);

export function assign(judgements: Judgement[], goldenCount: number, matching: Matching): Assignment {
  if (matching === 'one-to-one') {
    const matches = matchOneToOne(judgements, goldenCount);
    return { matches, credited: new Set(matches.values()) };
  }
  const matches = new Map<number, number>();
  const best = new Map<number, number>();
  const credited = new Set<number>();
  const ordered = [...judgements].sort((a, b) => a.golden - b.golden || a.finding - b.finding);
  for (const j of ordered) {
    const confidence = confidentYes(j);
    if (confidence === null || confidence <= (best.get(j.golden) ?? 0)) continue;
    best.set(j.golden, confidence);
    matches.set(j.golden, j.finding);
    credited.add(j.finding);
  }
  return { matches, credited };
}

/** golden index → finding index. */
export function matchOneToOne(judgements: Judgement[], goldenCount: number): Map<number, number> {
  const yes = judgements
    .filter((j) => confidentYes(j) !== null)
    .sort((a, b) => b.verdict!.confidence - a.verdict!.confidence);
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

/**
 * The counts of one PR. Only golden comments `counted` (the benchmark's profile, when its data has categories)
 * are true positives or misses; a candidate credited by any golden comment, counted or not, is no false
 * positive, as the benchmark's profiles count it.
 */
export function tallyOf(
  a: Assignment,
  findings: number,
  golden: number,
  counted: (g: number) => boolean = () => true,
): Tally {
  const inScope = Array.from({ length: golden }, (_, g) => g).filter(counted);
  const tp = inScope.filter((g) => a.matches.has(g)).length;
  return { findings, golden: inScope.length, matched: tp, tp, fp: findings - a.credited.size, fn: inScope.length - tp };
}

/** The same judgements scored over the candidates `keep` keeps (a priority cut, the main findings): no new call. */
export function tallyOfSome(
  judgements: Judgement[],
  findings: number,
  keep: (f: number) => boolean,
  golden: number,
  matching: Matching,
  counted?: (g: number) => boolean,
): Tally {
  const kept = Array.from({ length: findings }, (_, f) => f).filter(keep).length;
  const assignment = assign(
    judgements.filter((j) => keep(j.finding)),
    golden,
    matching,
  );
  return tallyOf(assignment, kept, golden, counted);
}

/** A PR nothing was judged for: every counted golden comment missed, no candidate. */
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
