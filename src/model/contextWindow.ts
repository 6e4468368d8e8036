/**
 * How many tokens a model's context window holds: a request's prompt plus its `max_tokens` must fit in it.
 * The one lookup every request is checked against (engine/window.ts); a provider whose ids or windows
 * differ extends it here. The user's model table (`--prices FILE`, `skeptic.prices`) overrides it per
 * model ID or family with `context_window`.
 */
import { overrideOf, type PriceOverrides } from './pricing';

/** What a Claude model holds unless it is known to hold more. */
export const DEFAULT_CONTEXT_WINDOW = 200_000;
const LARGE_CONTEXT_WINDOW = 1_000_000;

/**
 * Generations with a 1M-token window natively, per the models overview (checked 2026-11-01): Opus 4.6 to 4.8
 * and 5 on, Sonnet 4.6 and 5 on, Haiku 5.5, Fable and Mythos. Matched anywhere in the id, so a gateway's
 * spelling (`anthropic.claude-opus-5-5-v1:0`) finds its model too.
 */
const LARGE = [/opus-(?:4-[678]|[5-9])/, /sonnet-(?:4-6|[5-9])/, /haiku-(?:5-5|[6-9])/, /fable-/, /mythos-/];

export function contextWindowOf(model: string, overrides: PriceOverrides = {}): number {
  const own = overrideOf(model, overrides, 'context_window')?.context_window;
  if (own !== undefined) return own;
  const id = model.toLowerCase();
  return LARGE.some((r) => r.test(id)) ? LARGE_CONTEXT_WINDOW : DEFAULT_CONTEXT_WINDOW;
}
