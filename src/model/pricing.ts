/**
 * What tokens cost: a dated table of list prices per model family (US dollars per million tokens), which a
 * user can override per model (a setting in the extension, `--prices FILE` in the CLI) when the list
 * changes or a contract differs. Cache writes cost 1.25× input (5-minute entries) or 2× (1-hour entries) and
 * cache reads 0.1× unless a price says otherwise; the Message Batches API charges half of all of it. A model
 * the table does not know has no price: its cost is null, never a guess. The same table may set a model's
 * context window (model/contextWindow.ts reads it).
 * Parsing an override table is app/prices.ts's (zod stays out of the extension host, which formats costs).
 */

import { plural } from './plural';

/** The day the table below was checked against the published list prices. */
export const PRICES_AS_OF = '2026-11-01';

/** Dollars per million tokens; the cache prices default to 1.25× (5-minute write), 2× (1-hour write) and 0.1× (read) the input price. */
export interface ModelPrice {
  input: number;
  output: number;
  cache_write?: number;
  cache_write_1h?: number;
  cache_read?: number;
}

/** One row of the user's model table: a price (input and output together), a context window in tokens, or both. */
export interface ModelEntry extends Partial<ModelPrice> {
  context_window?: number;
}

/** Overrides: model ID (exact) or family name (`opus`, `sonnet`, `haiku`) → its row. */
export type PriceOverrides = Record<string, ModelEntry>;

/** A request through the Message Batches API costs this share of the same request sent live. */
export const BATCH_SHARE = 0.5;

/** How the tokens were bought: `hourWrites` of the cache writes were 1-hour entries; `batch`, through a batch. */
export interface Tariff {
  batch?: boolean;
  hourWrites?: number;
}

/** List prices per family; a model ID is priced by the family its name contains. */
const FAMILY_PRICES: Record<string, ModelPrice> = {
  opus: { input: 5, output: 25 },
  sonnet: { input: 3, output: 15 },
  haiku: { input: 1, output: 5 },
};

/** The token counts a price applies to (the API's usage fields). */
export interface TokenCounts {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

const familyOf = (model: string) => Object.keys(FAMILY_PRICES).find((f) => model.toLowerCase().includes(f));

/** The user's row for `model` that sets `field`: its exact ID's, else its family's; undefined when neither does. */
export function overrideOf<K extends keyof ModelEntry>(
  model: string,
  overrides: PriceOverrides,
  field: K,
): ModelEntry | undefined {
  const family = familyOf(model);
  return [overrides[model], family === undefined ? undefined : overrides[family]].find(
    (row) => row?.[field] !== undefined,
  );
}

/** The price of `model`: an override for its exact ID, else for its family, else the list; undefined when unknown. */
export function priceOf(model: string, overrides: PriceOverrides = {}): ModelPrice | undefined {
  const row = overrideOf(model, overrides, 'input');
  if (row?.input !== undefined && row.output !== undefined) {
    const { input, output, cache_write, cache_write_1h, cache_read } = row;
    return {
      input,
      output,
      ...(cache_write !== undefined ? { cache_write } : {}),
      ...(cache_write_1h !== undefined ? { cache_write_1h } : {}),
      ...(cache_read !== undefined ? { cache_read } : {}),
    };
  }
  const family = familyOf(model);
  return family ? FAMILY_PRICES[family] : undefined;
}

/**
 * `overrides` plus, for each model whose calls cost a factor more (a regional endpoint), its price so scaled;
 * an override for the exact id is the user's own figure and stays as it is.
 */
export function withPremiums(
  overrides: PriceOverrides,
  models: Iterable<string>,
  factor: (model: string) => number,
): PriceOverrides {
  const out = { ...overrides };
  for (const model of new Set(models)) {
    const f = factor(model);
    const p = priceOf(model, overrides);
    if (f === 1 || !p || overrides[model]?.input !== undefined) continue;
    out[model] = {
      ...overrides[model],
      input: p.input * f,
      output: p.output * f,
      cache_write: (p.cache_write ?? 1.25 * p.input) * f,
      cache_write_1h: (p.cache_write_1h ?? 2 * p.input) * f,
      cache_read: (p.cache_read ?? 0.1 * p.input) * f,
    };
  }
  return out;
}

/** Dollars for `usage` on `model`, or null when the model has no known price. */
export function costUsd(
  model: string,
  usage: TokenCounts,
  overrides: PriceOverrides = {},
  tariff: Tariff = {},
): number | null {
  const p = priceOf(model, overrides);
  if (!p) return null;
  const hour = Math.min(tariff.hourWrites ?? 0, usage.cache_creation_input_tokens);
  const perToken =
    usage.input_tokens * p.input +
    usage.output_tokens * p.output +
    (usage.cache_creation_input_tokens - hour) * (p.cache_write ?? 1.25 * p.input) +
    hour * (p.cache_write_1h ?? 2 * p.input) +
    usage.cache_read_input_tokens * (p.cache_read ?? 0.1 * p.input);
  return (perToken / 1_000_000) * (tariff.batch ? BATCH_SHARE : 1);
}

/**
 * Who bills a run's calls: absent, Anthropic or the cloud at the price table's rates; `editor`, the editor's plan
 * (provider vscode-lm: a Copilot plan, say), which is not priced per token, so Skeptic shows no dollar figure.
 */
export type Billing = 'editor';

/** The words for a cost the editor's plan bills: no dollar figure is ever shown for it. */
export const EDITOR_PLAN = "billed by the editor's plan";

/** The cost as a line of figures shows it: "$0.42", or "editor's plan" for calls the editor bills. */
export function formatCost(dollars: number | null, billing?: Billing): string {
  return billing === 'editor' ? "editor's plan" : formatUsd(dollars);
}

/**
 * An estimate as a question before a run puts it: "12 model calls (~30k input tokens, ~$0.42)"; no dollars when
 * a model has no price, and the editor's plan named instead when it bills the calls.
 */
export function describeEstimate(e: {
  calls: number;
  inputTokens: number;
  costUsd: number | null;
  billing?: Billing;
}): string {
  const cost = e.billing === 'editor' ? `; ${EDITOR_PLAN}` : e.costUsd === null ? '' : `, ~${formatUsd(e.costUsd)}`;
  return `${plural(e.calls, 'model call')} (~${Math.round(e.inputTokens / 1000)}k input tokens${cost})`;
}

/** "$0.42", "$12.30", "<$0.01", or "$?" when some of it could not be priced. */
export function formatUsd(dollars: number | null): string {
  if (dollars === null) return '$?';
  if (dollars > 0 && dollars < 0.01) return '<$0.01';
  return `$${dollars.toFixed(2)}`;
}

/** What a run through the Message Batches API did: its rounds and batches, and what it collected (events.ts RunAccounting.batch). */
export interface BatchRun {
  rounds: number;
  batches: number;
  collected: number;
}

/**
 * "through the Message Batches API at half price: 4 rounds, 4 batches", for the summary and the reports;
 * undefined for a run that sent nothing through batches (the result cache answered it whole).
 */
export function describeBatchRun(b: BatchRun | undefined): string | undefined {
  if (!b?.rounds) return undefined;
  const collected = b.collected
    ? `, ${plural(b.collected, 'request')} collected from batches an earlier run left running`
    : '';
  return `through the Message Batches API at half price: ${plural(b.rounds, 'round')}, ${plural(b.batches, 'batch', 'batches')}${collected}`;
}

/**
 * "≈ $0.42 at the price table of 2026-11-01" (or what bills it instead), for reports and summaries; for a run through the Message Batches
 * API, what it did too ("…, through the Message Batches API at half price: 4 rounds, 4 batches").
 */
export function describeCost(dollars: number | null, batch?: BatchRun, billing?: Billing): string {
  const cost =
    billing === 'editor'
      ? `${EDITOR_PLAN} (the editor's language models have no price per token)`
      : dollars === null
        ? 'unknown (a model without a price; see --prices)'
        : `≈ ${formatUsd(dollars)} at the price table of ${PRICES_AS_OF}`;
  const run = describeBatchRun(batch);
  return run ? `${cost}, ${run}` : cost;
}
