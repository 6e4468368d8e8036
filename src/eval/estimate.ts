/**
 * What an evaluation will cost before it spends, review and judge apart. The review of each checked-out PR
 * is estimated as `skeptic plan` estimates it (units the result cache answers cost nothing). The judge asks
 * golden comments × findings, and the findings are not known before the review runs: a PR reviewed before
 * with the same inputs will hand the judge the same findings (kept in candidates.json), so its judge calls
 * are counted exactly, less those the cache answers; for any other PR an assumed count is used and printed. Input tokens are priced as uncached (prompt-cache reads would make it cheaper).
 */
import { pullRequestIntent } from '../model/intent';
import { join } from 'node:path';
import { tokens } from '../engine/estimate';
import { ResultCache } from '../engine/resultCache';
import { UnitCache } from '../engine/unitCache';
import { addUsage, emptyUsage, type Usage } from '../model/usage';
import type { Finding } from '../model/finding';
import type { GoldenComment } from './cases';
import { candidatesOf, readCandidates } from './candidates';
import { findingText, judgedPairs, judgeUnit, type JudgePrompt } from './judge';
import { byModel, estimateReview, reviewKey, type ModelUsage, type EvalChoices } from './review';
import { priced, type PreparedCase } from './run';

/** Skeptic aims for few findings; a typical change review keeps a handful. */
export const ASSUMED_FINDINGS_PER_PR = 5;
/** The record schema and a finding's location and rationale. */
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
  /** PRs whose judge calls are assumed (their review will run, so their findings are not known yet). */
  assumedPrs: number;
  /** Judge calls a rerun does not make: answered by the result cache. */
  judgeCached: number;
  /** PRs whose review cannot be estimated (nothing reviewable), with the reason. */
  skipped: Array<{ url: string; reason: string }>;
}

export async function estimateEval(
  prepared: PreparedCase[],
  review: EvalChoices,
  judging: { prompt: JudgePrompt; model: string; includePreExisting: boolean },
  workdir: string,
): Promise<EvalEstimate> {
  const { prompt, model: judgeModel } = judging;
  const perModel: Array<[string, Usage]> = [];
  const judge = emptyUsage();
  const skipped: EvalEstimate['skipped'] = [];
  const cache = new UnitCache(prompt.version, new ResultCache(review.cacheDir), undefined);
  let prs = 0;
  let assumedPrs = 0;
  let judgeCached = 0;
  const system = tokens(prompt.system.length + prompt.user('', '').length) + JUDGE_OVERHEAD_TOKENS;
  for (const p of prepared) {
    if (!p.checkout) continue;
    let usage: ModelUsage;
    try {
      usage = await estimateReview(p.checkout, {
        ...review,
        intent: pullRequestIntent(p.case.pull.number, p.case.title, ''),
      });
    } catch (err) {
      skipped.push({ url: p.case.url, reason: (err as Error).message });
      continue;
    }
    prs++;
    perModel.push(...usage);
    const kept = await readCandidates(join(workdir, 'reports', p.slug), reviewKey(p.checkout, review));
    if (kept) {
      judgeCached += await addKnownPairs({
        judge,
        golden: p.case.golden,
        known: candidatesOf(kept, judging.includePreExisting),
        cache,
        prompt,
        model: judgeModel,
        system,
      });
    } else {
      assumedPrs++;
      addAssumedPairs(judge, p.case.golden, system);
    }
  }
  const reviewUsage = byModel(perModel);
  const total = [...reviewUsage.values()].reduce((sum, u) => (addUsage(sum, u), sum), emptyUsage());
  return {
    prs,
    review: total,
    judge,
    placed: prepared.some((p) => p.case.golden.some((g) => g.location)),
    assumedPrs,
    judgeCached,
    reviewUsd: priced(reviewUsage, review.prices),
    judgeUsd: priced(new Map([[judgeModel, judge]]), review.prices),
    skipped,
  };
}

/**
 * Adds the judge calls of a PR whose candidates a past run kept: one per pair, less those the result cache
 * answers. Returns how many it answers.
 */
async function addKnownPairs(c: {
  judge: Usage;
  golden: GoldenComment[];
  known: Array<Pick<Finding, 'file' | 'line' | 'action' | 'rationale' | 'locations'>>;
  cache: UnitCache;
  prompt: JudgePrompt;
  model: string;
  system: number;
}): Promise<number> {
  let cached = 0;
  for (const { g, f } of judgedPairs(c.golden, c.known)) {
    const golden = c.golden[g]!.text;
    const finding = findingText(c.known[f]!);
    if (await c.cache.holds(judgeUnit({ judge: c.prompt, model: c.model, golden, finding, label: '' }))) cached++;
    else {
      c.judge.calls++;
      c.judge.input_tokens += c.system + tokens(golden.length + finding.length);
      c.judge.output_tokens += JUDGE_OUTPUT_TOKENS;
    }
  }
  return cached;
}

/** Adds the judge calls of a PR whose findings are not known yet: an assumed number per golden comment. */
function addAssumedPairs(judge: Usage, golden: GoldenComment[], system: number): void {
  const calls = golden.length * ASSUMED_FINDINGS_PER_PR;
  const goldenChars = golden.reduce((n, g) => n + g.text.length, 0);
  judge.calls += calls;
  judge.input_tokens += calls * system + ASSUMED_FINDINGS_PER_PR * tokens(goldenChars);
  judge.output_tokens += calls * JUDGE_OUTPUT_TOKENS;
}

/** What the checkouts will take, said before they start: shallow clones of large projects are not small. */
export interface CloneEstimate {
  toFetch: number;
  present: number;
  megabytes: number;
  seconds: number;
}

/** An assumption, said beside the figure: a shallow checkout (50 commits deep) of a large open-source project. */
export const ASSUMED_CHECKOUT = { megabytes: 400, seconds: 60 };

export function cloneEstimate(present: number, selected: number): CloneEstimate {
  const toFetch = selected - present;
  return {
    toFetch,
    present,
    megabytes: toFetch * ASSUMED_CHECKOUT.megabytes,
    seconds: toFetch * ASSUMED_CHECKOUT.seconds,
  };
}
