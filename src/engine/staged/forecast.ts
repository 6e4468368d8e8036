/**
 * What a staged run will ask the model, before it runs: file by file, which units the result cache already
 * answers. It walks the run's own steps (steps.ts, walk.ts) with the run's own requests and keys, each
 * looked up in the result cache instead of asked, and synthesis by the run's parts (plannedSynthesisCalls),
 * so a unit counts as cached exactly when the run would take it from the cache. Where a step's input depends on an answer that is not cached
 * (Step 1 or 2 of an edited file), it goes on with the last answers kept for the path (lastAnswers.ts):
 * the functions' roles, lines from the parser and which ones go solo are most likely what they were, so the
 * Step 3 keys computed from them say which functions the edit touched. Without either, the file is left
 * for the estimate to size by its rules (`unknownFrom`).
 */
import { mapLimit } from '../../model/pool';
import { ResultCache } from '../resultCache';
import { UnitCache } from '../unitCache';
import { fitFile, shrink } from './fit';
import type { FileStep } from '../../model/models';
import type { FileEntry } from '../../model/records';
import { fileSpec, warmKey, type FileUnderReview, type FitSetup } from './context';
import { LastAnswers, lastAnswersKey } from './lastAnswers';
import { loadFile, synthesisInput, syntaxInventory, type StagedRequest } from './pipeline';
import { STAGED_PROMPT_VERSION } from './promptVersion';
import { fileWalk, walkFile, type FileWalk } from './steps';
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

/** The file's walk as far as the cache knows it (`exact` while every unit so far was answered from it), and its counts. */
type Walked = Pick<FileWalk, 'outcome' | 'findings' | 'lineCount' | 'exact' | 'analysed'> & { forecast: FileForecast };

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
    kept[order] ? forecastFile(ctx, req, entry, order) : notKept(entry),
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
function notKept(entry: FileEntry): Walked {
  return {
    ...fileWalk(entry),
    exact: false,
    analysed: true,
    forecast: {
      path: entry.path,
      cached: noCounts(),
      calls: { ...noCounts(), curate: 1 },
      functionsAsked: 0,
      primes: 0,
      unknownFrom: 'curate',
    },
  };
}

/** The forecast's interpreter of a file's steps (steps.ts): each request looked up in the result cache, else counted. */
async function forecastFile(ctx: FitSetup, req: ForecastRequest, entry: FileEntry, order: number): Promise<Walked> {
  const last = await ctx.cache.recall(lastAnswersKey(ctx.cache, entry.path), LastAnswers);
  if (!last) return notKept(entry);
  const forecast: FileForecast = {
    path: entry.path,
    cached: noCounts(),
    calls: noCounts(),
    functionsAsked: 0,
    primes: 0,
  };
  let file: FileUnderReview;
  try {
    file = await loadFile(req, entry, order);
  } catch {
    // The run fails such a file before any call.
    return { ...fileWalk(entry), forecast };
  }
  // The view the run will send, so that the keys are the run's.
  await fitFile(ctx, file);
  const walked = await walkFile(ctx, req, file, {
    // A step's answer from the cache, else one call counted, and the file's prefix then cached as in the run.
    ask: async (step, call) => {
      const stored = await ctx.cache.answer(fileSpec(ctx, file, step, call));
      if (stored !== undefined) {
        forecast.cached[step]++;
        return { ok: true, value: stored, repairs: 0, cached: true };
      }
      forecast.calls[step]++;
      // Step 3's calls that start together prime the file first: one prime a file.
      if (call.primeFile) forecast.primes = 1;
      file.warm.add(warmKey(ctx.models, step));
      return undefined;
    },
    // As the run: the parser's functions are read when Step 2 needs them.
    parsed: async () => file.inventory ?? (await syntaxInventory(req, entry.path)),
    guess: last,
    unknownCall: (step) => void forecast.calls[step]++,
  });
  forecast.cached.review = walked.functions.cached;
  forecast.functionsAsked = walked.functions.asked;
  const { unknownFrom } = walked;
  return { ...walked, forecast: { ...forecast, ...(unknownFrom ? { unknownFrom } : {}) } };
}
