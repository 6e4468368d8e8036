/**
 * What a recorded staged run says (the record app/usageHistory.ts keeps in the repository's state folder):
 * per step and model, the calls and the four token counts the API bills; and how its files went. From
 * these the staged estimate (engine/staged/estimate.ts) takes its per-call token figures and the rates it
 * sizes unknown files by.
 */
import { z } from 'zod';
import type { TokenCounts } from './pricing';

const count = () => z.number().int().nonnegative();
export const StepUsage = z.object({
  model: z.string().min(1),
  calls: count(),
  input_tokens: count(),
  output_tokens: count(),
  cache_read_input_tokens: count(),
  cache_creation_input_tokens: count(),
});
/** Counted over the run's files whatever answered them (model or result cache): they describe the code, not the cache. */
export const RunShape = z.object({
  curated: count(),
  analysed: count(),
  functions: count(),
  solo: count(),
  challenged: count(),
});
export type RunShape = z.infer<typeof RunShape>;
export const RunUsage = z.object({ at: z.string(), steps: z.record(z.string(), StepUsage), shape: RunShape });
export type RunUsage = z.infer<typeof RunUsage>;
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
