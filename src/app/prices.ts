/** Price overrides as a user writes them (the skeptic.prices setting, a --prices file), checked by schema. */
import { z } from 'zod';
import type { ModelPrice as Price, PriceOverrides as Overrides } from '../model/pricing';

export const ModelPrice: z.ZodType<Price> = z.strictObject({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cache_write: z.number().nonnegative().optional(),
  cache_read: z.number().nonnegative().optional(),
});

const PriceOverrides: z.ZodType<Overrides> = z.record(z.string().min(1), ModelPrice);

/** Parses an override table (a settings object, or a --prices file's JSON); throws with the offending path. */
export function parsePriceOverrides(value: unknown, source: string): Overrides {
  const parsed = PriceOverrides.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new Error(
    `${source}: ${issue.path.join('.') || '(top level)'}: ${issue.message} (expected {"MODEL": {"input": 3, "output": 15}} in dollars per million tokens)`,
  );
}
