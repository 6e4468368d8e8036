/**
 * The three kinds of lens call — a reviewer over one part of a scope, a validator over one finding, the
 * cross-repo check — each through the shared SubAgentRunner, with the citation check that sends a reply
 * citing a file outside the scope, or a line that does not exist, back for repair.
 */
import type { ContextFile } from '../../model/records';
import type { RoomCheck, SubAgentRunner } from '../runner';
import type { UnitOutcome, UnitSpec } from '../unit';
import type { Sharer } from '../sharers';
import { lineErrors, type SourceFile } from '../source';
import type { Chunk } from './chunks';
import type { MergedFinding } from '../../model/lens';
import { contextPrefix, lensContent, sharedPrefix } from './layout';
import type { LensModels } from '../../model/models';
import { BRIEFS, LENS_SYSTEM, VALIDATOR_BRIEF } from './prompts';
import { LensReview, LensValidation, type LensFinding } from '../../model/lensRecords';
import { CROSS_REPO, type ReviewerName } from '../../model/reviewers';
import type { LensTarget } from './target';
import { intentPacket } from '../../model/intent';

export interface LensCallContext {
  /** Reviewers and the cross-repo check, at the run's effort. */
  runner: SubAgentRunner;
  /** Validators: the small model, at its default effort. */
  validatorRunner: SubAgentRunner;
  models: LensModels;
}

/** A reviewer's findings run long on a big scope (in a small window, down to the least); a validator answers in one line. */
const REVIEW_MAX_TOKENS = 32_000;
const REVIEW_MIN_TOKENS = 8_000;
/** Beyond a reviewer's least output budget: room for a repair turn (the rejected answer and the errors). */
const TURN_ROOM = 4_000;
const VALIDATOR_MAX_TOKENS = 1_024;
const MAX_LISTED_FILES = 20;

/** One part of a target, with the prefix every call over it shares. */
export interface Part {
  target: LensTarget;
  chunk: Chunk;
  prefix: ReturnType<typeof sharedPrefix>;
}

export function partOf(target: LensTarget, chunk: Chunk): Part {
  return { target, chunk, prefix: sharedPrefix(target, chunk) };
}

export function partLabel(part: Part): string {
  const repo = part.target.repository ? ` ${part.target.repository}` : '';
  return `${repo}${part.chunk.of > 1 ? ` part ${part.chunk.index}/${part.chunk.of}` : ''}`;
}

function packetBase(part: Part) {
  const { target, chunk } = part;
  return {
    review_target: target.description,
    ...intentPacket(target.intent),
    ...callersIn(part),
    ...(target.repository ? { repository: target.repository } : {}),
    ...(chunk.of > 1 ? { part: `${chunk.index}/${chunk.of}` } : {}),
  };
}

/** The callers of the part's changed functions, by file: what the change may break outside its lines. */
function callersIn({ target, chunk }: Part) {
  const found = chunk.files.flatMap((f) => {
    const callers = target.callers?.get(f.path);
    return callers ? [[f.path, callers] as const] : [];
  });
  return found.length ? { callers: Object.fromEntries(found) } : {};
}

/**
 * A reviewer's call over a part. `sharer`: given where other reviewers on its model review the part too; then
 * one prime writes their common prefix (all but the brief) before they start, if two or more of them go to
 * the model, and each reads it.
 */
export function reviewPart(
  ctx: LensCallContext,
  part: Part,
  reviewer: ReviewerName,
  sharer?: Sharer,
): Promise<UnitOutcome<LensReview>> {
  const spec = reviewSpec(ctx.models, part, reviewer);
  const primeFirst = { key: `${spec.model}:${partLabel(part)}`, blocks: spec.content.length - 1, sharer };
  return ctx.runner.run(sharer ? { ...spec, primeFirst } : spec);
}

/** The scope tokens a part of `target` may carry: what its reviewers' requests, and a validator's, leave in their windows. */
export type ScopeRoom = (target: LensTarget, reviewers: readonly ReviewerName[]) => number;

export function scopeRoom(models: LensModels, room: RoomCheck): ScopeRoom {
  return (target, reviewers) => {
    const empty = partOf(target, { index: 1, of: 1, files: [] });
    const specs = reviewers.flatMap((r) => {
      const spec = reviewSpec(models, empty, r);
      return [spec, { ...spec, model: models.validator }];
    });
    return Math.min(...specs.map((spec) => room(spec))) - TURN_ROOM;
  };
}

function reviewSpec(models: LensModels, part: Part, reviewer: ReviewerName): UnitSpec<LensReview> {
  return {
    label: `lens ${reviewer}${partLabel(part)}`,
    step: reviewer,
    model: models[reviewer],
    system: LENS_SYSTEM,
    record: LensReview,
    content: lensContent(part.prefix, BRIEFS[reviewer], { reviewer, ...packetBase(part) }),
    tools: true,
    maxTokens: REVIEW_MAX_TOKENS,
    minTokens: REVIEW_MIN_TOKENS,
    check: (r) => citationErrors(r.findings, part.chunk.files),
  };
}

export function validateFinding(
  ctx: LensCallContext,
  part: Part,
  f: MergedFinding,
): Promise<UnitOutcome<LensValidation>> {
  return ctx.validatorRunner.run({
    label: `validator ${f.file}:${f.line}`,
    step: 'validator',
    model: ctx.models.validator,
    system: LENS_SYSTEM,
    record: LensValidation,
    content: lensContent(part.prefix, VALIDATOR_BRIEF, {
      file_path: f.file,
      line: f.line,
      severity: f.severity,
      title: f.title,
      evidence: f.evidence,
      raised_by: f.reviewers,
      ...packetBase(part),
    }),
    tools: true,
    maxTokens: VALIDATOR_MAX_TOKENS,
  });
}

/** The per-repository picture the cross-repo check reasons over: changed files and the findings kept. */
export interface RepositorySummary {
  target: LensTarget;
  findings: MergedFinding[];
}

export function crossRepoCheck(
  ctx: LensCallContext,
  context: ContextFile[],
  description: string,
  repos: RepositorySummary[],
): Promise<UnitOutcome<LensReview>> {
  const packet = {
    reviewer: CROSS_REPO,
    review_target: description,
    repositories: repos.map(({ target, findings }) => ({
      repository: target.repository,
      scope: target.description,
      changed_files: target.files.map((f) => ({
        path: f.path,
        changed_ranges: target.changedRanges?.get(f.path) ?? [],
      })),
      findings: findings.map((f) => ({ severity: f.severity, file: f.file, line: f.line, title: f.title })),
    })),
  };
  return ctx.runner.run({
    label: 'cross-repo check',
    step: CROSS_REPO,
    model: ctx.models[CROSS_REPO],
    system: LENS_SYSTEM,
    record: LensReview,
    content: lensContent(contextPrefix(context), BRIEFS[CROSS_REPO], packet),
    tools: true,
    maxTokens: REVIEW_MAX_TOKENS,
    check: (r) =>
      citationErrors(
        r.findings,
        repos.flatMap((x) => x.target.files),
      ),
  });
}

/** Every finding must cite a file it was shown, at a line that exists. */
export function citationErrors(findings: LensFinding[], files: SourceFile[]): string[] {
  const lineCounts = new Map(files.map((f) => [f.path, f.lines.length]));
  return findings.flatMap((f, i) => {
    const count = lineCounts.get(f.file);
    if (count !== undefined) return lineErrors(`findings.${i} (${f.file})`, f.line, count);
    const shown = [...lineCounts.keys()];
    const list =
      shown.slice(0, MAX_LISTED_FILES).join(', ') +
      (shown.length > MAX_LISTED_FILES ? `, … (${shown.length} in all)` : '');
    return [`findings.${i}: "${f.file}" is not among the files under review; cite one of: ${list}`];
  });
}
