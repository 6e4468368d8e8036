/**
 * What a run will cost, before any call: each mode's cost model (engine/staged/estimate.ts, with the result
 * cache's forecast; engine/lenses/estimate.ts) given what app/ knows of the job: Step 0's files, sizes and
 * parses, the team's dismissals, the price table, the provider's prompt cache, and this repository's
 * recorded runs (app/usageHistory.ts), from which the staged estimate takes its per-call token figures.
 */
import { resolve } from 'node:path';
import { countsTokens } from '../engine/endpointWindow';
import { estimateLensRun, type LensEstimate } from '../engine/lenses';
import { estimateStagedRun, forecastStagedRun, type Estimate } from '../engine/staged';
import { CAPABILITIES } from '../model/providers';
import { loadTeamFile } from './dismissals';
import { lensRequest, stagedRequest } from './jobRequest';
import type { PreparedJob, ReviewJob } from './job';
import { readUsageHistory } from './usageHistory';

export type { StepEstimate } from '../engine/estimate';
export type { LensEstimate } from '../engine/lenses';
export type { Estimate, StagedStepEstimate } from '../engine/staged';

/**
 * Either mode's estimate, for `skeptic plan` and the confirmation a large run asks for. A staged run's counts
 * leave out what the job's result cache already answers; its token figures come from the repository's
 * recorded runs where there are any.
 */
export async function estimateJob(job: EstimatedJob, prepared: PreparedJob): Promise<Estimate | LensEstimate> {
  const estimate = await estimateByMode(job, prepared);
  return CAPABILITIES[job.provider.provider].value.listPrices ? estimate : withoutDollars(estimate);
}

async function estimateByMode(job: EstimatedJob, prepared: PreparedJob): Promise<Estimate | LensEstimate> {
  // What both modes' estimates price by: the price table (and its windows), and the batch discount.
  const priced = {
    ...(job.prices ? { prices: job.prices } : {}),
    ...(job.batch ? { batch: job.batch } : {}),
    // Requests sized as the run will size them: its window guard counts where the provider does.
    tokenCounting: countsTokens(job.provider.provider),
  };
  const { lens } = job;
  if (lens) return estimateLensRun(prepared.access, { ...lensRequest({ ...job, lens }, prepared), ...priced });
  const { access } = prepared;
  // The run's own request, as far as an estimate knows it: no connection, no signal.
  const request = {
    ...stagedRequest(job, prepared, (await loadTeamFile(job.cwd)).dismissals),
    access,
    ...(job.cacheDir ? { cacheDir: job.cacheDir } : {}),
    ...priced,
  };
  return estimateStagedRun({
    ...request,
    knownSize: (path) => access.facts.known(resolve(access.cwd, path)),
    ...(request.cacheDir ? { forecast: await forecastStagedRun(request) } : {}),
    history: job.stateDir ? await readUsageHistory(job.stateDir) : [],
    promptCache: CAPABILITIES[job.provider.provider].value.promptCache,
  });
}

/**
 * The estimate of a run the editor's plan bills (provider vscode-lm): its calls and tokens stand, every dollar
 * figure is null, so no surface prices the editor's models at Anthropic's list prices.
 */
function withoutDollars<E extends Estimate | LensEstimate>(est: E): E {
  const unpriced = <S extends { costUsd: number | null }>(parts: Record<string, S>) =>
    Object.fromEntries(Object.entries(parts).map(([k, s]) => [k, { ...s, costUsd: null }]));
  const { costRange: _range, ...rest } = est as Estimate;
  return 'byStep' in est
    ? ({ ...rest, byStep: unpriced(est.byStep), costUsd: null, billing: 'editor' } as E)
    : ({ ...est, byRole: unpriced(est.byRole), costUsd: null, billing: 'editor' } as E);
}

export type EstimatedJob = Pick<
  ReviewJob,
  | 'cwd'
  | 'mode'
  | 'lens'
  | 'force'
  | 'effort'
  | 'models'
  | 'prices'
  | 'cacheDir'
  | 'stateDir'
  | 'dismissals'
  | 'provider'
  | 'batch'
>;

/**
 * The least the estimate says the run can cost, for --max-cost to refuse at once: a staged run's cheapest
 * recorded run where there is a spread, else its estimate; a lens run without its validators (up to one
 * per serious finding, so possibly none). null when a model has no price.
 */
export function cheapestCostUsd(est: Estimate | LensEstimate): number | null {
  if ('byStep' in est) return est.costRange?.[0] ?? est.costUsd;
  const roles = Object.entries(est.byRole).filter(([role]) => role !== 'validator');
  return roles.some(([, r]) => r.costUsd === null) ? null : roles.reduce((sum, [, r]) => sum + r.costUsd!, 0);
}
