/**
 * The one place the evaluation runs Skeptic itself: a normal review of a PR checkout — the branch scope
 * against the merge base with the base ref, the result cache on, the gate check forced (every benchmark PR
 * is scored) — through the same app-level functions as `skeptic review`, with the reports kept per PR.
 */
import { join } from 'node:path';
import { estimateJob } from '../app/estimate';
import { buildJob } from '../app/buildJob';
import type { ReviewChoices } from '../app/choices';
import { assertReviewable } from '../app/jobChecks';
import { prepareJob } from '../app/prepareJob';
import type { ReviewJob } from '../app/job';
import { runJob } from '../app/runJob';
import type { EmitFn, ReviewResult } from '../model/events';
import type { LensModels, StepModels } from '../model/models';
import type { PriceOverrides } from '../model/pricing';
import { addUsage, emptyUsage, type Usage } from '../model/usage';
import type { Checkout } from './checkout';
import { LENS_PROMPT_VERSION } from '../engine/lenses';
import { STAGED_PROMPT_VERSION } from '../engine/staged';
import { ResultCache } from '../engine/resultCache';

/**
 * The evaluation's choices for every PR's review, named as everywhere (the checkout gives the folder and the
 * scope); the judge's calls keep to the same limits, so those are always given.
 */
export type EvalChoices = Omit<ReviewChoices, 'cwd' | 'scope' | 'prices'> &
  Required<Pick<ReviewChoices, 'maxConcurrency' | 'requestTimeout' | 'maxAttempts'>> & {
    /** Shared by every PR: a rerun reviews nothing twice. */
    cacheDir: string;
    prices?: PriceOverrides;
  };

/** Estimated tokens and calls per model, so either mode's estimate can be priced. */
export type ModelUsage = Map<string, Usage>;

function jobFor(checkout: Checkout, choices: EvalChoices, apiKey: string, reportDir?: string): ReviewJob {
  return buildJob(
    {
      ...choices,
      cwd: checkout.dir,
      scope: { kind: 'branch', base: checkout.baseRef },
      includeUntracked: false,
      force: true,
      ...(reportDir ? { out: join(reportDir, 'review.md'), json: join(reportDir, 'review.json') } : {}),
    },
    { apiKey },
  );
}

/** What reviewing the checkout would cost, per model, before any call (no key needed). */
export async function estimateReview(checkout: Checkout, choices: EvalChoices): Promise<ModelUsage> {
  const job = jobFor(checkout, choices, 'estimate-only');
  const prepared = await prepareJob(job);
  assertReviewable(prepared);
  const est = await estimateJob(job, prepared);
  const parts = 'byStep' in est ? Object.entries(est.byStep) : Object.entries(est.byRole);
  const modelOf = (part: string) =>
    job.lens ? job.lens.models[part as keyof LensModels]! : job.models[part as keyof StepModels];
  return byModel(
    parts.map(([part, s]) => [
      modelOf(part),
      { ...emptyUsage(), calls: s.calls, input_tokens: s.inputTokens, output_tokens: s.outputTokens },
    ]),
  );
}

export interface PrReview {
  result: ReviewResult;
  /** Absent when the run finished nothing (then no report is written). */
  reportPath?: string;
}

/** Reviews the checkout and keeps the markdown report and the JSON result in `reportDir`. */
export async function reviewCheckout(
  checkout: Checkout,
  choices: EvalChoices,
  { apiKey, reportDir, emit, signal }: { apiKey: string; reportDir: string; emit: EmitFn; signal: AbortSignal },
): Promise<PrReview> {
  const outcome = await runJob(jobFor(checkout, choices, apiKey, reportDir), { emit, signal });
  // Forced and never asked: a job here neither skips nor waits for a yes.
  if (outcome.kind !== 'ran') throw new Error(`the review did not run (${outcome.kind})`);
  return { result: outcome.result, ...(outcome.outputs ? { reportPath: outcome.outputs.reportPath } : {}) };
}

/**
 * What a review of the checkout is given: the same key means the result cache answers it with the same
 * findings (candidates.ts).
 */
export function reviewKey(checkout: Checkout, choices: EvalChoices): string {
  return ResultCache.key({
    head: checkout.headSha,
    base: checkout.base.source,
    mode: choices.mode,
    models: reviewModels(choices),
    prompts: choices.mode === 'lenses' ? LENS_PROMPT_VERSION : STAGED_PROMPT_VERSION,
  });
}

/** The model of each step (staged) or role (lenses) the evaluation's reviews use. */
export function reviewModels(choices: EvalChoices): Record<string, string> {
  // Models do not depend on what is reviewed: any target resolves them as every checkout's job does.
  const { models, lens } = buildJob({ ...choices, cwd: '.', scope: { kind: 'paths', paths: [] } }, { apiKey: '' });
  return lens ? lens.models : models;
}

export function byModel(entries: Iterable<[string, Usage]>): ModelUsage {
  const out: ModelUsage = new Map();
  for (const [model, u] of entries) {
    const sum = out.get(model) ?? emptyUsage();
    addUsage(sum, u);
    out.set(model, sum);
  }
  return out;
}
