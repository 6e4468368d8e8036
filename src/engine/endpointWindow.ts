/**
 * What the first-party API (or a server that speaks it) says of its windows and tokens, for the window guard
 * (window.ts): a model's input window from the Models API (`GET /v1/models/{id}`, `max_input_tokens`), asked
 * once per model, and a prompt's tokens from `POST /v1/messages/count_tokens`, asked only for a request the
 * byte bound cannot show to fit. A server that does not answer either (a compatible one, say) leaves the
 * table's window and the bound.
 */
import Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import type { Provider } from '../model/providers';
import type { WindowSource } from './window';

/** Where the run counts a request's tokens before sending it (and its plan sizes requests as the run will). */
export const countsTokens = (provider: Provider): boolean => provider === 'anthropic';

/** How long the window's question may take: it is asked beside the run's first requests, which wait for it. */
const ASK_MS = 10_000;

/** What a server without the Models API answers its route: not found, not allowed, not implemented, bad request. */
const NO_MODELS_API = new Set([400, 404, 405, 501]);

const ModelAnswer = z.looseObject({ max_input_tokens: z.number().int().positive().nullish() });
const CountAnswer = z.looseObject({ input_tokens: z.number().int().nonnegative() });

export function endpointWindow(sdk: Anthropic, counts: boolean): WindowSource {
  // Asked once per model, when the run first sizes or sends a request for it.
  const asked = new Map<string, Promise<number | null | undefined>>();
  // An answer without the field, or a refusal of the route (a server without the Models API), says the endpoint
  // states none: null. Anything else (a timeout, 429, 5xx, no connection) says nothing yet: undefined.
  const ask = (model: string) =>
    sdk.models.retrieve(model, undefined, { timeout: ASK_MS }).then(
      (answer) => ModelAnswer.safeParse(answer).data?.max_input_tokens ?? null,
      (err: unknown) => (err instanceof Anthropic.APIError && NO_MODELS_API.has(err.status ?? 0) ? null : undefined),
    );
  return {
    windowOf: (model) => {
      let window = asked.get(model);
      if (!window) asked.set(model, (window = ask(model)));
      return window;
    },
    ...(counts
      ? {
          countTokens: async ({ model, system, tools, tool_choice, output_config, thinking, messages }) => {
            const answer = await sdk.messages.countTokens({
              model,
              messages,
              ...(system !== undefined ? { system } : {}),
              ...(tools !== undefined ? { tools } : {}),
              ...(tool_choice !== undefined ? { tool_choice } : {}),
              ...(output_config !== undefined ? { output_config } : {}),
              ...(thinking !== undefined ? { thinking } : {}),
            });
            return CountAnswer.parse(answer).input_tokens;
          },
        }
      : {}),
  };
}
