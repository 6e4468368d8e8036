/**
 * What a staged run will cost, before any call: model calls and tokens per step, and the dollars at the
 * price table's rates. It counts only what the run will ask: the result cache's answers come out first
 * (forecast.ts computes them with the run's own keys); files the cache knows nothing about are sized by the
 * rules below, from Step 0's parser (the functions Step 3 will review; in a diff review only those a change
 * touches). Tokens per call come from this repository's last runs (model/usageRecord.ts) where there are any
 * for the step and its model, else from the defaults below, with the prompt cache as the layout uses it
 * (docs/caching.md). An estimate, said as one: it sizes a run, it does not bill it.
 */
import { OUTLINE_ABOVE_BYTES } from '../../model/fileSize';
import type { FunctionInventory } from '../../model/functions';
import { lineCount, splitLines, type LineRange } from '../../model/lines';
import { resolveStepModels, STAGED_STEPS, type StagedStep, type StepModels } from '../../model/models';
import { costUsd, type Billing, type TokenCounts } from '../../model/pricing';
import type { FileEntry } from '../../model/records';
import { mapLimit } from '../../model/pool';
import { calibration, recordedShape, type RunShape, type RunUsage } from '../../model/usageRecord';
import { tokens, totals, type StepEstimate } from '../estimate';
import { reviewCalls } from './batching';
import { functionsTouched } from './diffScope';
import { noCounts, type FileForecast, type StagedForecast, type StepCounts } from './forecast';
import type { StagedRequest } from './pipeline';
import { fileSystem, SYNTHESIS_SYSTEM } from './prompts';
import { REPLY_ROOM } from './context';
import { fitGroups, MAX_PART_FILES, partMaxTokens } from './synthesisParts';
import { walk, type FileSteps } from './walk';
import { contextWindowOf } from '../../model/contextWindow';

export interface StagedStepEstimate extends StepEstimate {
  /** Of `inputTokens`, those read from and written to the prompt cache. */
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** On the step's model; null when it has no price. */
  costUsd: number | null;
  /** Where the per-call token figures come from: this repository's last runs, or the defaults. */
  basis: 'history' | 'defaults';
}

export interface Estimate {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** Functions in scope for Step 3, cached or not. */
  functions: number;
  byStep: Record<StagedStep, StagedStepEstimate>;
  /** Dollars at the price table's rates; null when a model has no price. */
  costUsd: number | null;
  /** The cost under each recorded run's own figures, lowest and highest; with two runs or more. */
  costRange?: [number, number];
  /** `editor`: the editor's plan bills the calls, so no figure here is in dollars (app/estimate.ts). */
  billing?: Billing;
  /** Recorded runs the figures come from (0: the defaults throughout). */
  historyRuns: number;
  /** Units the result cache answers, of all the run's units (Steps 1, 2 and 4 one per file, Step 3 one per function, synthesis one). */
  units: { cached: number; total: number };
}

/**
 * Files the cache knows nothing about, until a recorded run gives this repository's own rates: every file
 * goes past Step 1; solo reviews are kept for "a few" functions of a larger file (about one in ten, at most
 * three), the rest go in batches; half the files with functions reach the challenge.
 */
const SOLO_PER_FUNCTIONS = 10;
const MAX_SOLO = 3;
const CHALLENGED_SHARE = 0.5;

/** How an unknown file goes, as expected values: past Step 1, solo functions of n, to the challenge. */
interface Rates {
  included: number;
  solo: (functions: number) => number;
  challenged: (functions: number) => number;
}

function ratesFrom(shape: RunShape | undefined): Rates {
  const rule: Rates = {
    included: 1,
    solo: (n) => Math.min(MAX_SOLO, Math.floor(n / SOLO_PER_FUNCTIONS)),
    challenged: (n) => (n > 0 ? CHALLENGED_SHARE : 0),
  };
  if (!shape) return rule;
  return {
    included: shape.curated ? shape.analysed / shape.curated : rule.included,
    solo: shape.functions ? (n) => (n * shape.solo) / shape.functions : rule.solo,
    challenged: shape.analysed ? () => shape.challenged / shape.analysed : rule.challenged,
  };
}
/**
 * The default per-call figures (docs/caching.md): uncached input is the step's directive and packet, plus
 * the lines of the functions a call is about for a file sent as an outline; output is the record.
 */
const PACKET = { curate: 60, analyze: 150, analyzePerFunction: 30, review: 150, reviewPerFunction: 50, challenge: 300 };
/** The fixed tool list of a file call: the read tools and five strict submit schemas. */
const TOOLS_TOKENS = 2000;
/** Output per record, sized for a real model's answers (a sentence of rationale per verdict, a line per function row). */
const OUT = {
  curate: 250,
  analyzeBase: 400,
  analyzePerFunction: 50,
  perFunction: 500,
  challenge: 300,
  synthesisBase: 1500,
  synthesisPerFile: 100,
};
/**
 * What each file adds to the synthesis packet: its Step 1 record, its analysis without findings or function
 * rows, its surviving findings; and each function row, in full or in a file's shortened forms (by name, by
 * number: synthesisRecords.ts), where unknown findings keep no row in full.
 */
const SYNTHESIS_PER_FILE = 400;
const SYNTHESIS_PER_ROW = { rows: 100, names: 10, count: 0 };
type RowForm = keyof typeof SYNTHESIS_PER_ROW;
const ROW_FORMS = Object.keys(SYNTHESIS_PER_ROW) as RowForm[];
const FILE_STEPS = ['curate', 'analyze', 'review', 'challenge'] as const;
const MEASURES_AT_ONCE = 64;

/**
 * What the staged cost model reads: the run's own request, under its names (a declared part of StagedRequest,
 * the parser's lookup required; `access` reads a file sent as an outline, and one whose size Step 0 does not
 * know), and what only an estimate has.
 */
export type StagedEstimateRequest = Pick<
  StagedRequest,
  'access' | 'discovery' | 'context' | 'changedRanges' | 'prices' | 'batch'
> &
  Partial<Pick<StagedRequest, 'models'>> &
  Required<Pick<StagedRequest, 'inventoryOf'>> & {
    /** A file's size as Step 0 judged it, without reading it again (nor waiting); undefined: read it. */
    knownSize?: (path: string) => FileBytes | undefined;
    /** What the result cache answers; absent: a cold run. */
    forecast?: StagedForecast;
    /** This repository's last runs, oldest first; absent or empty: the defaults. */
    history?: RunUsage[];
    /** False where the provider has no prompt cache: no primes, and every prompt token at the input price. Default true. */
    promptCache?: boolean;
  };

/** What one file will ask, per step: from the forecast, else sized by the rules above. */
interface FilePlan {
  calls: StepCounts;
  cached: StepCounts;
  functions: number;
  functionsAsked: number;
  primes: number;
}

export async function estimateStagedRun(input: StagedEstimateRequest): Promise<Estimate> {
  const { context } = input;
  const entries = input.discovery.file_entries;
  const models = input.models ?? resolveStepModels();
  const ctx = tokens(context.reduce((n, c) => n + c.text.length, 0));
  // A few files at a time (pool.ts): a read when Step 0 does not know a size, or of a file sent as an outline.
  const sizes = await mapLimit(entries, MEASURES_AT_ONCE, async (entry) =>
    measure(input, entry, await input.inventoryOf(entry.path), input.changedRanges?.get(entry.path)),
  );
  const forecasts = new Map((input.forecast?.files ?? []).map((f) => [f.path, f]));
  const history = input.history ?? [];
  const rates = ratesFrom(recordedShape(history));
  const plans = await Promise.all(entries.map((e, i) => planFile(sizes[i]!.functions, forecasts.get(e.path), rates)));

  const calls = Object.fromEntries(STAGED_STEPS.map((s) => [s, 0])) as Record<StagedStep, number>;
  // Unknown files add expected values: a whole number of calls only over all of them.
  for (const step of FILE_STEPS) calls[step] = Math.round(plans.reduce((n, p) => n + p.calls[step], 0));
  // The run-wide prefix is primed once when Step 1 of several files starts together; a file's prefix before its Step 3 calls fan out.
  const cache = input.promptCache ?? true;
  // Neither a batch nor a provider without a prompt cache sends primes.
  if (!input.batch && cache) {
    calls.curate += plans.filter((p) => p.calls.curate > 0).length > 1 ? 1 : 0;
    calls.review += plans.reduce((n, p) => n + p.primes, 0);
  }
  const synthesis = input.forecast ? input.forecast.synthesis : entries.length ? 'asked' : 'none';
  const synthesisBase = tokens(SYNTHESIS_SYSTEM.length) + ctx;
  const bySize =
    synthesis === 'asked'
      ? synthesisBySize(
          entries.map((e, i) => ({ path: e.path, rows: sizes[i]!.rows })),
          synthesisBase,
          contextWindowOf(models.synthesize, input.prices),
        )
      : { calls: 0, records: 0 };
  calls.synthesize = synthesis === 'asked' ? (input.forecast?.synthesisCalls ?? bySize.calls) : 0;

  const defaults = defaultTokens(plans, sizes, models, {
    // Steps 1–3's model: most calls, and its system text the longest.
    runPrefix: tokens(fileSystem(models, 'review').length) + TOOLS_TOKENS + ctx,
    // Each call (a part, the merge) carries the system text and context; the files' records are split among the parts.
    synthesis: calls.synthesize ? synthesisBase * calls.synthesize + bySize.records : 0,
    files: entries.length,
    synthesisCalls: calls.synthesize,
  });
  const calibrated = new Map(STAGED_STEPS.map((s) => [s, calibration(history, s, models[s])]));
  /** The step's tokens: `calls` × the figures of `run` (a history index), else of all recorded runs, else the defaults. */
  const tokensOf = (step: StagedStep, run?: number): TokenCounts => {
    const c = calibrated.get(step);
    const perCall = c && ((run !== undefined ? c.byRun[run] : undefined) ?? c.perCall);
    const t = perCall ? scale(perCall, calls[step]) : defaults[step];
    return cache ? t : uncached(t);
  };
  const price = (step: StagedStep, t: TokenCounts) =>
    costUsd(
      models[step],
      t,
      input.prices,
      input.batch ? { batch: true, hourWrites: t.cache_creation_input_tokens } : {},
    );
  const costOf = (run?: number) => sumCosts(STAGED_STEPS.map((s) => price(s, tokensOf(s, run))));
  const byStep = Object.fromEntries(
    STAGED_STEPS.map((step) => {
      const t = tokensOf(step);
      const estimate: StagedStepEstimate = {
        calls: calls[step],
        inputTokens: Math.round(t.input_tokens + t.cache_read_input_tokens + t.cache_creation_input_tokens),
        outputTokens: Math.round(t.output_tokens),
        cacheReadTokens: Math.round(t.cache_read_input_tokens),
        cacheWriteTokens: Math.round(t.cache_creation_input_tokens),
        costUsd: price(step, t),
        basis: calibrated.get(step) ? 'history' : 'defaults',
      };
      return [step, estimate];
    }),
  ) as Record<StagedStep, StagedStepEstimate>;

  const runs = history.map((_, i) => costOf(i)).filter((c): c is number => c !== null);
  const cached =
    plans.reduce((n, p) => n + FILE_STEPS.reduce((m, s) => m + p.cached[s], 0), 0) + (synthesis === 'cached' ? 1 : 0);
  const asked =
    Math.round(plans.reduce((n, p) => n + p.calls.curate + p.calls.analyze + p.functionsAsked, 0)) +
    calls.challenge +
    (synthesis === 'asked' ? 1 : 0);
  return {
    ...totals(Object.values(byStep)),
    functions: plans.reduce((n, p) => n + p.functions, 0),
    byStep,
    costUsd: costOf(),
    ...(runs.length > 1 ? { costRange: [Math.min(...runs), Math.max(...runs)] as [number, number] } : {}),
    historyRuns: history.length,
    units: { cached, total: cached + asked },
  };
}

async function planFile(functions: number, forecast: FileForecast | undefined, rates: Rates): Promise<FilePlan> {
  if (forecast && !forecast.unknownFrom)
    return {
      calls: forecast.calls,
      cached: forecast.cached,
      functions: forecast.cached.review + forecast.functionsAsked,
      functionsAsked: forecast.functionsAsked,
      primes: forecast.primes,
    };
  // Sized from the first step nothing is known of: Step 1's counts are the forecast's where it knows them.
  const from = forecast?.unknownFrom ?? 'curate';
  const known = from === 'analyze' ? forecast! : { calls: noCounts(), cached: noCounts() };
  const plan: FilePlan = {
    calls: { ...noCounts(), curate: known.calls.curate },
    cached: { ...noCounts(), curate: known.cached.curate },
    functions,
    functionsAsked: 0,
    primes: 0,
  };
  await walk(sizedSteps(plan, rates, from));
  return plan;
}

/**
 * A file's steps (walk.ts) in expected calls, from `from` on: Step 1 keeps the share of files the rates say, a
 * Step 3 call covers a solo function or a batch, and the share the rates say goes to the challenge. What each
 * step hands on is the number of functions under review.
 */
function sizedSteps(plan: FilePlan, rates: Rates, from: 'curate' | 'analyze'): FileSteps<number, number, number> {
  const { calls } = plan;
  return {
    curate: async () => {
      if (from === 'curate') calls.curate++;
      return plan.functions;
    },
    kept: async () => (from === 'curate' ? rates.included : 1),
    analyze: async (functions, share) => {
      calls.analyze += share;
      plan.functionsAsked = share * functions;
      return functions;
    },
    review: async (_, functions, share) => {
      const solo = rates.solo(functions);
      calls.review += share * reviewCalls(solo, functions - solo);
      return functions;
    },
    challenged: (functions) => rates.challenged(functions),
    challenge: async (_, __, ___, share) => void (calls.challenge += share),
  };
}

/**
 * Tokens by step as the cache-first layout spends them, from the tree's own sizes: the run-wide prefix
 * (tools, system, context) is written by the first call on a model and read by every later one; a file's
 * block is written by its first call on a model and read by the rest; directive and packet are uncached.
 */
function defaultTokens(
  plans: FilePlan[],
  sizes: FileSize[],
  models: StepModels,
  run: { runPrefix: number; synthesis: number; files: number; synthesisCalls: number },
): Record<StagedStep, TokenCounts> {
  const by = Object.fromEntries(
    STAGED_STEPS.map((s) => [
      s,
      { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    ]),
  ) as Record<StagedStep, TokenCounts>;
  const prefixWritten = new Set<string>();
  plans.forEach((p, i) => {
    const { fileBlock, bodyPerFunction } = sizes[i]!;
    const fileWritten = new Set<string>();
    for (const step of FILE_STEPS) {
      const calls = p.calls[step];
      if (calls <= 0) continue;
      const t = by[step];
      const model = models[step];
      const { uncached, output } = perCall(p, bodyPerFunction, step);
      // The first call about the file on this model writes its block (a fraction of a call: as likely).
      const writer = fileWritten.has(model) ? 0 : Math.min(1, calls);
      fileWritten.add(model);
      t.cache_creation_input_tokens += writer * fileBlock;
      if (writer && !prefixWritten.has(model)) {
        prefixWritten.add(model);
        // An expected fraction of a call (Step 4's, say) writes that fraction: it reads nothing.
        t.cache_creation_input_tokens += writer * run.runPrefix;
        t.cache_read_input_tokens += (calls - writer) * run.runPrefix;
      } else t.cache_read_input_tokens += calls * run.runPrefix;
      t.cache_read_input_tokens += (calls - writer) * fileBlock;
      t.input_tokens += calls * uncached;
      t.output_tokens += calls * output;
    }
  });
  if (run.synthesis) {
    // Synthesis shares nothing with file calls, and its packet is new whenever it runs: all of it is written.
    by.synthesize.cache_creation_input_tokens += run.synthesis;
    by.synthesize.output_tokens += OUT.synthesisBase * run.synthesisCalls + OUT.synthesisPerFile * run.files;
  }
  return by;
}

/** The uncached input and the output of each of a file's calls at `step`, by the default figures. */
function perCall(p: FilePlan, bodyPerFunction: number, step: (typeof FILE_STEPS)[number]) {
  const calls = p.calls[step];
  const functionsPerCall = p.functionsAsked / Math.max(1, p.calls.review);
  switch (step) {
    case 'curate':
      return { uncached: PACKET.curate, output: OUT.curate };
    case 'analyze':
      return {
        uncached: PACKET.analyze + PACKET.analyzePerFunction * p.functions,
        output: OUT.analyzeBase + OUT.analyzePerFunction * p.functions,
      };
    case 'review':
      return {
        uncached: PACKET.review + (PACKET.reviewPerFunction + bodyPerFunction) * functionsPerCall,
        output: (OUT.perFunction * p.functionsAsked) / Math.max(1, calls),
      };
    case 'challenge':
      return { uncached: PACKET.challenge, output: OUT.challenge };
  }
}

/**
 * Step 5's calls for files whose records are not known yet, each record sized by the rule above, and the
 * records' tokens over all of them: one request when they fit it, else parts by folder within the window, a
 * file too large alone shortened (as synthesisParts.ts plans them), and the merge — or one request again when
 * the shortening was all it took.
 */
function synthesisBySize(
  files: { path: string; rows: number }[],
  base: number,
  window: number,
): { calls: number; records: number } {
  const rowsOf = new Map(files.map((f) => [f.path, f.rows]));
  const records = (forms: Map<string, RowForm>, group: string[]) =>
    group.reduce((n, p) => n + SYNTHESIS_PER_FILE + SYNTHESIS_PER_ROW[forms.get(p) ?? 'rows'] * rowsOf.get(p)!, 0);
  const fits = (forms: Map<string, RowForm>, group: string[]) =>
    group.length <= MAX_PART_FILES && base + records(forms, group) + partMaxTokens(group.length) + REPLY_ROOM <= window;
  const shorten = (forms: Map<string, RowForm>, path: string) => {
    const next = ROW_FORMS[ROW_FORMS.indexOf(forms.get(path) ?? 'rows') + 1];
    return next && rowsOf.get(path) ? new Map([...forms, [path, next]]) : undefined;
  };
  const paths = files.map((f) => f.path);
  const full = new Map<string, RowForm>();
  if (fits(full, paths)) return { calls: 1, records: records(full, paths) };
  const { groups, state, changed } = fitGroups(paths, full, fits, shorten);
  if (changed && fits(state, paths)) return { calls: 1, records: records(state, paths) };
  return { calls: groups.length + 1, records: records(state, paths) };
}

const scale = (u: TokenCounts, calls: number): TokenCounts => ({
  input_tokens: u.input_tokens * calls,
  output_tokens: u.output_tokens * calls,
  cache_read_input_tokens: u.cache_read_input_tokens * calls,
  cache_creation_input_tokens: u.cache_creation_input_tokens * calls,
});

const sumCosts = (costs: (number | null)[]): number | null =>
  costs.reduce<number | null>((sum, c) => (sum === null || c === null ? null : sum + c), 0);

interface FileSize {
  fileBlock: number;
  functions: number;
  bodyPerFunction: number;
  /** Step 2's rows: the whole inventory, which synthesis carries. */
  rows: number;
}

/**
 * A file's shared source-block size in tokens, the number of functions a review would cover, and what each
 * function adds to a Step 3 call when the file is large enough to go as an outline plus the bodies reviewed.
 */
async function measure(
  input: Pick<StagedEstimateRequest, 'access' | 'knownSize'>,
  entry: FileEntry,
  inventory: FunctionInventory | undefined,
  ranges: LineRange[] | undefined,
): Promise<FileSize> {
  const { companion_path: companionPath } = entry;
  // Step 0's sizes where it has them: most files wait for nothing here.
  const file = input.knownSize?.(entry.path) ?? (await sizeRead(input, entry.path));
  const companion = !companionPath
    ? NOTHING
    : (input.knownSize?.(companionPath) ?? (await sizeRead(input, companionPath).catch(() => NOTHING)));
  const found = inventory?.functions ?? [];
  const functions = (ranges ? functionsTouched(found, file.lines, ranges) : found).length;
  const companionBlock = companion.chars > OUTLINE_ABOVE_BYTES ? 0 : block(companion);
  if (file.bytes <= OUTLINE_ABOVE_BYTES || inventory?.parser !== 'syntax')
    return { fileBlock: block(file) + companionBlock, functions, bodyPerFunction: 0, rows: found.length };
  // Sent as an outline: each function's first line, which only the text itself has.
  const lines = splitLines(await input.access.read(entry.path));
  const outline = found.reduce(
    (n, f) =>
      n +
      block({
        chars: `${f.qualified_name} ${f.kind} ${lines[(f.signature_line ?? f.start_line) - 1] ?? ''}`.length,
        lines: 2,
      }),
    0,
  );
  return {
    fileBlock: outline + companionBlock,
    functions,
    bodyPerFunction: Math.ceil(block(file) / Math.max(1, found.length)),
    rows: found.length,
  };
}

interface Size {
  chars: number;
  lines: number;
}
export type FileBytes = Size & { bytes: number };
const NOTHING = { bytes: 0, chars: 0, lines: 0 };
/** A numbered source block's tokens: about two a line besides the text. */
const block = (s: Size) => tokens(s.chars) + 2 * s.lines;

/** A file's size as it reads now (one Step 0 did not judge). */
async function sizeRead(input: Pick<StagedEstimateRequest, 'access'>, path: string): Promise<FileBytes> {
  const text = await input.access.read(path);
  return { bytes: Buffer.byteLength(text), chars: text.length, lines: lineCount(text) };
}

/** The same prompt without a prompt cache: what would be read or written is plain input. */
function uncached(t: TokenCounts): TokenCounts {
  return {
    input_tokens: t.input_tokens + t.cache_read_input_tokens + t.cache_creation_input_tokens,
    output_tokens: t.output_tokens,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
  };
}
