/** The second phase of a run: the pipeline of the job's mode, its findings screened and floored. */
import type { EmitFn, ReviewResult } from '../model/events';
import { applyPriorityFloor, floorEvents } from './priorityFloor';
import type { Connection } from '../engine/connect';
import { batchLedgerFile, endpointMemoryFile } from './state';
import { EndpointMemory } from '../engine/endpointMemory';
import { FindingScreen, loadTeamFile } from './dismissals';
import { lensRequest, stagedParts, stagedRequest } from './jobRequest';
import type { EarlyJob, PreparedJob, ReviewJob } from './job';

/** What a run reports to and runs on. */
export interface ExecuteHooks {
  emit: EmitFn;
  signal: AbortSignal;
  connection: Connection;
  before?: Promise<unknown>;
}

/**
 * Runs the job's pipeline; findings dismissed before (team file, the user's list, inline comments) never come out.
 * An EarlyJob runs staged, each file as Step 0 judges it; `before` is what its `done` event waits for.
 */
export async function executeJob(
  job: ReviewJob,
  prepared: PreparedJob | EarlyJob,
  { emit, signal, connection, before }: ExecuteHooks,
): Promise<ReviewResult> {
  const teamFile = await loadTeamFile(job.cwd, (message) => emit({ type: 'warning', message }));
  const team = teamFile.dismissals;
  const changes = prepared.scope.changes;
  // Every file the change adds lines to, the team file included: a suppression it adds is named as such.
  const changed = changes && new Map(changes.files.map((f) => [f.path, f.ranges]));
  const screen = new FindingScreen(job.cwd, teamFile, job.dismissals ?? [], changed);
  const events = screen.events(floorEvents(emit, job.minPriority));
  const common = commonRequest(job, prepared, connection, signal);
  // Only the mode that runs is loaded.
  const { lens } = job;
  const staged = async () => (await import('../engine/staged')).runStagedReview;
  const raw =
    'files' in prepared
      ? await (
          await staged()
        )({ ...common, ...stagedParts(job, prepared, team), files: prepared.files }, events)
      : lens
        ? await (
            await import('../engine/lenses')
          ).runLensReview({ ...common, ...lensRequest({ ...job, lens }, prepared) }, events)
        : await (
            await staged()
          )({ ...common, ...stagedRequest(job, prepared, team) }, events);
  const result = applyPriorityFloor(screen.result(raw), job.minPriority);
  await before;
  emit({ type: 'done', result });
  return result;
}

/** The part of the request both modes share: where, what may be read, the ceilings, the cache, the transport. */
function commonRequest(job: ReviewJob, prepared: PreparedJob | EarlyJob, connection: Connection, signal: AbortSignal) {
  return {
    cwd: job.cwd,
    access: prepared.access,
    ...(job.maxCalls ? { maxCalls: job.maxCalls } : {}),
    ...(job.maxCostUsd ? { maxCostUsd: job.maxCostUsd } : {}),
    connection,
    maxConcurrency: job.maxConcurrency,
    maxAttempts: job.maxAttempts,
    signal,
    ...(job.cacheDir ? { cacheDir: job.cacheDir } : {}),
    ...(job.prices ? { prices: job.prices } : {}),
    ...(job.refresh ? { refresh: true } : {}),
    // What the endpoint refused (only a server behind a base URL does) and the windows it states.
    ...(job.stateDir
      ? { memory: new EndpointMemory(endpointMemoryFile(job.stateDir), connection.endpoint, job.refresh) }
      : {}),
    ...(job.batch
      ? {
          batch: {
            ...job.batch,
            ...(job.stateDir ? { ledgerFile: batchLedgerFile(job.stateDir) } : {}),
            review: `${job.mode ?? 'staged'} review of ${prepared.scope.description}`,
          },
        }
      : {}),
  };
}
