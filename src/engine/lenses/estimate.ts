/**
 * What a lens run will cost, before any call: model calls and tokens per role, from the same plan the run
 * makes (targetPlan.ts: which reviewers over which parts). It does not consult the result cache.
 */
import type { FileAccess } from '../../model/access';
import type { LensRole } from '../../model/reviewers';
import { costUsd, type Billing } from '../../model/pricing';
import { CROSS_REPO } from '../../model/reviewers';
import { tokens, totals, type StepEstimate } from '../estimate';
import { sourceTokens } from './chunks';
import { scopeRoom } from './calls';
import { roomCheck } from '../runner';
import { WindowGuard } from '../window';
import type { LensRequest } from './pipeline';
import { planTarget, type PlanOptions } from './targetPlan';
import { BRIEFS, LENS_SYSTEM, VALIDATOR_BRIEF } from './prompts';
import { loadTarget } from './target';
import { MAX_VALIDATORS } from './validators';

export interface LensEstimate {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** Per role: each reviewer, the validators (an upper bound: one per CRITICAL/HIGH finding, at most ten), the cross-repo check. */
  byRole: Record<string, PricedRole>;
  /** An upper bound: every prompt token priced as uncached input (at batch prices for a batch run); null when a model has no price. */
  costUsd: number | null;
  /** `editor`: the editor's plan bills the calls, so no figure here is in dollars (app/estimate.ts). */
  billing?: Billing;
  /** Parts the scopes split into under the token budget, over all targets. */
  parts: number;
}

/** Tool definitions and the output schema, which every lens call carries before its system prompt. */
const LENS_FIXED_TOKENS = 700;
const LENS_PACKET_TOKENS = 300;
const LENS_OUT = { review: 1500, validator: 60, crossRepo: 1000, perFileListed: 20 };

/** What a lens run's estimate reads of its request: the targets, how they are planned, and the models' windows. */
export type LensEstimateRequest = Pick<LensRequest, 'targets' | 'models' | 'prices' | 'effort' | 'batch'> &
  PlanOptions & {
    /** Requests are sized as where the provider counts tokens (engine/endpointWindow.ts), as the run will size them. */
    tokenCounting?: boolean;
  };

/** A role's calls and tokens, and what they cost on its model (see LensEstimate.costUsd). */
export type PricedRole = StepEstimate & { costUsd: number | null };

export async function estimateLensRun(access: FileAccess, req: LensEstimateRequest): Promise<LensEstimate> {
  const byRole: Record<string, StepEstimate> = {};
  const add = (role: string, inputEach: number, outputEach: number) => {
    const s = (byRole[role] ??= { calls: 0, inputTokens: 0, outputTokens: 0 });
    s.calls++;
    s.inputTokens += inputEach;
    s.outputTokens += outputEach;
  };
  const system = LENS_FIXED_TOKENS + tokens(LENS_SYSTEM.length);
  // Parts as the run plans them: within what the models' windows leave.
  const planned = {
    ...req,
    scopeRoom: scopeRoom(req.models, roomCheck(new WindowGuard(req.prices, {}, req.tokenCounting), req.effort)),
  };
  const plans = await Promise.all(
    req.targets.map(async (spec) => planTarget((await loadTarget(access, spec)).target, planned)),
  );
  let largestPart = 0;
  for (const { target, routing, parts } of plans) {
    const context = tokens(target.context.reduce((n, c) => n + c.text.length, 0));
    for (const part of parts) {
      const size = part.chunk.files.reduce((n, f) => n + sourceTokens(f), 0);
      largestPart = Math.max(largestPart, context + size);
      for (const reviewer of routing.reviewers)
        add(reviewer, system + context + size + tokens(BRIEFS[reviewer].length) + LENS_PACKET_TOKENS, LENS_OUT.review);
    }
  }
  if (req.fullFanout)
    for (let i = 0; i < MAX_VALIDATORS; i++)
      add('validator', system + largestPart + tokens(VALIDATOR_BRIEF.length) + LENS_PACKET_TOKENS, LENS_OUT.validator);
  if (plans.length > 1) {
    const files = plans.reduce((n, p) => n + p.target.files.length, 0);
    add(
      CROSS_REPO,
      system + tokens(BRIEFS[CROSS_REPO].length) + LENS_PACKET_TOKENS + LENS_OUT.perFileListed * files,
      LENS_OUT.crossRepo,
    );
  }
  const priced = Object.fromEntries(
    Object.entries(byRole).map(([role, est]) => [role, priceRole(req, req.models[role as LensRole], est)]),
  );
  const costs = Object.values(priced).map((r) => r.costUsd);
  return {
    ...totals(Object.values(byRole)),
    byRole: priced,
    costUsd: costs.includes(null) ? null : costs.reduce<number>((a, b) => a + b!, 0),
    parts: plans.reduce((n, p) => n + p.parts.length, 0),
  };
}

function priceRole(req: LensEstimateRequest, model: string, est: StepEstimate): PricedRole {
  const usage = {
    input_tokens: est.inputTokens,
    output_tokens: est.outputTokens,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
  };
  return { ...est, costUsd: costUsd(model, usage, req.prices, { batch: req.batch !== undefined }) };
}
