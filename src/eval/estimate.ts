/**
 * What an evaluation will cost before it spends: the review of each checked-out PR as `skeptic plan`
 * estimates it, plus the judge calls — golden comments × findings, where the number of findings is not
 * known until the review has run, so an assumed count per PR is used and printed. Input tokens are priced
 * as uncached (prompt-cache reads would make it cheaper), and units already in the result cache are not
 * subtracted: a rerun costs less than this says.
 */
import { addUsage, emptyUsage, type Usage } from '../model/usage';
import { JUDGE_SYSTEM } from './judge';
import { byModel, estimateReview, type ModelUsage, type ReviewSettings } from './review';
import { priced, type PreparedCase } from './run';

/** Skeptic aims for few findings; a typical change review keeps a handful. */
export const ASSUMED_FINDINGS_PER_PR = 5;
/** The record schema, the packet's framing and a finding's location and rationale. */
const JUDGE_OVERHEAD_TOKENS = 350;
const JUDGE_OUTPUT_TOKENS = 80;

export interface EvalEstimate {
  prs: number;
  review: Usage;
  judge: Usage;
  /** null when a model's price is unknown. */
  reviewUsd: number | null;
  judgeUsd: number | null;
  /** Golden comments carry places (AACR-Bench): only findings at a comment's place are judged, so the judge figures are an upper bound. */
  placed: boolean;
  /** PRs whose review cannot be estimated (nothing reviewable), with the reason. */
  skipped: Array<{ url: string; reason: string }>;
}

const tokens = (chars: number) => Math.ceil(chars / 4);

export async function estimateEval(
  prepared: PreparedCase[],
  review: ReviewSettings,
  judgeModel: string,
): Promise<EvalEstimate> {
  const perModel: Array<[string, Usage]> = [];
  const judge = emptyUsage();
  const skipped: EvalEstimate['skipped'] = [];
  let prs = 0;
  for (const p of prepared) {
    if (!p.checkout) continue;
    let usage: ModelUsage;
    try {
      usage = await estimateReview(p.checkout, review);
    } catch (err) {
      skipped.push({ url: p.case.url, reason: (err as Error).message });
      continue;
    }
    prs++;
    perModel.push(...usage);
    const calls = p.case.golden.length * ASSUMED_FINDINGS_PER_PR;
    const goldenChars = p.case.golden.reduce((n, g) => n + g.text.length, 0);
    judge.calls += calls;
    judge.input_tokens +=
      calls * (tokens(JUDGE_SYSTEM.length) + JUDGE_OVERHEAD_TOKENS) + ASSUMED_FINDINGS_PER_PR * tokens(goldenChars);
    judge.output_tokens += calls * JUDGE_OUTPUT_TOKENS;
  }
  const reviewUsage = byModel(perModel);
  const total = emptyUsage();
  for (const u of reviewUsage.values()) addUsage(total, u);
  const placed = prepared.some((p) => p.case.golden.some((g) => g.location));
  return {
    prs,
    review: total,
    judge,
    placed,
    reviewUsd: priced(reviewUsage, review.prices),
    judgeUsd: priced(new Map([[judgeModel, judge]]), review.prices),
    skipped,
  };
}
