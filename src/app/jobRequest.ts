/** A job and its PreparedJob projected into the request of its mode (staged or lenses). */
import type { Intent } from '../model/intent';
import type { ContextFile } from '../model/records';
import type { LensTargetSpec } from '../engine/lenses';
import { challengeExamples, type Dismissal } from '../model/dismissals';
import { inventoryLookup, quickFunctionCount } from './inventories';
import type { ResolvedScope } from './resolveScope';
import type { EarlyJob, LensOptions, PreparedJob, ReviewJob } from './job';

/** How many dismissals with a reason the challenger sees as examples of what this team does not want. */
const CHALLENGE_EXAMPLES = 8;

/** The staged part of a staged run's request (StagedRequest): the same for the run, its forecast and its estimate. */
export function stagedRequest(
  job: Pick<ReviewJob, 'cwd' | 'models' | 'effort' | 'dismissals' | 'intent'>,
  prepared: PreparedJob,
  team: Dismissal[],
) {
  return { discovery: prepared.inventory.discovery, ...stagedParts(job, prepared, team) };
}

/** The request without its files: a streamed run gives them as Step 0 judges them, the others as its inventory. */
export function stagedParts(
  job: Pick<ReviewJob, 'cwd' | 'models' | 'effort' | 'dismissals' | 'intent'>,
  prepared: PreparedJob | EarlyJob,
  team: Dismissal[],
) {
  return {
    models: job.models,
    effort: job.effort,
    context: prepared.context,
    ...(prepared.scope.changedRanges ? { changedRanges: prepared.scope.changedRanges } : {}),
    ...(prepared.scope.removedLines ? { removedLines: prepared.scope.removedLines } : {}),
    ...intentOf(job, prepared.scope),
    ...(prepared.callers ? { callers: prepared.callers } : {}),
    dismissalExamples: challengeExamples([...team, ...(job.dismissals ?? [])], CHALLENGE_EXAMPLES),
    inventoryOf: inventoryLookup(prepared.access),
    countFunctions: quickFunctionCount,
  };
}

/** The lens-specific part of a lens run's request. */
export function lensRequest(job: Pick<ReviewJob, 'force' | 'intent'> & { lens: LensOptions }, prepared: PreparedJob) {
  const { lens } = job;
  const repos = prepared.repositories;
  const reviewed = repos ? repos.filter((r) => job.force || !r.scope.skip) : [];
  const targets = repos
    ? reviewed.map((r) => targetSpec(r.path, r.scope, [...prepared.context, ...r.context], job))
    : [
        {
          ...targetSpec(null, prepared.scope, prepared.context, job),
          ...(prepared.callers ? { callers: prepared.callers } : {}),
        },
      ];
  const forced = (repos ? reviewed.map((r) => r.scope) : [prepared.scope]).flatMap((s) =>
    s.skip ? [s.skip.line] : [],
  );
  return {
    targets,
    context: prepared.context,
    description: prepared.scope.description,
    models: lens.models,
    fullFanout: lens.fullFanout,
    maxReviewers: lens.maxReviewers,
    spec: prepared.spec?.path ?? null,
    rubric: prepared.rubric && { path: prepared.rubric.path, text: prepared.rubric.text },
    gate: forced.length
      ? { passed: false, reason: `${forced.join('; ')} (reviewed anyway: --force)` }
      : { passed: true, reason: null },
    skippedRepositories: (repos ?? [])
      .filter((r) => !reviewed.includes(r))
      .map((r) => ({ repository: r.path, reason: r.scope.skip?.line ?? '' })),
    effort: lens.effort,
  };
}

/** The intent the user stated, else the change's own (a pull request's title and description, a range's commit subjects). */
function intentOf(job: Pick<ReviewJob, 'intent'>, scope: Pick<ResolvedScope, 'changes'>): { intent?: Intent } {
  const intent = job.intent ?? scope.changes?.intent;
  return intent ? { intent } : {};
}

function targetSpec(
  repository: string | null,
  scope: ResolvedScope,
  context: ContextFile[],
  job: Pick<ReviewJob, 'intent'>,
): LensTargetSpec {
  const pr = scope.changes?.pr;
  return {
    repository,
    description: scope.description,
    reviewRoots: scope.inventory.discovery.review_roots,
    paths: scope.inventory.discovery.file_entries.map((e) => e.path),
    ...(scope.changedRanges ? { changedRanges: scope.changedRanges } : {}),
    ...(scope.removedLines ? { removedLines: scope.removedLines } : {}),
    ...(scope.changes ? { changedLines: scope.changes.changedLines } : {}),
    ...(pr ? { pr: { number: pr.number, title: pr.title, body: pr.body } } : {}),
    ...intentOf(job, scope),
    context,
  };
}
