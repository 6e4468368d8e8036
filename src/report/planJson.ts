/** `skeptic plan --json`: Step 0 and the estimate as one record, for CI and tooling. Declared once as a schema. */
import { z } from 'zod';

const Cost = z.object({
  calls: z.number().int().min(0),
  input_tokens: z.number().int().min(0),
  output_tokens: z.number().int().min(0),
  /** Staged steps only: of input_tokens, those read from and written to the prompt cache; dollars; where the per-call figures come from. */
  cache_read_tokens: z.number().int().min(0).optional(),
  cache_write_tokens: z.number().int().min(0).optional(),
  cost_usd: z.number().min(0).nullable().optional(),
  basis: z.enum(['history', 'defaults']).optional(),
});

export const PlanJson = z.object({
  version: z.literal(1),
  mode: z.enum(['staged', 'lenses']),
  scope: z.string(),
  review_roots: z.array(z.string()),
  files: z.array(
    z.object({
      path: z.string(),
      language: z.string(),
      companion: z.string().nullable(),
      /** `syntax`: the parser's exact functions; `regex`: the fallback's top-level guesses; null: none found for this language. */
      parser: z.enum(['syntax', 'regex']).nullable(),
      /** Present (true) where a plan of many unparsed files counted them by the quick finder (parser `regex`). */
      counted_quickly: z.literal(true).optional(),
      functions: z.array(
        z.object({ name: z.string(), kind: z.string(), start: z.number().int().min(1), end: z.number().int().min(1) }),
      ),
    }),
  ),
  /** `detail` says more where there is more to say: for a secret, its kind and line ("PrivateKeyBlock on line 2"). */
  exclusions: z.array(z.object({ path: z.string(), reason: z.string(), detail: z.string().optional() })),
  estimate: Cost.extend({
    /** Functions Step 3 would review (in a change review, those the change touches). Staged mode only. */
    functions: z.number().int().min(0).nullable(),
    /** Per staged step, or per lens role. */
    by_step: z.record(z.string(), Cost),
    /** Estimated dollars at the price table's rates (halved for --batch), null when a model has no price; in lens mode an upper bound (no cache reads). */
    cost_usd: z.number().min(0).nullable(),
    /** Staged mode: the lowest and highest cost under each recorded run's own per-call figures (two runs or more), else null. */
    cost_range_usd: z.tuple([z.number().min(0), z.number().min(0)]).nullable(),
    /** Staged mode: recorded runs of this repository the per-call token figures come from (0: the defaults). */
    history_runs: z.number().int().min(0).nullable(),
    /** Staged mode with the result cache on: units it answers, of total_units (Steps 1, 2, 4 per file, Step 3 per function, synthesis). */
    cached_units: z.number().int().min(0).nullable(),
    total_units: z.number().int().min(0).nullable(),
    /** Files whose functions were counted by the quick finder, not the parser (a review parses every file). */
    quick_counted_files: z.number().int().min(0),
  }),
});
export type PlanJson = z.infer<typeof PlanJson>;
