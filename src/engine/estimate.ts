/** What both modes' cost models share (staged/estimate.ts, lenses/estimate.ts): a part's figures and their sum. */

/** One step's (staged) or role's (lenses) calls and tokens. */
export interface StepEstimate {
  calls: number;
  inputTokens: number;
  outputTokens: number;
}

/** About four characters a token: the estimate's measure of prompt text. */
export const tokens = (chars: number) => Math.ceil(chars / 4);

/** A run's totals over its steps or roles. */
export function totals(parts: StepEstimate[]): StepEstimate {
  return {
    calls: parts.reduce((n, s) => n + s.calls, 0),
    inputTokens: parts.reduce((n, s) => n + s.inputTokens, 0),
    outputTokens: parts.reduce((n, s) => n + s.outputTokens, 0),
  };
}
