/** What every staged step needs: the runner, the models, the project context, and the file at hand. */
import type { z } from 'zod';
import type { CodeFunction } from '../../model/functions';
import { systemBlocks, userContent } from '../layout';
import { FILE_STEPS, stagedEffort, type Effort, type FileStep, type StepModels } from '../../model/models';
import type { LineRange } from '../../model/lines';
import type { Intent } from '../../model/intent';
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
import { fileSystem, STEP_DIRECTIVES } from './prompts';
import { fileRuleNames, fileRulesBlock, ruleKey } from './fileRules';
import type { Schedule } from './schedule';
import type { StartingFiles } from './startingFiles';
import type { Sharer } from '../sharers';

/** What a unit's request and result-cache key are made of: the same for a run and for its forecast (forecast.ts). */
export interface StageSetup {
  cache: UnitCache;
  models: StepModels;
  /** The run's chosen effort, if any (stagedEffort adds Steps 3 and 4's default). */
  effort?: Effort;
  context: ContextFile[];
  /** For the challenger: findings this team dismissed before, and why. */
  dismissalExamples: DismissalExample[];
  /** Files in the run, counted up to two: with two or more, the run-wide prefix is primed once per model where several calls share it. */
  files: number;
  /** The run's: the files that start together, whose count decides the prime of Step 1's run-wide prefix. */
  starting?: StartingFiles;
  /** Whether a unit's request fits its model's context window (the run's runner, or the forecast's guard). */
  fits: FitCheck;
}

export interface StageContext extends StageSetup {
  runner: SubAgentRunner;
  /** The order the run's calls are served in. */
  schedule: Schedule;
  /** Cuts the next part of a file whose request does not fit the window (fit.ts); false when none is left. */
  shrink: (file: FileUnderReview) => Promise<boolean>;
}

/** What fitting a file to the window takes: the setup and a way to cut (the run's context, or the forecast's). */
export type FitSetup = StageSetup & Pick<StageContext, 'shrink'>;

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
  /** What the change is for, as stated: quoted in the packets of Steps 1, 3 and 4. */
  intent?: Intent;
  /** Unchanged callers of the functions the change altered (by qualified name) or removed (`name (removed)`). */
  callers?: Record<string, string[]>;
  /** Start order of the file in the run: the scheduler finishes earlier files first. */
  order: number;
  /** The prefixes (model and system text, warmKey) a call about this file has been answered on this run: cached there. */
  warm: Set<string>;
  /** The parser's functions, exact lines: Step 2 is reconciled against them. Absent without a grammar. */
  inventory?: CodeFunction[];
  /** Too large to send whole: calls see the inventory as an outline, plus the lines each one is about. */
  outline?: boolean;
  /** Its outline too is too large: each call outlines only the functions it is about (fit.ts). */
  windowed?: boolean;
  /** Sent without the project context files, to fit the window (fit.ts). */
  withoutContext?: boolean;
  /** What was left out to fit the window, in the report's words (fit.ts). */
  cut: string[];
  /** Counts the cuts: a call refused as too long takes another only if none was taken since it was built. */
  view: number;
}

/** Records of a normal size fit well inside this; a batch of 8 functions × 8 verdicts is the largest. */
export const MAX_TOKENS = 16_000;
/** What a file step's record needs (docs/caching.md's figures: 250–500 tokens a step, 500 a function, 8 to a batch). */
export const MIN_TOKENS = 4_000;

/**
 * Beyond a first request's own max_tokens, room for what a later request of the unit adds: a step's packet,
 * a repair turn (the rejected answer and the errors). A turn that outgrows the window all the same keeps the
 * sound part of the last answer or is rebuilt smaller (runner.ts).
 */
export const REPLY_ROOM = 4_000;

/** The records each file step submits. */
const STEP_RECORDS: Record<FileStep, readonly z.ZodType[]> = {
  curate: [Step1Record],
  analyze: [FileAnalysis],
  review: [PerFunctionReview, BatchReview],
  challenge: [ChallengeResult],
};

/**
 * A file call's submit tools: the records of every file step its model runs. The tool list, like the one
 * system text, is then fixed per model, so every call about a file on that model shares its cached prefix,
 * and a model carries no tool of a step it never runs (by default the challenger runs on its own model).
 */
export const fileRecords = (models: StepModels, step: FileStep): readonly z.ZodType[] =>
  FILE_STEPS.filter((s) => models[s] === models[step]).flatMap((s) => STEP_RECORDS[s]);

/** A file step's line after the file: its step and the record it submits. */
export const stepInstructions = (step: FileStep, record: z.ZodType, rule?: string): string =>
  `${STEP_DIRECTIVES[step]} Answer with one call to the submit_${recordTitle(record)} tool.${rule ? `\n\n${rule}` : ''}`;

export interface FileCall<T> {
  label: string;
  record: z.ZodType<T>;
  packet: object;
  /** A rule for this step's call alone, said after its directive (fileRules.ts, stepRule). */
  rule?: string;
  check?: (value: T) => string[];
  /**
   * Default: the file's own text, its companion's path (not text), the context files, the step (with its rule),
   * the rules that apply to the file, and the packet.
   */
  cacheKey?: object | false;
  /** Several calls about this file start together on a model where it is not cached yet: prime it first, counted by this. */
  primeFile?: Sharer;
  /** For a file sent as an outline: the lines this call is about, sent in full. */
  excerpt?: LineRange[];
  /**
   * For a file outlined in windows: the lines whose functions this call's outline lists (default: the
   * excerpt's); a call with neither lists as many of the first functions as fit.
   */
  about?: LineRange[];
  /** Output budget, when the usual one is too small for this call's record; and the least it can do with. */
  maxTokens?: number;
  minTokens?: number;
}

/**
 * Who answers a file step's request: the run asks the model (fileCall); its forecast looks in the result
 * cache, where undefined is an answer known only once the run asks (walk.ts).
 */
export type Ask = <T>(step: FileStep, call: FileCall<T>) => Promise<UnitOutcome<T> | undefined>;

/** A sub-agent call about one file, in the cache-first layout (src/engine/layout.ts). */
export async function fileCall<T>(
  ctx: StageContext,
  file: FileUnderReview,
  step: FileStep,
  call: FileCall<T>,
): Promise<UnitOutcome<T>> {
  const spec = (): UnitSpec<T> => {
    const view = file.view;
    return {
      ...fileSpec(ctx, file, step, call),
      priority: ctx.schedule.priority(file.order, step),
      // Refused as too long: the next cut, unless another call of the file took one meanwhile.
      smaller: async () => (file.view !== view || (await ctx.shrink(file)) ? spec() : undefined),
    };
  };
  const outcome = await ctx.runner.run(spec());
  ctx.schedule.answered(file.order);
  if (outcome.ok && !outcome.cached) file.warm.add(warmKey(ctx.models, step));
  if (!outcome.ok && outcome.tooLong && file.cut.length)
    return { ...outcome, reason: `${outcome.reason}, even without ${file.cut.join(', ')}` };
  return outcome;
}

export function fileSpec<T>(ctx: StageSetup, file: FileUnderReview, step: FileStep, call: FileCall<T>): UnitSpec<T> {
  const inventory = file.outline ? file.inventory : undefined;
  const of = { file, step, call };
  if (!inventory || !file.windowed) return specWith(ctx, of, inventory);
  const about = call.about ?? call.excerpt;
  if (about)
    return specWith(
      ctx,
      of,
      inventory.filter((f) => about.some((r) => overlaps(f, r))),
    );
  // No lines of its own (Step 1): the longest run of the first functions that fits.
  const first = (n: number) => specWith(ctx, of, inventory.slice(0, n));
  let [lo, hi] = [0, inventory.length];
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (ctx.fits(first(mid), WINDOWED_ROOM)) lo = mid;
    else hi = mid - 1;
  }
  return first(lo);
}

/** Beside a windowed call that lists the first functions it can: room for the packet of a later turn. */
const WINDOWED_ROOM = 1_000;

const overlaps = (f: CodeFunction, [from, to]: LineRange) => f.start_line <= to && f.end_line >= from;

/** The call's request, with `listed` as the outline's functions when the file goes as an outline. */
function specWith<T>(
  ctx: StageSetup,
  { file, step, call }: { file: FileUnderReview; step: FileStep; call: FileCall<T> },
  listed: CodeFunction[] | undefined,
): UnitSpec<T> {
  const model = ctx.models[step];
  const instructions = stepInstructions(step, call.record, call.rule);
  const outline = listed
    ? { outline: { functions: listed, total: file.inventory!.length, excerpt: call.excerpt ?? [] } }
    : {};
  const context = file.withoutContext ? [] : ctx.context;
  const contextBlocks = context.length ? 1 : 0;
  const primeFirst = call.primeFile
    ? { key: `file:${model}:${file.entry.path}`, blocks: contextBlocks + 1, sharer: call.primeFile }
    : ctx.files > 1 && !file.warm.has(warmKey(ctx.models, step))
      ? { key: `run:${model}:${contextBlocks}`, blocks: contextBlocks, ...runSharer(ctx, file, step) }
      : undefined;
  return {
    step,
    label: call.label,
    file: file.entry.path,
    model,
    ...effortOf(ctx, step),
    system: systemBlocks(fileSystem(ctx.models, step), context),
    record: call.record,
    recordTools: fileRecords(ctx.models, step),
    content: userContent({
      context,
      primary: file.primary,
      companion: file.companion,
      ...outline,
      rules: fileRulesBlock(fileRuleNames(file)),
      instructions,
      packet: call.packet,
    }),
    tools: true,
    maxTokens: call.maxTokens ?? MAX_TOKENS,
    minTokens: call.minTokens ?? MIN_TOKENS,
    // A companion is context: its edits do not re-run the other file's steps (docs/caching.md says why).
    cacheKey: call.cacheKey ?? {
      step,
      instructions,
      context: ctx.context,
      primary: {
        path: file.primary.path,
        text: file.primary.text,
        // Only when set, so that the keys of a review of files stay what they were.
        ...(file.primary.removed ? { removed: file.primary.removed } : {}),
      },
      companion_path: file.entry.companion_path,
      ...ruleKey(file),
      packet: call.packet,
    },
    ...(primeFirst ? { primeFirst } : {}),
    ...(call.check ? { check: call.check } : {}),
  };
}

/**
 * Who counts the calls on the run-wide prefix: for Step 1, every file's first call, the files that start
 * together. A later step's first call on a model of its own (the challenger's, by default) has no count:
 * files reach it one by one as their earlier steps end, and whether another will while it starts is not
 * known, so the runner's short window decides.
 */
function runSharer(ctx: StageSetup, file: FileUnderReview, step: FileStep): { sharer?: Sharer } {
  return step === 'curate' && ctx.starting ? { sharer: ctx.starting.of(file.order) } : {};
}

/** A step's own effort, where it sends one (stagedEffort), for its spec and its result-cache key alike. */
export function effortOf(ctx: Pick<StageSetup, 'effort'>, step: FileStep): { effort?: Effort } {
  const effort = stagedEffort(step, ctx.effort);
  return effort ? { effort } : {};
}

/** What `warm` holds once a step's prefix is cached: its model (whose tool list and system text are one). */
export const warmKey = (models: StepModels, step: FileStep) => models[step];
