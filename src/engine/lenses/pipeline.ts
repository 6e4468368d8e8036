/**
 * Lens mode: the routed reviewers run in parallel over every part of every target, each reply passes the
 * confidence floor; findings are kept to the change, merged per file:line, validated (full fan-out),
 * checked across repositories (multi-repo), and marked against a rubric. A reviewer that fails after its
 * retries and repairs is named as missing; the rest of the review stands.
 */
import { ReviewRun, type RunRequest } from '../reviewRun';
import type { EmitFn, FileOutcome, LensProgressStep, LensResult, LensTargetOutcome } from '../../model/events';
import type { ContextFile } from '../../model/records';
import type { UnitOutcome } from '../unit';
import { PrefixSharers, type Sharer } from '../sharers';
import type { FailedUnit } from '../../model/finding';
import {
  crossRepoCheck,
  partLabel,
  reviewPart,
  scopeRoom,
  validateFinding,
  type LensCallContext,
  type Part,
} from './calls';
import { noiseRules, type NoiseRules } from '../noise';
import { keepOnChange, mergeFindings, screenFindings } from './findings';
import {
  severityCounts,
  sortLensFindings as sortFindings,
  toFinding,
  type MergedFinding,
  type RaisedFinding,
} from '../../model/lens';
import type { Effort, LensModels } from '../../model/models';
import { planTarget, type Planned, type PlanOptions } from './targetPlan';
import { LENS_PROMPT_VERSION } from './promptVersion';
import { markRubric } from './rubric';
import { CROSS_REPO, type ReviewerName } from '../../model/reviewers';
import { loadTarget, type LensTargetSpec } from './target';
import { applyValidation, pickForValidation, summarizeValidation } from './validators';
import type { LensFinding } from '../../model/lensRecords';

export interface LensRequest extends PlanOptions, RunRequest {
  cwd: string;
  /** One per repository in a multi-repo run; otherwise one. */
  targets: LensTargetSpec[];
  /** The project context every target shares (the cross-repo check sees only this). */
  context: ContextFile[];
  description: string;
  models: LensModels;
  rubric: { path: string; text: string } | null;
  gate: { passed: boolean; reason: string | null };
  /** Repositories the gate check left out of a multi-repo run. */
  skippedRepositories: Array<{ repository: string; reason: string }>;
  effort?: Effort;
}

interface ReviewedUnit {
  part: Part;
  reviewer: ReviewerName;
  raised: RaisedFinding[];
  lowConfidence: number;
  /** The categories of the findings the noise filter removed. */
  noise: string[];
  failed?: FailedUnit;
}

/** What every phase of one lens run shares. */
interface LensRun {
  req: LensRequest;
  run: ReviewRun;
  ctx: LensCallContext;
  progress: ReturnType<typeof progressOf>;
  rules: NoiseRules;
  /** Units that could not be done (unreadable files, failed reviewers, the cross-repo check), in order. */
  failed: FailedUnit[];
}

/** One target's findings after the change filter, and the reviewers that went missing on it. */
interface TargetFindings {
  plan: Planned;
  findings: MergedFinding[];
  missing: ReviewerName[];
}

export async function runLensReview(req: LensRequest, emit: EmitFn): Promise<LensResult> {
  const run = new ReviewRun(req, emit, LENS_PROMPT_VERSION);
  const ctx: LensCallContext = { runner: run.runner(req.effort), validatorRunner: run.runner(), models: req.models };
  const loaded = await Promise.all(req.targets.map((t) => loadTarget(req.access, t)));
  const lens: LensRun = {
    req,
    run,
    ctx,
    progress: progressOf(emit),
    rules: noiseRules(req.context),
    failed: loaded.flatMap((l) => l.failed),
  };
  const planned = { ...req, scopeRoom: scopeRoom(req.models, ctx.runner.room) };
  const plans = loaded.map(({ target }) => planTarget(target, planned));

  const reviewed = await reviewParts(lens, plans);
  lens.failed.push(...reviewed.flatMap((u) => (u.failed ? [u.failed] : [])));
  const { perTarget, outsideChange } = keptToChange(plans, reviewed);
  const merged = sortFindings(perTarget.flatMap((t) => t.findings));
  const final = await validated(lens, plans, merged);
  const validation = summarizeValidation(merged, final, req.fullFanout);
  const lowConfidence = countLowConfidence(reviewed);
  const noiseCategories = reviewed.flatMap((u) => u.noise);
  const cross = await crossRepoFindings(lens, perTarget, final);
  if (cross.lowConfidence) lowConfidence[CROSS_REPO] = cross.lowConfidence;
  noiseCategories.push(...cross.noise);

  const all = sortFindings([...final, ...cross.kept]);
  const findings = all.map(toFinding);
  for (const finding of findings) emit({ type: 'finding', finding });
  const targets = targetOutcomes(perTarget);
  const failed = lens.failed;
  const result: LensResult = {
    mode: 'lenses',
    scope: req.description,
    reviewRoots: req.targets.flatMap((t) => t.reviewRoots),
    files: fileOutcomes(req.targets, reviewed, failed),
    models: usedModels(req, targets, validation.performed),
    effort: req.effort ?? null,
    targets,
    reviewers: [...new Set(targets.flatMap((t) => t.reviewers))],
    missingReviewers: [
      ...new Set([
        ...targets.flatMap((t) => t.missingReviewers),
        ...(failed.some((u) => u.step === CROSS_REPO) ? [CROSS_REPO] : []),
      ]),
    ],
    lensFindings: final,
    crossRepo: cross.kept,
    findings,
    lowConfidence,
    noiseDropped: countBy(noiseCategories),
    outsideChange,
    validation,
    gateCheck: req.gate,
    skippedRepositories: req.skippedRepositories,
    spec:
      req.spec ??
      (req.targets.length === 1 && req.targets[0]!.pr?.body.trim()
        ? `PR #${req.targets[0]!.pr.number} description`
        : null),
    rubric: req.rubric ? markRubric(req.rubric.path, req.rubric.text, severityCounts(all)) : null,
    failed,
    ...run.close(),
  };
  emit({ type: 'done', result });
  return result;
}

/** A fatal API answer stops the whole run; cancellation ends a unit quietly. */
function guarded<T>(lens: LensRun, work: () => Promise<UnitOutcome<T>>): Promise<UnitOutcome<T>> {
  return lens.run.guard(work, (reason): UnitOutcome<T> => ({ ok: false, reason }));
}

/**
 * The reviewers: every (target, reviewer, part) at once; the client's concurrency limit paces them. Each
 * reply passes the confidence floor and the noise rules.
 */
async function reviewParts(lens: LensRun, plans: Planned[]): Promise<ReviewedUnit[]> {
  const units = plans.flatMap((p) =>
    p.routing.reviewers.flatMap((reviewer) => p.parts.map((part) => ({ part, reviewer }))),
  );
  lens.progress.total('reviewers', units.length);
  const sharers = prefixSharers(units, lens.ctx.models);
  return Promise.all(
    units.map(async ({ part, reviewer }): Promise<ReviewedUnit> => {
      const outcome = await guarded(lens, () => reviewPart(lens.ctx, part, reviewer, sharers(part, reviewer)));
      lens.progress.advance('reviewers');
      const unit = { part, reviewer, raised: [], lowConfidence: 0, noise: [] };
      if (!outcome.ok)
        return {
          ...unit,
          failed: { step: reviewer, file: null, unit: `lens ${reviewer}${partLabel(part)}`, reason: outcome.reason },
        };
      const { kept, lowConfidence, noise } = screenFindings(outcome.value.findings, lens.rules);
      return {
        ...unit,
        raised: kept.map((finding) => ({ reviewer, repository: part.target.repository, finding })),
        lowConfidence,
        noise,
      };
    }),
  );
}

/** Per part and model, the reviewers that share its prefix, where two or more do: they count which of them call. */
function prefixSharers(
  units: { part: Part; reviewer: ReviewerName }[],
  models: LensModels,
): (part: Part, reviewer: ReviewerName) => Sharer | undefined {
  const groups = new Map<Part, Map<string, PrefixSharers>>();
  for (const { part, reviewer } of units) {
    const model = models[reviewer];
    const planned = units.filter((u) => u.part === part && models[u.reviewer] === model).length;
    if (planned < 2) continue;
    const byModel = groups.get(part) ?? new Map<string, PrefixSharers>();
    if (!byModel.has(model)) byModel.set(model, new PrefixSharers(planned));
    groups.set(part, byModel);
  }
  return (part, reviewer) => groups.get(part)?.get(models[reviewer])?.sharer();
}

/** Per target: its reviewers' findings merged by file:line and kept to the change; how many the change dropped. */
function keptToChange(
  plans: Planned[],
  reviewed: ReviewedUnit[],
): { perTarget: TargetFindings[]; outsideChange: number } {
  let outsideChange = 0;
  const perTarget = plans.map((p) => {
    const mine = reviewed.filter((u) => u.part.target === p.target);
    const inChange = keepOnChange(mergeFindings(mine.flatMap((u) => u.raised)), p.target.changedRanges);
    outsideChange += inChange.dropped;
    return {
      plan: p,
      findings: inChange.kept,
      missing: [...new Set(mine.filter((u) => u.failed).map((u) => u.reviewer))],
    };
  });
  return { perTarget, outsideChange };
}

/** Full fan-out: one validator per CRITICAL/HIGH finding, over the part that holds its file; else as they are. */
async function validated(lens: LensRun, plans: Planned[], merged: MergedFinding[]): Promise<MergedFinding[]> {
  if (!lens.req.fullFanout || lens.run.aborted) return merged;
  const chosen = pickForValidation(merged);
  lens.progress.total('validators', chosen.length);
  const partFor = new Map(
    plans.flatMap((p) => p.parts.flatMap((part) => part.chunk.files.map((f) => [f.path, part] as const))),
  );
  const verdicts = new Map(
    await Promise.all(
      chosen.map(async (f) => {
        const outcome = await guarded(lens, () => validateFinding(lens.ctx, partFor.get(f.file)!, f));
        lens.progress.advance('validators');
        return [f, applyValidation(f, outcome)] as const;
      }),
    ),
  );
  return sortFindings(merged.map((f) => verdicts.get(f) ?? f));
}

/** The cross-repo check (more than one repository): one call over every repository's changes and findings. */
async function crossRepoFindings(
  lens: LensRun,
  perTarget: TargetFindings[],
  final: MergedFinding[],
): Promise<{ kept: MergedFinding[]; lowConfidence: number; noise: string[] }> {
  const none = { kept: [], lowConfidence: 0, noise: [] };
  if (perTarget.length <= 1 || lens.run.aborted) return none;
  lens.progress.total('cross-repo', 1);
  const summaries = perTarget.map((t) => ({
    target: t.plan.target,
    findings: final.filter((f) => f.repository === t.plan.target.repository),
  }));
  const { req, ctx } = lens;
  const outcome = await guarded(lens, () => crossRepoCheck(ctx, req.context, req.description, summaries));
  lens.progress.advance('cross-repo');
  if (!outcome.ok) {
    lens.failed.push({ step: CROSS_REPO, file: null, unit: 'cross-repo check', reason: outcome.reason });
    return none;
  }
  const screened = screenFindings(outcome.value.findings, lens.rules);
  return {
    ...screened,
    kept: ownedFindings(
      screened.kept,
      perTarget.map((t) => t.plan),
    ),
  };
}

function targetOutcomes(perTarget: TargetFindings[]): LensTargetOutcome[] {
  return perTarget.map(({ plan, missing }) => ({
    repository: plan.target.repository,
    description: plan.target.description,
    files: plan.target.files.map((f) => f.path),
    routing: plan.routing.decisions,
    reviewers: plan.routing.reviewers,
    missingReviewers: missing,
    parts: plan.parts.length,
  }));
}

/** Cross-repo findings, each attributed to the repository of the file it cites. */
function ownedFindings(kept: LensFinding[], plans: Planned[]): MergedFinding[] {
  const owner = new Map(plans.flatMap((p) => p.target.files.map((f) => [f.path, p.target.repository] as const)));
  return mergeFindings(
    kept.map((finding) => ({ reviewer: CROSS_REPO, repository: owner.get(finding.file) ?? null, finding })),
  );
}

/** A file is reviewed when at least one reviewer finished the part that holds it. */
function fileOutcomes(specs: LensTargetSpec[], units: ReviewedUnit[], failed: FailedUnit[]): FileOutcome[] {
  const covered = new Set(units.filter((u) => !u.failed).flatMap((u) => u.part.chunk.files.map((f) => f.path)));
  const unread = new Map(failed.filter((u) => u.step === 'read').map((u) => [u.file, u.reason]));
  return specs.flatMap((t) =>
    t.paths.map((path): FileOutcome => {
      const reason = unread.get(path) ?? (covered.has(path) ? undefined : 'every reviewer failed on it');
      return {
        path,
        companion_path: null,
        status: reason ? 'failed' : 'reviewed',
        functions_reviewed: 0,
        ...(reason ? { reason } : {}),
      };
    }),
  );
}

function countBy(keys: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const k of keys) counts[k] = (counts[k] ?? 0) + 1;
  return counts;
}

function countLowConfidence(units: ReviewedUnit[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const u of units) if (u.lowConfidence) counts[u.reviewer] = (counts[u.reviewer] ?? 0) + u.lowConfidence;
  return counts;
}

function usedModels(req: LensRequest, targets: LensTargetOutcome[], validated: boolean): Record<string, string> {
  const roles = [
    ...new Set(targets.flatMap((t) => t.reviewers)),
    ...(validated ? ['validator'] : []),
    ...(targets.length > 1 ? [CROSS_REPO] : []),
  ];
  return Object.fromEntries(roles.map((r) => [r, req.models[r as keyof LensModels]]));
}

const TITLES: Record<LensProgressStep, string> = {
  reviewers: 'Reviewers',
  validators: 'Validators',
  'cross-repo': 'Cross-repo check',
};

/** "Reviewers · 2/3 done": counters whose totals are known before each phase starts. */
function progressOf(emit: EmitFn) {
  const counts = new Map<LensProgressStep, { done: number; total: number }>();
  const get = (step: LensProgressStep) => counts.get(step) ?? counts.set(step, { done: 0, total: 0 }).get(step)!;
  return {
    total: (step: LensProgressStep, n: number) => void (get(step).total += n),
    advance(step: LensProgressStep) {
      const c = get(step);
      c.done++;
      emit({
        type: 'progress',
        step,
        done: c.done,
        total: c.total,
        message: `${TITLES[step]} · ${c.done}/${c.total} done`,
      });
    },
  };
}
