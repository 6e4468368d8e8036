import type { Billing } from './pricing';

/** Tokens, calls and dollars, summed per step and per run. */
export interface Usage {
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  /** Dollars at the price table's rates (src/model/pricing.ts); null once any call ran on a model without a price, or billed by the editor. */
  cost_usd: number | null;
  /** `editor`: the calls were billed by the editor's plan (provider vscode-lm), so cost_usd is null. Absent: priced. */
  billing?: Billing;
}

export function emptyUsage(): Usage {
  return {
    calls: 0,
    input_tokens: 0,
    output_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
    cost_usd: 0,
  };
}

export function addUsage(into: Usage, more: Partial<Usage>): void {
  into.calls += more.calls ?? 0;
  into.input_tokens += more.input_tokens ?? 0;
  into.output_tokens += more.output_tokens ?? 0;
  into.cache_read_input_tokens += more.cache_read_input_tokens ?? 0;
  into.cache_creation_input_tokens += more.cache_creation_input_tokens ?? 0;
  if (more.cost_usd !== undefined)
    into.cost_usd = into.cost_usd === null || more.cost_usd === null ? null : into.cost_usd + more.cost_usd;
  if (more.billing) into.billing = more.billing;
}
