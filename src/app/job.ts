/**
 * A review job: everything a run needs, as plain data that can cross the worker boundary, and the two
 * phases every surface (CLI, worker) runs: prepare (Step 0, no model) and execute (the pipeline).
 */
import { z } from 'zod';
import type { EmitFn, StagedResult } from '../engine/events';
import type { ContextFile } from '../engine/layout';
import { STAGED_STEPS, type StepModels } from '../engine/models';
import { runStagedReview } from '../engine/staged/pipeline';
import { loadContextFiles } from '../scope/contextFiles';
import { ScopeError, type Inventory } from '../scope/inventory';
import { resolveScope, ScopeSpec, type ResolvedScope } from './scope';

export const ReviewJob = z.object({
  cwd: z.string(),
  scope: ScopeSpec,
  excludes: z.array(z.string()).default([]),
  /** Untracked files count as changes in the uncommitted scope. */
  includeUntracked: z.boolean().default(true),
  /** Review even when the gate check says a change is not worth it. */
  force: z.boolean().default(false),
  contextFiles: z.array(z.string()).default([]),
  models: z.record(z.enum(STAGED_STEPS as [string, ...string[]]), z.string()),
  concurrency: z.number().int().min(1).max(64),
  timeoutMs: z.number().int().min(1000),
  maxAttempts: z.number().int().min(1).max(20),
  effort: z.enum(['low', 'medium', 'high', 'xhigh', 'max']).optional(),
  apiKey: z.string().min(1),
  baseURL: z.string().optional(),
});
export type ReviewJob = z.infer<typeof ReviewJob>;
export type ReviewJobInput = z.input<typeof ReviewJob>;

export interface PreparedJob {
  scope: ResolvedScope;
  inventory: Inventory;
  context: ContextFile[];
  companions: number;
}

/** Step 0 and the project context: everything before the first model call. Needs no API key. */
export async function prepareJob(job: Pick<ReviewJob, 'cwd' | 'scope' | 'excludes' | 'contextFiles' | 'includeUntracked'>): Promise<PreparedJob> {
  const scope = await resolveScope(job.scope, { cwd: job.cwd, excludes: job.excludes, includeUntracked: job.includeUntracked });
  const context = await loadContextFiles(job.cwd, job.contextFiles);
  const inventory = scope.inventory;
  const companions = inventory.discovery.file_entries.filter((e) => e.companion_path).length;
  return { scope, inventory, context, companions };
}

/** Fails with a ScopeError when nothing is left to review, so no run starts and no report is written. */
export function assertReviewable(prepared: PreparedJob): void {
  if (prepared.inventory.discovery.file_entries.length > 0) return;
  const n = prepared.inventory.excluded.length;
  throw new ScopeError(n ? `nothing to review: all ${n} files found were excluded (${summarizeExclusions(prepared.inventory)})` : 'nothing to review: no files found');
}

export function summarizeExclusions(inventory: Inventory): string {
  const counts = new Map<string, number>();
  for (const e of inventory.excluded) counts.set(e.reason, (counts.get(e.reason) ?? 0) + 1);
  return [...counts].map(([reason, n]) => `${n} ${reason.replace(/_/g, ' ')}`).join(', ');
}

export function executeJob(job: ReviewJob, prepared: PreparedJob, emit: EmitFn, signal: AbortSignal): Promise<StagedResult> {
  return runStagedReview(
    {
      cwd: job.cwd,
      discovery: prepared.inventory.discovery,
      models: job.models as StepModels,
      apiKey: job.apiKey,
      baseURL: job.baseURL,
      concurrency: job.concurrency,
      timeoutMs: job.timeoutMs,
      maxAttempts: job.maxAttempts,
      effort: job.effort,
      contextFiles: prepared.context,
      ...(prepared.scope.changedRanges ? { changedRanges: prepared.scope.changedRanges } : {}),
      signal,
    },
    emit,
  );
}
