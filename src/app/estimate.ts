/**
 * What a run will cost, before any call: model calls and tokens per step (staged) or per role (lenses),
 * from the inventory alone, and for staged mode the dollars at the price table's rates with the prompt
 * cache as the layout uses it (docs/caching.md). Staged function counts come from Step 0's parser (the
 * functions Step 3 will review); diff reviews count only the functions a change touches. It estimates a
 * cold run: units the result cache already holds cost nothing. An estimate, said as one: it sizes a run,
 * it does not bill it.
 */
import type { FileAccess } from '../model/access';
import type { LineRange } from '../model/lines';
import { functionsTouched } from '../engine/staged/diffScope';
import { MAX_BATCH } from '../engine/staged/batching';
import { FILE_SYSTEM, STEP_DIRECTIVES, SYNTHESIS_SYSTEM } from '../engine/staged/prompts';
import { splitLines } from '../model/lines';
import type { FileEntry } from '../model/records';
import { OUTLINE_ABOVE_BYTES } from '../model/fileSize';
import type { FunctionInventory } from '../model/functions';
import { inventoriesOf } from './inventories';
import type { ContextFile } from '../model/records';
import { resolveStepModels, type StagedStep, type StepModels } from '../model/models';
import { costUsd, type PriceOverrides, type TokenCounts } from '../model/pricing';
import { Semaphore } from '../model/semaphore';
import { sourceTokens } from '../engine/lenses/chunks';
import { planTarget } from '../engine/lenses/plan';
import { BRIEFS, LENS_SYSTEM, VALIDATOR_SYSTEM } from '../engine/lenses/prompts';
import { CROSS_REPO } from '../model/reviewers';
import { loadTarget } from '../engine/lenses/target';
import { MAX_VALIDATORS } from '../engine/lenses/validators';
import { lensRequest, type PreparedJob, type ReviewJob } from './job';

export interface StepEstimate {
  calls: number;
  inputTokens: number;
  outputTokens: number;
}

export interface Estimate {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  functions: number;
  byStep: Record<StagedStep, StepEstimate>;
  /** Dollars for a cold run at the price table's rates; null when a model has no price. */
  costUsd: number | null;
}

/**
 * Solo reviews: the analysis keeps them for "a few" functions of a larger file (about one in ten, at most
 * three); the rest go in batches. Files that reach the challenge: those with surviving findings, about half.
 */
const SOLO_PER_FUNCTIONS = 10;
const MAX_SOLO = 3;
const CHALLENGED_SHARE = 0.5;
const PACKET_TOKENS = 300;
/** The fixed tool list of a file call: the read tools and five strict submit schemas. */
const TOOLS_TOKENS = 2000;
const OUT = { curate: 350, analyzeBase: 250, analyzePerFunction: 80, perFunction: 900, challenge: 600, synthesisBase: 1500, synthesisPerFile: 250 };

const tokens = (chars: number) => Math.ceil(chars / 4);

export async function estimateRun(
  access: FileAccess,
  entries: FileEntry[],
  context: ContextFile[],
  changed?: Map<string, LineRange[]>,
  pricing: { models?: StepModels; prices?: PriceOverrides } = {},
): Promise<Estimate> {
  const models = pricing.models ?? resolveStepModels();
  const bill = cacheBill(tokens(FILE_SYSTEM.length) + TOOLS_TOKENS + tokens(context.reduce((n, c) => n + c.text.length, 0)));
  const sys: Record<StagedStep, number> = {
    ...(Object.fromEntries(Object.entries(STEP_DIRECTIVES).map(([k, v]) => [k, tokens(FILE_SYSTEM.length + v.length)])) as Record<keyof typeof STEP_DIRECTIVES, number>),
    synthesize: tokens(SYNTHESIS_SYSTEM.length),
  };
  const ctx = tokens(context.reduce((n, c) => n + c.text.length, 0));
  const step = (): StepEstimate => ({ calls: 0, inputTokens: 0, outputTokens: 0 });
  const by = { curate: step(), analyze: step(), review: step(), challenge: step(), synthesize: step() };
  const add = (s: StepEstimate, calls: number, inputEach: number, outputEach: number) => {
    s.calls += calls;
    s.inputTokens += calls * inputEach;
    s.outputTokens += calls * outputEach;
  };

  const io = new Semaphore(64);
  const inventories = await inventoriesOf(access.cwd, entries);
  const sizes = await Promise.all(entries.map((entry) => io.run(() => measure(access, entry, inventories.get(entry.path), changed?.get(entry.path)))));
  let functions = 0;
  let challenged = 0;
  for (const { fileBlock, functions: n, bodyPerFunction } of sizes) {
    const prefix = ctx + fileBlock + PACKET_TOKENS;
    functions += n;
    add(by.curate, 1, sys.curate + prefix, OUT.curate);
    add(by.analyze, 1, sys.analyze + prefix, OUT.analyzeBase + OUT.analyzePerFunction * n);
    const solo = Math.min(MAX_SOLO, Math.floor(n / SOLO_PER_FUNCTIONS));
    const batches = Math.ceil((n - solo) / MAX_BATCH);
    const perBatch = Math.min(MAX_BATCH, Math.ceil((n - solo) / Math.max(1, batches)));
    add(by.review, solo, sys.review + prefix + bodyPerFunction, OUT.perFunction);
    if (batches) add(by.review, batches, sys.review + prefix + bodyPerFunction * perBatch, OUT.perFunction * perBatch);
    if (n > 0) {
      challenged += CHALLENGED_SHARE;
      by.challenge.inputTokens += CHALLENGED_SHARE * (sys.challenge + prefix);
    }
    const reviewCalls = solo + batches;
    const perModel = new Map<string, { calls: number; out: number }>();
    const onModel = (step: StagedStep, calls: number, out: number) => {
      const m = perModel.get(models[step]) ?? { calls: 0, out: 0 };
      perModel.set(models[step], { calls: m.calls + calls, out: m.out + out });
    };
    onModel('curate', 1, OUT.curate);
    onModel('analyze', 1, OUT.analyzeBase + OUT.analyzePerFunction * n);
    onModel('review', reviewCalls, OUT.perFunction * n);
    for (const [model, m] of perModel) bill.file(model, m.calls, fileBlock, m.out);
    if (n > 0) bill.file(models.challenge, CHALLENGED_SHARE, fileBlock, CHALLENGED_SHARE * OUT.challenge);
  }
  by.challenge.calls = Math.ceil(challenged);
  by.challenge.outputTokens = by.challenge.calls * OUT.challenge;
  by.challenge.inputTokens = Math.round(by.challenge.inputTokens);
  if (entries.length) {
    add(by.synthesize, 1, sys.synthesize + ctx + 600 * entries.length, OUT.synthesisBase + OUT.synthesisPerFile * entries.length);
    bill.uncached(models.synthesize, by.synthesize.inputTokens, by.synthesize.outputTokens);
  }
  return { ...totals(Object.values(by)), functions, byStep: by, costUsd: bill.total(pricing.prices) };
}

/**
 * Tokens by model as the cache-first layout spends them: the run-wide prefix (tools, system, context) is
 * written once per model and read by every later call on it; a file's block is written by its first call
 * on a model and read by the rest; the directive and packet are uncached.
 */
function cacheBill(runPrefix: number) {
  const spend = new Map<string, TokenCounts>();
  const of = (model: string) => {
    const u = spend.get(model) ?? { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
    spend.set(model, u);
    return u;
  };
  return {
    file(model: string, calls: number, fileBlock: number, output: number): void {
      if (calls <= 0) return;
      const first = !spend.has(model);
      const u = of(model);
      u.cache_creation_input_tokens += fileBlock + (first ? runPrefix : 0);
      u.cache_read_input_tokens += (first ? 0 : runPrefix) + Math.max(0, calls - 1) * (runPrefix + fileBlock);
      u.input_tokens += calls * PACKET_TOKENS;
      u.output_tokens += output;
    },
    uncached(model: string, input: number, output: number): void {
      const u = of(model);
      u.input_tokens += input;
      u.output_tokens += output;
    },
    total(prices?: PriceOverrides): number | null {
      let sum = 0;
      for (const [model, u] of spend) {
        const c = costUsd(model, u, prices);
        if (c === null) return null;
        sum += c;
      }
      return sum;
    },
  };
}

/** A run's totals over its steps or roles. */
function totals(parts: StepEstimate[]): StepEstimate {
  return {
    calls: parts.reduce((n, s) => n + s.calls, 0),
    inputTokens: parts.reduce((n, s) => n + s.inputTokens, 0),
    outputTokens: parts.reduce((n, s) => n + s.outputTokens, 0),
  };
}

/**
 * A file's shared source-block size in tokens, the number of functions a review would cover, and what each
 * function adds to a Step 3 call when the file is large enough to go as an outline plus the bodies reviewed.
 */
async function measure(access: FileAccess, entry: FileEntry, inventory: FunctionInventory | undefined, ranges: LineRange[] | undefined) {
  const text = await access.read(entry.path);
  const companion = entry.companion_path ? await access.read(entry.companion_path).catch(() => '') : '';
  const lines = splitLines(text);
  const found = inventory?.functions ?? [];
  const functions = (ranges ? functionsTouched(found, lines.length, ranges) : found).length;
  // The numbered source block adds about two tokens a line.
  const block = (t: string, n: number) => tokens(t.length) + 2 * n;
  const companionBlock = companion.length > OUTLINE_ABOVE_BYTES ? 0 : block(companion, splitLines(companion).length);
  if (Buffer.byteLength(text) <= OUTLINE_ABOVE_BYTES || inventory?.parser !== 'syntax') return { fileBlock: block(text, lines.length) + companionBlock, functions, bodyPerFunction: 0 };
  const outline = found.reduce((n, f) => n + block(`${f.qualified_name} ${f.kind} ${lines[f.start_line - 1] ?? ''}`, 2), 0);
  return { fileBlock: outline + companionBlock, functions, bodyPerFunction: Math.ceil(block(text, lines.length) / Math.max(1, found.length)) };
}

export interface LensEstimate {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** Per role: each reviewer, the validators (an upper bound: one per CRITICAL/HIGH finding, at most ten), the cross-repo check. */
  byRole: Record<string, StepEstimate>;
  /** Parts the scopes split into under the token budget, over all targets. */
  parts: number;
}

/** Tool definitions and the output schema, which every lens call carries before its system prompt. */
const LENS_FIXED_TOKENS = 700;
const LENS_OUT = { review: 1500, validator: 60, crossRepo: 1000, perFileListed: 20 };

export async function estimateLensRun(access: FileAccess, req: ReturnType<typeof lensRequest>): Promise<LensEstimate> {
  const byRole: Record<string, StepEstimate> = {};
  const add = (role: string, inputEach: number, outputEach: number) => {
    const s = (byRole[role] ??= { calls: 0, inputTokens: 0, outputTokens: 0 });
    s.calls++;
    s.inputTokens += inputEach;
    s.outputTokens += outputEach;
  };
  const system = LENS_FIXED_TOKENS + tokens(LENS_SYSTEM.length);
  const plans = await Promise.all(req.targets.map(async (spec) => planTarget((await loadTarget(access, spec)).target, req)));
  let largestPart = 0;
  for (const { target, routing, parts } of plans) {
    const context = tokens(target.context.reduce((n, c) => n + c.text.length, 0));
    for (const part of parts) {
      const size = part.chunk.files.reduce((n, f) => n + sourceTokens(f), 0);
      largestPart = Math.max(largestPart, context + size);
      for (const reviewer of routing.reviewers) add(reviewer, system + context + size + tokens(BRIEFS[reviewer].length) + PACKET_TOKENS, LENS_OUT.review);
    }
  }
  if (req.fullFanout) for (let i = 0; i < MAX_VALIDATORS; i++) add('validator', LENS_FIXED_TOKENS + tokens(VALIDATOR_SYSTEM.length) + largestPart + PACKET_TOKENS, LENS_OUT.validator);
  if (plans.length > 1) {
    const files = plans.reduce((n, p) => n + p.target.files.length, 0);
    add(CROSS_REPO, system + tokens(BRIEFS[CROSS_REPO].length) + PACKET_TOKENS + LENS_OUT.perFileListed * files, LENS_OUT.crossRepo);
  }
  return { ...totals(Object.values(byRole)), byRole, parts: plans.reduce((n, p) => n + p.parts.length, 0) };
}

/** Either mode's estimate, for the confirmation a large run asks for. */
export function estimateJob(job: ReviewJob, prepared: PreparedJob): Promise<Estimate | LensEstimate> {
  if (job.mode === 'lenses') return estimateLensRun(prepared.access, lensRequest(job, prepared));
  return estimateRun(prepared.access, prepared.inventory.discovery.file_entries, prepared.context, prepared.scope.changedRanges, { models: job.models, ...(job.prices ? { prices: job.prices } : {}) });
}
