/**
 * Price and context-window overrides as a user writes them (the skeptic.prices setting, a --prices file),
 * checked by schema.
 */
import { z } from 'zod';
import type { ModelEntry as Entry, PriceOverrides as Overrides } from '../model/pricing';

/** The smallest window worth a review: the system prompt and tools alone take several thousand tokens. */
const MIN_CONTEXT_WINDOW = 8_000;
/** Dollars per million tokens no model costs: a bigger number is a typo, and 1e308 would make every total $NaN. */
const MAX_PRICE = 1_000_000;
const price = () =>
  z
    .number()
    .nonnegative()
    // Worded when it is needed: the first number formatted loads ICU's locale data (~20 ms of every start).
    .max(MAX_PRICE, {
      error: () => `a price is dollars per million tokens, at most ${MAX_PRICE.toLocaleString('en-US')}`,
    })
    .optional();

export const ModelEntry: z.ZodType<Entry> = z
  .strictObject({
    input: price(),
    output: price(),
    cache_write: price(),
    cache_write_1h: price(),
    cache_read: price(),
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
