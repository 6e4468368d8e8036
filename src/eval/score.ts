/**
 * From judgements to scores. A finding counts for at most one golden comment and a golden comment for at
 * most one finding: the pairs the judge said yes to are matched one-to-one, as many as possible (a maximum
 * bipartite matching), trying the judge's most confident pairs first. Precision = matched findings ÷
 * findings, recall = matched golden comments ÷ golden comments, each summed over PRs before dividing.
 */
import type { Finding } from '../model/finding';
import type { GoldenComment } from './cases';
import type { Judgement } from './records';

/** golden index → finding index. */
export function matchOneToOne(judgements: Judgement[], goldenCount: number): Map<number, number> {
  const yes = judgements.filter((j) => j.verdict?.match).sort((a, b) => b.verdict!.confidence - a.verdict!.confidence);
  const options = Array.from({ length: goldenCount }, (_, g) =>
    yes.filter((j) => j.golden === g).map((j) => j.finding),
  );
  const owner = new Map<number, number>(); // finding → golden
  // Kuhn's augmenting paths: a golden comment takes a free finding, or moves the finding's owner to another.
  const assign = (g: number, seen: Set<number>): boolean => {
    for (const f of options[g]!) {
      if (seen.has(f)) continue;
      seen.add(f);
      const current = owner.get(f);
      if (current === undefined || assign(current, seen)) {
        owner.set(f, g);
        return true;
      }
    }
    return false;
  };
  for (let g = 0; g < goldenCount; g++) assign(g, new Set());
  return new Map([...owner].map(([f, g]) => [g, f]));
}

export interface Tally {
  findings: number;
  golden: number;
  matched: number;
}

export interface Scores {
  /** null where the denominator is 0 (no findings: precision is undefined, not 0 or 100). */
  precision: number | null;
  recall: number | null;
  f1: number | null;
}

export function scores(t: Tally): Scores {
  const precision = t.findings ? t.matched / t.findings : null;
  const recall = t.golden ? t.matched / t.golden : null;
  const f1 =
    precision !== null && recall !== null
      ? precision + recall
        ? (2 * precision * recall) / (precision + recall)
        : 0
      : null;
  return { precision, recall, f1 };
}

export function sumTallies(tallies: Tally[]): Tally {
  return tallies.reduce(
    (a, t) => ({ findings: a.findings + t.findings, golden: a.golden + t.golden, matched: a.matched + t.matched }),
    { findings: 0, golden: 0, matched: 0 },
  );
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
export function placeAgrees(golden: GoldenComment, finding: Finding): boolean {
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
