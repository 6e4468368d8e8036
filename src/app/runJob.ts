/**
 * A whole review, the same for every surface: prepare (Step 0) → gate → estimate → confirm → execute →
 * write outputs. The worker, the CLI and the bench are adapters: they choose what `emit` and `confirm` do.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { EmitFn, ReviewEvent, ReviewResult } from '../model/events';
import { keptUpTo } from '../model/fileStream';
import { currentBranch } from '../scope/changes';
import { setupLine } from '../model/providers';
import { isOwnLimit } from '../model/outcome';
import { SetupError } from '../model/setup';
import { assertReviewable, checkBeforeRun, checkProvider, checkOutputs, modelsInUse } from './jobChecks';
import { connectJob, preloadRun, withWindows } from './jobConnection';
import { executeJob } from './executeJob';
import { prepareJob } from './prepareJob';
import type { EarlyJob, PreparedJob, ReviewJob } from './job';
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
  const { confirm, signal } = hooks;
  checkProvider(job);
  preloadRun(job.mode);
  // A staged run that asks nothing first starts on each file as Step 0 judges it; an estimate needs every file.
  const streams = !confirm && !job.maxCostUsd && job.mode !== 'lenses' && !job.batch && !(await outputsExist(job));
  let started: ((early: EarlyJob) => void) | undefined;
  const early = new Promise<EarlyJob>((resolve) => (started = resolve));
  const preparing = prepareJob(job, streams ? { early: started! } : {});
  const first = streams ? await Promise.race([early, preparing]) : await preparing;
  // A streamed run's later Step 0 failure fails the files that wait on it (the pipeline throws it).
  preparing.catch(() => undefined);
  if ('inventory' in first) checkOutputs(job, first);
  await checkOutputTargets(job.cwd, job.outputs);
  hooks.emit({ type: 'setup', message: setupLine(job.provider, modelsInUse(job)) });
  // Emitted once Step 0 has judged every file: before the run's first request or, streamed, during the run.
  const inventoryOut = preparing.then((prepared) =>
    hooks.emit({
      type: 'inventory',
      files: prepared.inventory.discovery.file_entries.map((e) => e.path),
      companions: prepared.companions,
      excluded: prepared.inventory.excluded.length,
    }),
  );
  inventoryOut.catch(() => undefined); // heard where it matters: before the run, or by its files
  const emit = 'inventory' in first ? hooks.emit : inventoryFirst(hooks.emit, inventoryOut);
  if ('inventory' in first) await inventoryOut;
  const skip = 'inventory' in first ? first.scope.skip : undefined;
  if (skip && !job.force) return { kind: 'skipped', reason: skip.line, why: skip.why };
  if (!('inventory' in first) && !(await keptUpTo(first.files, 1))) assertReviewable(await preparing);
  if ('inventory' in first) assertReviewable(first);
  await checkBeforeRun(job);
  // Credentials resolved before the estimate is asked about: a setup that cannot call says so first.
  const connection = await connectJob(job);
  job = withWindows(job, connection);
  for (const message of await warnings(job, first)) emit({ type: 'warning', message });
  if ('inventory' in first && (confirm || job.maxCostUsd)) {
    // Loaded only to ask or to hold to a ceiling: the estimate's code (both modes' planners) is not needed to run.
    const { estimateJob, cheapestCostUsd } = await import('./estimate');
    const estimate = await estimateJob(job, first);
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
  // A streamed run whose Step 0 failed after its files were judged (its facts not written) still reports.
  const result = await executeJob(job, first, {
    emit,
    signal,
    connection,
    before: inventoryOut.catch(() => undefined),
  });
  // What the run's parses found is kept for the next plan and review (the early access is the finished job's).
  await first.access.facts.store.flush();
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

/**
 * A streamed run's first requests leave before Step 0 has judged every file; what they report is held until the
 * inventory event has gone out, so every reader sees the events in the order a run that waited would give them.
 */
function inventoryFirst(emit: EmitFn, inventory: Promise<void>): EmitFn {
  let held: ReviewEvent[] | undefined = [];
  const release = () => {
    const queued = held ?? [];
    held = undefined;
    for (const e of queued) emit(e);
  };
  inventory.then(release, release);
  return (e) => (held ? held.push(e) : emit(e));
}

/**
 * Whether a machine output (--json, --sarif, --events) names a file that exists: one that might be under review,
 * which only the whole inventory can tell (checkOutputs). A file that does not exist yet is under no review.
 */
async function outputsExist(job: ReviewJob): Promise<boolean> {
  const { json, sarif, events } = job.outputs;
  const exists = (path: string | undefined) =>
    path === undefined
      ? false
      : stat(resolve(job.cwd, path)).then(
          () => true,
          () => false,
        );
  return (await Promise.all([json, sarif, events].map(exists))).some(Boolean);
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

async function warnings(job: ReviewJob, prepared: PreparedJob | EarlyJob): Promise<string[]> {
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
