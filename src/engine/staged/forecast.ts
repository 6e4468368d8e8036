/**
 * What a staged run will ask the model, before it runs: file by file, which units the result cache already
 * answers. It walks the run's own steps with the run's own requests and keys (curateCall, analyzeCall,
 * recallReviews, challengeCall, synthesizeWith, all through UnitCache), so a unit counts as cached exactly
 * when the run would take it from the cache. Where a step's input depends on an answer that is not cached
 * (Step 1 or 2 of an edited file), it goes on with the last answers kept for the path (lastAnswers.ts):
 * the functions' roles, lines from the parser and which ones go solo are most likely what they were, so the
 * Step 3 keys computed from them say which functions the edit touched. Without either, the file is left
 * for the estimate to size by its rules (`unknownFrom`).
 */
import type { Finding } from '../../model/finding';
import type { FileOutcome } from '../../model/events';
import type { ChallengeResult, FileAnalysis, PerFunctionReview, Step1Record } from '../../model/records';
import { mapLimit } from '../../model/pool';
import { ResultCache } from '../resultCache';
import { UnitCache } from '../unitCache';
import { analyzeCall, analyzeParts, settleAnalysis } from './analyze';
import { mergeParts } from './analyzeParts';
import { fitFile, shrink } from './fit';
import { planReviews } from './batching';
import { challengeCall } from './challenge';
import type { FileStep } from '../../model/models';
import { fileSpec, warmKey, type FileCall, type FileUnderReview, type FitSetup } from './context';
import { curateCall, settleStep1 } from './curate';
import { functionsTouched } from './diffScope';
import { LastAnswers, lastAnswersKey } from './lastAnswers';
import {
  afterChallenge,
  findingsToChallenge,
  loadFile,
  synthesisInput,
  syntaxInventory,
  type StagedRequest,
} from './pipeline';
import { STAGED_PROMPT_VERSION } from './promptVersion';
import { primesFile, recallReviews } from './review';
import { plannedSynthesisCalls } from './synthesize';
import { fitCheck } from '../runner';
import { WindowGuard } from '../window';

export type ForecastRequest = Pick<
  StagedRequest,
  | 'discovery'
  | 'models'
  | 'effort'
  | 'context'
  | 'changedRanges'
  | 'removedLines'
  | 'intent'
  | 'callers'
  | 'dismissalExamples'
  | 'inventoryOf'
  | 'access'
  | 'cacheDir'
  | 'prices'
> & {
  /** Requests are sized as where the provider counts tokens (engine/endpointWindow.ts), as the run will size them. */
  tokenCounting?: boolean;
};

export type StepCounts = Record<FileStep, number>;
export const noCounts = (): StepCounts => ({ curate: 0, analyze: 0, review: 0, challenge: 0 });

export interface FileForecast {
  path: string;
  /** Units the cache answers: Steps 1, 2 and 4 one each, Step 3 one per function. */
  cached: StepCounts;
  /** Calls the run will make: Steps 1, 2 and 4 one each, Step 3 one per solo function or batch (primes apart). */
  calls: StepCounts;
  /** Step 3 functions those review calls cover. */
  functionsAsked: number;
  /** Nothing is known from this step on (no cached answer, no earlier one for the path): the estimate sizes it. */
  unknownFrom?: 'curate' | 'analyze';
  /** One-token calls that write the file's prefix before its Step 3 calls fan out (see review.ts). */
  primes: number;
}

export interface StagedForecast {
  files: FileForecast[];
  /** Whether synthesis will run, and whether the cache answers it. */
  synthesis: 'none' | 'cached' | 'asked';
  /**
   * When asked, and every file's records are known or predicted (its last answers): the calls synthesis will
   * make over them, by parts when they do not fit one request. Absent: the estimate sizes it.
   */
  synthesisCalls?: number;
}

/** The file's outcome as far as the cache knows it; `exact` while every unit so far was answered from the cache. */
interface Walked {
  forecast: FileForecast;
  outcome: Pick<FileOutcome, 'path' | 'step1' | 'analysis'>;
  findings: Finding[];
  lineCount: number;
  exact: boolean;
  /** A file that will reach Step 2 (known or predicted), so synthesis will run. */
  analysed: boolean;
}

const WALKS_AT_ONCE = 16;

export async function forecastStagedRun(req: ForecastRequest): Promise<StagedForecast> {
  const cache = new UnitCache(
    STAGED_PROMPT_VERSION,
    req.cacheDir ? new ResultCache(req.cacheDir, undefined, true) : undefined,
    req.effort,
  );
  const ctx: FitSetup = {
    shrink: (file) => shrink(file, (path) => syntaxInventory(req, path)),
    cache,
    models: req.models,
    ...(req.effort ? { effort: req.effort } : {}),
    context: req.context,
    dismissalExamples: req.dismissalExamples ?? [],
    files: req.discovery.file_entries.length,
    fits: fitCheck(new WindowGuard(req.prices, {}, req.tokenCounting), req.effort),
  };
  const entries = req.discovery.file_entries;
  // Most files of a large tree have no last answers kept (none before its first review): the cache's listing
  // says which, without a walk each (nor, when it holds nothing, a key each).
  const kept = (await cache.holdsAny())
    ? await cache.mayHold(entries.map((entry) => lastAnswersKey(cache, entry.path)))
    : [];
  // A few files at a time: each walk holds its file's text.
  const walked = await mapLimit(entries, WALKS_AT_ONCE, async (entry, order) =>
    kept[order] ? walkFile(ctx, req, entry, order) : notKept(entry.path),
  );
  const files = walked.map((w) => w.forecast);
  if (!walked.some((w) => w.analysed)) return { files, synthesis: 'none' };
  // An analysis not known (nor predicted): synthesis is asked, and the estimate sizes it.
  if (!walked.every((w) => !w.analysed || w.outcome.analysis !== undefined)) return { files, synthesis: 'asked' };
  // A record that is only predicted (a last answer) will be asked again, and a model does not repeat itself
  // word for word: marked, so that the part holding it is not found in the cache, as it will not be.
  const input = synthesisInput(
    req,
    walked.map((w) => (w.exact ? w : { ...w, outcome: marked(w.outcome) })),
  );
  if (!input) return { files, synthesis: 'asked' };
  const calls = await plannedSynthesisCalls(ctx, input, (spec) => cache.lookup(spec));
  return calls === 0 ? { files, synthesis: 'cached' } : { files, synthesis: 'asked', synthesisCalls: calls };
}

/** Step 2's answer as the run asks it, in one call or in parts (each counted); else the last answer kept. */
async function analysisOf(
  ctx: FitSetup,
  file: FileUnderReview,
  step1: Step1Record,
  answer: (call: FileCall<FileAnalysis>) => Promise<FileAnalysis | undefined>,
  lastOne: FileAnalysis | null | undefined,
): Promise<FileAnalysis | undefined> {
  const parts = await analyzeParts(ctx, file, step1);
  const calls = parts ? parts.map((p) => analyzeCall(file, step1, p)) : [analyzeCall(file, step1)];
  const answers = await Promise.all(calls.map(answer));
  if (answers.some((a) => a === undefined)) return lastOne ?? undefined;
  const outcomes = answers.map((value) => ({ ok: true as const, value: value!, repairs: 0 }));
  const merged = parts ? mergeParts(outcomes, parts) : outcomes[0]!;
  return merged.ok ? merged.value : (lastOne ?? undefined);
}

/** A predicted analysis, told apart from the last answer it repeats. */
function marked(outcome: Walked['outcome']): Walked['outcome'] {
  const { analysis } = outcome;
  if (!analysis) return outcome;
  return { ...outcome, analysis: { ...analysis, brutal_one_line: `${analysis.brutal_one_line} (to be asked again)` } };
}

/**
 * A file without last answers: a run keeps a path's last answers from its first Step 1 on (pipeline.ts), so
 * without them nothing about the file can be cached, and there is no need to read it to know so.
 */
function notKept(path: string): Walked {
  return {
    forecast: {
      path,
      cached: noCounts(),
      calls: { ...noCounts(), curate: 1 },
      functionsAsked: 0,
      primes: 0,
      unknownFrom: 'curate',
    },
    outcome: { path },
    findings: [],
    lineCount: 0,
    exact: false,
    analysed: true,
  };
}

async function walkFile(
  ctx: FitSetup,
  req: ForecastRequest,
  entry: ForecastRequest['discovery']['file_entries'][number],
  order: number,
): Promise<Walked> {
  const forecast: FileForecast = {
    path: entry.path,
    cached: noCounts(),
    calls: noCounts(),
    functionsAsked: 0,
    primes: 0,
  };
  const walked: Walked = {
    forecast,
    outcome: { path: entry.path },
    findings: [],
    lineCount: 0,
    exact: true,
    analysed: false,
  };
  const last = await ctx.cache.recall(lastAnswersKey(ctx.cache, entry.path), LastAnswers);
  if (!last) return notKept(entry.path);
  let file: FileUnderReview;
  try {
    file = await loadFile(req, entry, order);
  } catch {
    // The run fails such a file before any call.
    return walked;
  }
  walked.lineCount = file.primary.lines.length;
  // The view the run will send, so that the keys are the run's.
  await fitFile(ctx, file);
  /** A step's answer from the cache, else (one call counted) the last answer kept for the path. */
  const answer = async <T>(
    step: FileStep,
    call: FileCall<T>,
    lastOne: T | null | undefined,
  ): Promise<T | undefined> => {
    const stored = await ctx.cache.answer(fileSpec(ctx, file, step, call));
    if (stored !== undefined) {
      forecast.cached[step]++;
      return stored;
    }
    forecast.calls[step]++;
    walked.exact = false;
    file.warm.add(warmKey(ctx.models, step));
    return lastOne ?? undefined;
  };

  const step1Answer = await answer('curate', curateCall(file), last?.step1);
  // Unknown: sized as a file that goes the whole way, as most source files do.
  if (!step1Answer) return { ...walked, analysed: true, forecast: { ...forecast, unknownFrom: 'curate' } };
  const step1: Step1Record = settleStep1(file, step1Answer);
  walked.outcome.step1 = step1;
  if (!step1.include_in_pipeline) return walked;
  walked.analysed = true;

  // As the run: the parser's functions are read when Step 2 needs them.
  file.inventory ??= await syntaxInventory(req, entry.path);
  const analysisAnswer = await analysisOf(
    ctx,
    file,
    step1,
    (call) => answer('analyze', call, undefined),
    last?.analysis,
  );
  if (!analysisAnswer) return { ...walked, forecast: { ...forecast, unknownFrom: 'analyze' } };
  const analysis: FileAnalysis = settleAnalysis(file, step1, analysisAnswer).value;
  walked.outcome.analysis = analysis;

  const functions = file.changedRanges
    ? functionsTouched(analysis.functions, walked.lineCount, file.changedRanges)
    : analysis.functions;
  const { known } = await recallReviews(ctx, { file, step1, analysis, functions });
  const reviews = known.filter((r): r is PerFunctionReview => r !== null);
  const todo = functions.filter((_, i) => known[i] === null);
  const plan = planReviews(todo);
  forecast.cached.review = reviews.length;
  forecast.calls.review = plan.solo.length + plan.batches.length;
  forecast.functionsAsked = todo.length;
  if (primesFile(ctx, file, plan)) forecast.primes++;
  if (todo.length) walked.exact = false;

  const survivors = findingsToChallenge(req, step1, analysis, reviews).kept;
  if (!walked.exact) {
    // Some findings are not known yet: the file goes to the challenge if any known one does, or if it did last time.
    if (survivors.length > 0 || (last?.challenged ?? false)) forecast.calls.challenge = 1;
    return walked;
  }
  let ruling: ChallengeResult | undefined;
  if (survivors.length > 0) {
    ruling = await answer('challenge', challengeCall(ctx, file, analysis, survivors), undefined);
    if (!ruling) return walked;
  }
  walked.findings = afterChallenge(req, survivors, ruling).kept;
  return walked;
}
