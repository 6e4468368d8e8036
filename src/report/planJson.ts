/** `skeptic plan --json`: Step 0 and the estimate as one record, for CI and tooling. Declared once as a schema. */
import { z } from 'zod';

const Cost = z.object({ calls: z.number().int().min(0), input_tokens: z.number().int().min(0), output_tokens: z.number().int().min(0) });

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
      functions: z.array(z.object({ name: z.string(), kind: z.string(), start: z.number().int().min(1), end: z.number().int().min(1) })),
    }),
  ),
  exclusions: z.array(z.object({ path: z.string(), reason: z.string() })),
  estimate: Cost.extend({
    /** Functions Step 3 would review (in a change review, those the change touches). Staged mode only. */
    functions: z.number().int().min(0).nullable(),
    /** Per staged step, or per lens role. */
    by_step: z.record(z.string(), Cost),
  }),
});
export type PlanJson = z.infer<typeof PlanJson>;
