/** What every staged step needs: the runner, the models, the project context, and the file at hand. */
import type { z } from 'zod';
import type { CodeFunction } from '../../model/functions';
import { systemBlocks, userContent } from '../layout';
import type { FileStep, StepModels } from '../../model/models';
import type { LineRange } from '../../model/lines';
import {
  BatchReview,
  ChallengeResult,
  FileAnalysis,
  PerFunctionReview,
  Step1Record,
  type ContextFile,
  type FileEntry,
} from '../../model/records';
import { recordTitle, type FitCheck, type SubAgentRunner } from '../runner';
import type { UnitOutcome, UnitSpec } from '../unit';
import type { SourceFile } from '../source';
import type { UnitCache } from '../unitCache';
import { FILE_SYSTEM, STEP_DIRECTIVES } from './prompts';
import type { Schedule } from './schedule';

/** What a unit's request and result-cache key are made of: the same for a run and for its forecast (forecast.ts). */
export interface StageSetup {
  cache: UnitCache;
  models: StepModels;
  context: ContextFile[];
  /** For the challenger: findings this team dismissed before, and why. */
  dismissalExamples: DismissalExample[];
  /** Files in the run: with two or more, the run-wide prefix is primed once per model before they fan out. */
  files: number;
  /** Whether a unit's request fits its model's context window (the run's runner, or the forecast's guard). */
  fits: FitCheck;
}

export interface StageContext extends StageSetup {
  runner: SubAgentRunner;
  /** The order the run's calls are served in. */
  schedule: Schedule;
}

/** A finding a team dismissed, as the challenger sees it. */
export interface DismissalExample {
  rule_id: string;
  code: string;
  finding: string;
  reason: string;
  note: string;
}

export interface FileUnderReview {
  entry: FileEntry;
  primary: SourceFile;
  companion: SourceFile | null;
  /** Set for a diff review: the lines the change touched. */
  changedRanges?: LineRange[];
  /** Start order of the file in the run: the scheduler finishes earlier files first. */
  order: number;
  /** Models on which a call about this file has been answered this run: the file's prefix is cached there. */
  warm: Set<string>;
  /** The parser's functions, exact lines: Step 2 is reconciled against them. Absent without a grammar. */
  inventory?: CodeFunction[];
  /** Too large to send whole: calls see the inventory as an outline, plus the lines each one is about. */
  outline?: boolean;
}

/** Records of a normal size fit well inside this; a batch of 8 functions × 8 verdicts is the largest. */
export const MAX_TOKENS = 16_000;

/** Every record a file step submits: one fixed tool list for every call about a file, so it never splits the cached prefix. */
export const FILE_RECORDS = [Step1Record, FileAnalysis, PerFunctionReview, BatchReview, ChallengeResult] as const;

export interface FileCall<T> {
  label: string;
  record: z.ZodType<T>;
  packet: object;
  check?: (value: T) => string[];
  /** Default: the file's own text, its companion's path (not text), the context files, the step and the packet. */
  cacheKey?: object | false;
  /** Several calls about this file start together on a model where it is not cached yet: prime it first. */
  primeFile?: boolean;
  /** For a file sent as an outline: the lines this call is about, sent in full. */
  excerpt?: LineRange[];
  /** Output budget, when the usual one is too small for this call's record. */
  maxTokens?: number;
}

/** A sub-agent call about one file, in the cache-first layout (src/engine/layout.ts). */
export async function fileCall<T>(
  ctx: StageContext,
  file: FileUnderReview,
  step: FileStep,
  call: FileCall<T>,
): Promise<UnitOutcome<T>> {
  const model = ctx.models[step];
  const outcome = await ctx.runner.run({
    ...fileSpec(ctx, file, step, call),
    priority: ctx.schedule.priority(file.order, step),
  });
  ctx.schedule.answered(file.order);
  if (outcome.ok && !outcome.cached) file.warm.add(model);
  return outcome;
}

export function fileSpec<T>(ctx: StageSetup, file: FileUnderReview, step: FileStep, call: FileCall<T>): UnitSpec<T> {
  const model = ctx.models[step];
  const instructions = `${STEP_DIRECTIVES[step]} Answer with one call to the submit_${recordTitle(call.record)} tool.`;
  const outline =
    file.outline && file.inventory ? { outline: { functions: file.inventory, excerpt: call.excerpt ?? [] } } : {};
  const contextBlocks = ctx.context.length ? 1 : 0;
  const primeFirst = call.primeFile
    ? { key: `file:${model}:${file.entry.path}`, blocks: contextBlocks + 1 }
    : ctx.files > 1 && !file.warm.has(model)
      ? { key: `run:${model}`, blocks: contextBlocks }
      : undefined;
  return {
    step,
    label: call.label,
    file: file.entry.path,
    model,
    system: systemBlocks(FILE_SYSTEM, ctx.context),
    record: call.record,
    recordTools: FILE_RECORDS,
    content: userContent({
      context: ctx.context,
      primary: file.primary,
      companion: file.companion,
      ...outline,
      instructions,
      packet: call.packet,
    }),
    tools: true,
    maxTokens: call.maxTokens ?? MAX_TOKENS,
    // A companion is context: its edits do not re-run the other file's steps (docs/caching.md says why).
    cacheKey: call.cacheKey ?? {
      step,
      instructions,
      context: ctx.context,
      primary: { path: file.primary.path, text: file.primary.text },
      companion_path: file.entry.companion_path,
      packet: call.packet,
    },
    ...(primeFirst ? { primeFirst } : {}),
    ...(call.check ? { check: call.check } : {}),
  };
}
