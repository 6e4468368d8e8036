/**
 * A whole review, the same for every surface: prepare (Step 0) → gate → estimate → confirm → execute →
 * write outputs. The worker, the CLI and the bench are adapters: they choose what `emit` and `confirm` do.
 */
import type { EmitFn, ReviewResult } from '../model/events';
import { currentBranch } from '../scope/changes';
import { setupLine } from '../model/providers';
import { isOwnLimit } from '../model/outcome';
import { SetupError } from '../model/setup';
import {
  assertReviewable,
  checkBeforeRun,
  checkProvider,
  checkOutputs,
  connectJob,
  executeJob,
  modelsInUse,
  preloadRun,
  prepareJob,
  type PreparedJob,
  withWindows,
  type ReviewJob,
} from './job';
import { checkOutputTargets, writeOutputs, type WrittenOutputs } from './output';
import { formatUsd, type Billing } from '../model/pricing';

export interface RunHooks {
  /** Every event of the run, from the inventory to the final result. */
  emit: EmitFn;
  /** Asked when the estimate exceeds `job.confirmThreshold`; absent: never ask (CLI --yes). */
  confirm?: (estimate: ConfirmEstimate) => Promise<boolean>;
  signal: AbortSignal;
}

/** What a large run asks about: its estimate (what the result cache answers left out) and the threshold it is over. */
export interface ConfirmEstimate {
  calls: number;
  inputTokens: number;
  /** Staged mode: dollars at the price table's rates; null when a model has no price, and in lens mode. */
  costUsd: number | null;
  /** `editor`: the editor's plan bills the calls (costUsd is null). */
  billing?: Billing;
  threshold: number;
}

export type JobOutcome =
  /** The gate check said the change is not worth a review (and the job does not force it): `reason` "SKIP: PR is draft", `why` "PR is draft". */
  | { kind: 'skipped'; reason: string; why: string }
  /** Over the threshold and not confirmed (or cancelled while asking): nothing ran. */
  | { kind: 'declined' }
  /** `outputs` is null when the run finished nothing (stopped before any file was done): no report then. */
  | { kind: 'ran'; result: ReviewResult; outputs: WrittenOutputs | null };

/** Throws a SetupError (a ScopeError, a GitError, …) for a review that cannot start (nothing written, no call made). */
export async function runJob(job: ReviewJob, hooks: RunHooks): Promise<JobOutcome> {
  const { emit, confirm, signal } = hooks;
  checkProvider(job);
  preloadRun(job.mode);
  const prepared = await prepareJob(job);
  // Before the first event: the event log is written from it on, and must not be a file under review.
  checkOutputs(job, prepared);
  await checkOutputTargets(job.cwd, job.outputs);
  emit({ type: 'setup', message: setupLine(job.provider, modelsInUse(job)) });
  const entries = prepared.inventory.discovery.file_entries;
  emit({
    type: 'inventory',
    files: entries.map((e) => e.path),
    companions: prepared.companions,
    excluded: prepared.inventory.excluded.length,
  });
  const skip = prepared.scope.skip;
  if (skip && !job.force) return { kind: 'skipped', reason: skip.line, why: skip.why };
  assertReviewable(prepared);
  await checkBeforeRun(job);
  // Credentials resolved before the estimate is asked about: a setup that cannot call says so first.
  const connection = await connectJob(job);
  job = withWindows(job, connection);
  for (const message of await warnings(job, prepared)) emit({ type: 'warning', message });
  if (confirm || job.maxCostUsd) {
    // Loaded only to ask or to hold to a ceiling: the estimate's code (both modes' planners) is not needed to run.
    const { estimateJob, cheapestCostUsd } = await import('./estimate');
    const estimate = await estimateJob(job, prepared);
    if (job.maxCostUsd) checkBudget(job.maxCostUsd, cheapestCostUsd(estimate));
    if (confirm && estimate.calls > job.confirmThreshold) {
      const yes = await confirm({
        calls: estimate.calls,
        inputTokens: estimate.inputTokens,
        costUsd: estimate.costUsd,
        ...(estimate.billing ? { billing: estimate.billing } : {}),
        threshold: job.confirmThreshold,
      });
      if (!yes || signal.aborted) return { kind: 'declined' };
    }
  }
  const result = await executeJob(job, prepared, emit, signal, connection);
  // What the run's parses found is kept for the next plan and review.
  await prepared.access.facts.store.flush();
  // What the run used per step teaches the next estimate its token figures; losing it costs only accuracy.
  if (job.stateDir && result.mode === 'staged')
    await (await import('./usageHistory')).recordRunUsage(job.stateDir, result).catch(() => undefined);
  const outputs = reportable(result)
    ? await writeOutputs(result, {
        cwd: job.cwd,
        scope: job.scope,
        ...job.outputs,
        ...(job.stateDir ? { stateDir: job.stateDir } : {}),
      })
    : null;
  return { kind: 'ran', result, outputs };
}

/** A run whose cheapest plan is over its --max-cost ceiling: refused before any call. */
export class OverBudget extends SetupError {}

function checkBudget(ceiling: number, cheapest: number | null): void {
  if (cheapest === null)
    throw new OverBudget(
      `--max-cost ${formatUsd(ceiling)} needs a price for every model the review uses; give the missing ones with --prices (or skeptic.prices)`,
    );
  if (cheapest > ceiling)
    throw new OverBudget(
      `the cheapest plan for this review is estimated at ${formatUsd(cheapest)}, over --max-cost ${formatUsd(ceiling)}: nothing was sent; raise the ceiling or narrow the scope (skeptic plan shows the estimate)`,
    );
}

/**
 * Whether a run has a report: not when it stopped (a cancel, the API refusing the run as a whole) before any
 * file got past its first steps; a run stopped at a limit of its own (--max-calls, --max-cost, a batch run's
 * --timeout) reports what it has, even nothing.
 */
export function reportable(result: Pick<ReviewResult, 'stop' | 'files'>): boolean {
  const finishedSome = result.files.some((f) => f.status !== 'failed' || f.analysis);
  return !result.stop || finishedSome || isOwnLimit(result.stop);
}

async function warnings(job: ReviewJob, prepared: PreparedJob): Promise<string[]> {
  const out: string[] = [...prepared.warnings];
  const pr = prepared.scope.changes?.pr;
  if (pr) {
    const branch = await currentBranch(job.cwd);
    if (branch !== pr.headRefName)
      out.push(
        `PR #${pr.number} is on ${pr.headRefName}, but ${branch ?? 'a detached HEAD'} is checked out; files are read from the working tree`,
      );
  }
  if (job.effort === 'max') out.push('max effort risks overthinking on straightforward code');
  return out;
}
