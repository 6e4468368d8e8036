/**
 * Every request fits its model's context window, checked before it is sent: a local, conservative token
 * estimate of the whole request (system, tools, output schema, every turn) plus its `max_tokens`, against
 * the window of model/contextWindow.ts. When the API still answers `prompt is too long` (its tokenizer
 * counted more than we did, or the endpoint's window is smaller than the table's), the guard learns both for
 * that model, so the request rebuilt smaller is measured by them, and the same request is never sent again.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { contextWindowOf } from '../model/contextWindow';
import type { PriceOverrides } from '../model/pricing';

type Params = Anthropic.Messages.MessageCreateParamsNonStreaming;

/**
 * UTF-8 bytes per token, on the low side: the current models' tokenizer takes about 3.5 bytes a token on
 * code and more on prose, and the JSON escapes counted here (`\n`, `\"`) add bytes the model never sees.
 */
const BYTES_PER_TOKEN = 3;
/** A learned ratio is taken with this margin, so the request rebuilt after a refusal is not refused again. */
const LEARNED_MARGIN = 1.1;
/** The most UTF-8 bytes one UTF-16 unit of a string takes in JSON: a control character or a lone surrogate escaped as `\u001f`. */
const MAX_BYTES_PER_UNIT = 6;
/** The longest JSON a number takes (`-1.7976931348623157e+308`). */
const MAX_NUMBER_BYTES = 24;

/** A request that does not fit its model's window: refused here before sending, or by the API. */
export class PromptTooLong extends Error {
  constructor(
    message: string,
    readonly tokens: number,
    readonly window: number,
  ) {
    super(message);
  }
}

/** The API's words for a prompt over the window: "prompt is too long: 345320 tokens > 199999 maximum". */
const TOO_LONG = /prompt is too long: (\d+) tokens > (\d+) maximum/;

/** The prompt's tokens by the local estimate, without any learned correction. */
export function estimatePromptTokens(params: Pick<Params, 'system' | 'tools' | 'messages' | 'output_config'>): number {
  const bytes = Buffer.byteLength(
    JSON.stringify([params.system ?? null, params.tools ?? null, params.output_config ?? null, params.messages]),
  );
  return Math.ceil(bytes / BYTES_PER_TOKEN);
}

/**
 * At least Buffer.byteLength(JSON.stringify(value)), from its shape and its strings' lengths alone: nothing is
 * copied or scanned, so a request far inside its window is shown to fit at almost no cost (every file's fit,
 * every synthesis part tried, every send); only one near its window is counted byte by byte.
 */
export function jsonBytesAtMost(value: unknown): number {
  if (typeof value === 'string') return 2 + MAX_BYTES_PER_UNIT * value.length;
  if (typeof value === 'number') return MAX_NUMBER_BYTES;
  if (value === null || typeof value !== 'object') return 5; // true, false, null (an omitted undefined counts too)
  let bytes = 2;
  if (Array.isArray(value)) for (const item of value as unknown[]) bytes += 1 + jsonBytesAtMost(item);
  else
    for (const [key, item] of Object.entries(value))
      bytes += 4 + MAX_BYTES_PER_UNIT * key.length + jsonBytesAtMost(item);
  return bytes;
}

/** What `text` adds to a request by the same estimate (as a JSON string: escapes counted). */
export function estimateTextTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(JSON.stringify(text)) / BYTES_PER_TOKEN);
}

export class WindowGuard {
  /** Per model: how many times more tokens the API counted than the estimate, once it has said so. */
  private readonly ratio = new Map<string, number>();
  /** Per model: the window the API's refusal implies, when smaller than the table's (a gateway's limit, say). */
  private readonly learned = new Map<string, number>();

  constructor(private readonly overrides: PriceOverrides = {}) {}

  window(model: string): number {
    return Math.min(contextWindowOf(model, this.overrides), this.learned.get(model) ?? Infinity);
  }

  /** The request's prompt tokens (estimated, corrected by what the API taught) and its window. */
  measure(params: Params): { prompt: number; window: number } {
    const prompt = Math.ceil(estimatePromptTokens(params) * (this.ratio.get(params.model) ?? 1));
    return { prompt, window: this.window(params.model) };
  }

  /** Tokens the window leaves beside the request and its max_tokens (negative: it does not fit). */
  room(params: Params): number {
    const { prompt, window } = this.measure(params);
    return window - prompt - params.max_tokens;
  }

  /**
   * What the window leaves at least, by the request's bound (jsonBytesAtMost) in place of its bytes: when this
   * is enough, the count byte by byte could only say more.
   */
  private roomAtLeast(params: Params): number {
    const bytes = jsonBytesAtMost([
      params.system ?? null,
      params.tools ?? null,
      params.output_config ?? null,
      params.messages,
    ]);
    const prompt = Math.ceil((bytes / BYTES_PER_TOKEN) * (this.ratio.get(params.model) ?? 1));
    return this.window(params.model) - prompt - params.max_tokens;
  }

  /** Whether the request fits with `headroom` tokens to spare beyond its own max_tokens (a later turn's growth). */
  fits(params: Params, headroom = 0): boolean {
    return this.roomAtLeast(params) >= headroom || this.room(params) >= headroom;
  }

  /** The request's max_tokens, lowered as far as `floor` where that makes it fit; as it is otherwise. */
  outputFor(params: Params, floor: number): number {
    if (this.roomAtLeast(params) >= 0) return params.max_tokens;
    const { prompt, window } = this.measure(params);
    const room = window - prompt;
    return room < params.max_tokens && room >= floor ? room : params.max_tokens;
  }

  /** Throws PromptTooLong for a request that would not fit: nothing is sent. */
  check(params: Params): void {
    if (this.roomAtLeast(params) >= 0) return;
    const { prompt, window } = this.measure(params);
    if (prompt + params.max_tokens <= window) return;
    throw new PromptTooLong(
      `the request (about ${prompt} prompt tokens and ${params.max_tokens} for the answer) does not fit ${params.model}'s context window of ${window} tokens`,
      prompt,
      window,
    );
  }

  /**
   * For an API error that says the prompt is too long: learns how far the estimate was short for this model
   * and returns the refusal as a PromptTooLong; undefined for any other error.
   */
  learn(params: Params, apiMessage: string): PromptTooLong | undefined {
    const m = TOO_LONG.exec(apiMessage);
    if (!m) return undefined;
    const counted = Number(m[1]);
    const maximum = Number(m[2]);
    const estimate = estimatePromptTokens(params);
    const ratio = (counted / Math.max(1, estimate)) * LEARNED_MARGIN;
    if (ratio > (this.ratio.get(params.model) ?? 1)) this.ratio.set(params.model, ratio);
    const window = maximum + params.max_tokens;
    if (window < this.window(params.model)) this.learned.set(params.model, window);
    return new PromptTooLong(
      `the API counted ${counted} prompt tokens, over the ${maximum} that ${params.model}'s window leaves beside max_tokens`,
      counted,
      window,
    );
  }
}
