/**
 * What this repository's recent staged runs actually used, per step and model (calls and the four token
 * counts the API bills), and how its files went (how many Step 1 let through, how many functions Step 2 sent
 * solo, how many files went to the challenge). Kept small (the last few runs) in the repository's state
 * folder (src/app/state.ts); the estimate takes its per-call token figures and its rates for files the
 * result cache knows nothing of from here once there is a run to learn from, instead of its defaults
 * (src/app/estimate.ts). A record that does not parse is ignored, never an error: the estimate falls back
 * to its defaults and the next run starts the record afresh.
 */
import { readOwnFile } from '../io/regularFile';
import { replaceFile } from '../io/safeWrite';
import { MAX_STATE_FILE_BYTES } from './state';
import { join } from 'node:path';
import { z } from 'zod';
import type { TokenCounts } from '../model/pricing';
import type { StagedResult } from '../model/events';

const HISTORY_FILE = 'usage-history.json';
/** Enough to smooth one odd run, few enough that the figures follow the code as it changes. */
export const HISTORY_RUNS = 5;

const count = () => z.number().int().nonnegative();
const StepUsage = z.object({
  model: z.string().min(1),
  calls: count(),
  input_tokens: count(),
  output_tokens: count(),
  cache_read_input_tokens: count(),
  cache_creation_input_tokens: count(),
});
/** Counted over the run's files whatever answered them (model or result cache): they describe the code, not the cache. */
const RunShape = z.object({
  curated: count(),
  analysed: count(),
  functions: count(),
  solo: count(),
  challenged: count(),
});
export type RunShape = z.infer<typeof RunShape>;
const RunUsage = z.object({ at: z.string(), steps: z.record(z.string(), StepUsage), shape: RunShape });
export type RunUsage = z.infer<typeof RunUsage>;
const History = z.object({ version: z.literal(1), runs: z.array(RunUsage) });

/** The recorded runs, oldest first; [] when there is no record or it does not parse. */
export async function readUsageHistory(stateDir: string): Promise<RunUsage[]> {
  try {
    const text = await readOwnFile(join(stateDir, HISTORY_FILE), MAX_STATE_FILE_BYTES);
    const parsed = text === null ? null : History.safeParse(JSON.parse(text));
    return parsed?.success ? parsed.data.runs.slice(-HISTORY_RUNS) : [];
  } catch {
    return [];
  }
}

/** Adds a finished run (steps that made no call are left out; a run that made none is not recorded); whole-file replace. */
export async function recordRunUsage(stateDir: string, result: StagedResult, at = new Date()): Promise<void> {
  const steps = Object.fromEntries(
    Object.entries(result.usageByStep)
      .filter(([step, u]) => u.calls > 0 && result.models[step])
      .map(([step, u]) => [
        step,
        {
          model: result.models[step]!,
          calls: u.calls,
          input_tokens: u.input_tokens,
          output_tokens: u.output_tokens,
          cache_read_input_tokens: u.cache_read_input_tokens,
          cache_creation_input_tokens: u.cache_creation_input_tokens,
        },
      ]),
  );
  if (Object.keys(steps).length === 0) return;
  const rows = result.files.flatMap((f) => f.analysis?.functions ?? []);
  const shape: RunShape = {
    curated: result.files.filter((f) => f.step1).length,
    analysed: result.files.filter((f) => f.analysis).length,
    functions: rows.length,
    solo: rows.filter((r) => r.solo_review).length,
    challenged: result.files.filter((f) => f.challenged).length,
  };
  const runs = [...(await readUsageHistory(stateDir)), { at: at.toISOString(), steps, shape }].slice(-HISTORY_RUNS);
  await replaceFile(
    join(stateDir, HISTORY_FILE),
    JSON.stringify({ version: 1, runs } satisfies z.infer<typeof History>, null, 2),
  );
}

/** Per-call token figures of one step on one model: pooled over the runs that have it, and each run's own (by history index). */
export interface Calibration {
  perCall: TokenCounts;
  byRun: (TokenCounts | undefined)[];
}

export function calibration(history: RunUsage[], step: string, model: string): Calibration | undefined {
  const of = (r: RunUsage) => {
    const s = r.steps[step];
    return s && s.model === model && s.calls > 0 ? s : undefined;
  };
  const seen = history.flatMap((r) => of(r) ?? []);
  if (seen.length === 0) return undefined;
  const perCall = (calls: number, all: z.infer<typeof StepUsage>[]): TokenCounts => ({
    input_tokens: all.reduce((n, s) => n + s.input_tokens, 0) / calls,
    output_tokens: all.reduce((n, s) => n + s.output_tokens, 0) / calls,
    cache_read_input_tokens: all.reduce((n, s) => n + s.cache_read_input_tokens, 0) / calls,
    cache_creation_input_tokens: all.reduce((n, s) => n + s.cache_creation_input_tokens, 0) / calls,
  });
  return {
    perCall: perCall(
      seen.reduce((n, s) => n + s.calls, 0),
      seen,
    ),
    byRun: history.map((r) => {
      const s = of(r);
      return s && perCall(s.calls, [s]);
    }),
  };
}

/** The recorded runs' files, summed: the rates the estimate sizes unknown files by; undefined with no run recorded. */
export function recordedShape(history: RunUsage[]): RunShape | undefined {
  if (history.length === 0) return undefined;
  const sum = (k: keyof RunShape) => history.reduce((n, r) => n + r.shape[k], 0);
  return {
    curated: sum('curated'),
    analysed: sum('analysed'),
    functions: sum('functions'),
    solo: sum('solo'),
    challenged: sum('challenged'),
  };
}
