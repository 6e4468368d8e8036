/**
 * Price and context-window overrides as a user writes them (the skeptic.prices setting, a --prices file),
 * checked by schema.
 */
import { z } from 'zod';
import type { ModelEntry as Entry, PriceOverrides as Overrides } from '../model/pricing';

/** The smallest window worth a review: the system prompt and tools alone take several thousand tokens. */
const MIN_CONTEXT_WINDOW = 8_000;

export const ModelEntry: z.ZodType<Entry> = z
  .strictObject({
    input: z.number().nonnegative().optional(),
    output: z.number().nonnegative().optional(),
    cache_write: z.number().nonnegative().optional(),
    cache_write_1h: z.number().nonnegative().optional(),
    cache_read: z.number().nonnegative().optional(),
    context_window: z.number().int().min(MIN_CONTEXT_WINDOW).optional(),
  })
  .superRefine((row, ctx) => {
    const priced =
      row.input !== undefined ||
      row.output !== undefined ||
      row.cache_write !== undefined ||
      row.cache_read !== undefined;
    for (const field of ['input', 'output'] as const) {
      if (priced && row[field] === undefined)
        ctx.addIssue({ code: 'custom', path: [field], message: `a price needs ${field}` });
    }
    if (!priced && row.context_window === undefined)
      ctx.addIssue({ code: 'custom', path: [], message: 'give a price or a context_window' });
  });

const PriceOverrides: z.ZodType<Overrides> = z.record(z.string().min(1), ModelEntry);

/** Parses an override table (a settings object, or a --prices file's JSON); throws with the offending path. */
export function parsePriceOverrides(value: unknown, source: string): Overrides {
  const parsed = PriceOverrides.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new Error(
    `${source}: ${issue.path.join('.') || '(top level)'}: ${issue.message} (expected {"MODEL": {"input": 3, "output": 15}} in dollars per million tokens, and/or {"context_window": 200000} in tokens)`,
  );
}
