/** The checks and gates around a run: something to review, outputs that overwrite nothing, what the provider can do. */
import { resolve } from 'node:path';
import { batchRefusal, costCeilingRefusal, modelIdProblem, ProviderError } from '../model/providers';
import { ResultCache } from '../engine/resultCache';
import type { Inventory } from '../scope/exclusions';
import { ScopeError } from '../scope/inventory';
import { SetupError } from '../model/setup';
import type { PreparedJob, ReviewJob } from './job';

/** Fails with a ScopeError when nothing is left to review, so no run starts and no report is written. */
export function assertReviewable(prepared: PreparedJob): void {
  if (prepared.inventory.discovery.file_entries.length > 0) return;
  const n = prepared.inventory.excluded.length;
  throw new ScopeError(
    n
      ? `nothing to review: all ${n} files found were excluded (${summarizeExclusions(prepared.inventory)})`
      : 'nothing to review: no files found',
  );
}

export function summarizeExclusions(inventory: Inventory): string {
  const counts = new Map<string, number>();
  for (const e of inventory.excluded) counts.set(e.reason, (counts.get(e.reason) ?? 0) + 1);
  return [...counts].map(([reason, n]) => `${n} ${reason.replace(/_/g, ' ')}`).join(', ');
}

/**
 * Machine outputs never overwrite a file under review. Checked as soon as Step 0 is done, before the first
 * event goes out (the event log is written from the first event on). Throws SetupError saying what to change.
 */
export function checkOutputs(job: Pick<ReviewJob, 'cwd' | 'outputs'>, prepared: PreparedJob): void {
  const reviewed = new Set(
    prepared.inventory.discovery.file_entries
      .flatMap((e) => [e.path, e.companion_path ?? []].flat())
      .map((p) => resolve(job.cwd, p)),
  );
  for (const [flag, path] of [
    ['--json', job.outputs.json],
    ['--sarif', job.outputs.sarif],
    ['--events', job.outputs.events],
  ] as const) {
    if (path !== undefined && reviewed.has(resolve(job.cwd, path)))
      throw new SetupError(`${flag} ${path} is a file under review; name another file`);
  }
}

/** What must hold before the first paid call, beyond Step 0: a usable cache folder. Throws SetupError saying what to change. */
export async function checkBeforeRun(job: Pick<ReviewJob, 'cacheDir'>): Promise<void> {
  if (job.cacheDir)
    await ResultCache.prepare(job.cacheDir).catch((err: Error) => Promise.reject(new SetupError(err.message)));
}

/** Every model the job will call, by the steps or roles that use it. */
export function modelsInUse(job: Pick<ReviewJob, 'mode' | 'models' | 'lens'>): Map<string, string[]> {
  const byRole: Record<string, string> = job.lens?.models ?? job.models;
  const out = new Map<string, string[]>();
  for (const [role, id] of Object.entries(byRole)) out.set(id, [...(out.get(id) ?? []), role]);
  return out;
}

/**
 * What the provider cannot do for this job stops it before any call: a model id of another platform (a
 * first-party id sent to Bedrock, say), --batch where there are no Message Batches, or --max-cost where the
 * calls are not billed in dollars (the editor's models).
 */
export function checkProvider(
  job: Pick<ReviewJob, 'mode' | 'models' | 'lens' | 'provider' | 'batch'> & Partial<Pick<ReviewJob, 'maxCostUsd'>>,
): void {
  const refusal =
    (job.batch ? batchRefusal(job.provider.provider) : undefined) ??
    (job.maxCostUsd ? costCeilingRefusal(job.provider.provider) : undefined);
  if (refusal) throw new ProviderError(refusal);
  for (const [id, roles] of modelsInUse(job)) {
    const problem = modelIdProblem(job.provider.provider, id);
    if (problem)
      throw new ProviderError(
        `${problem} (the model for ${roles.join(', ')}; set it with --model, --step-model or skeptic.modelPerStep)`,
      );
  }
}
