/**
 * Every request fits its model's context window, shown before it is sent. The window is the least of the
 * table's (model/contextWindow.ts, the user's price table over it), the one the endpoint states for the model
 * (the Models API's `max_input_tokens`, asked once per model) and one an API refusal implied. A request is
 * sent only when a true upper bound on its tokens fits — one token per UTF-8 byte of its JSON, plus what the
 * API adds on its own — or, where the provider counts tokens (`count_tokens`), when its count with a margin
 * does. Sizing (what goes into a request) uses a closer estimate where a count can confirm it, and the bound
 * itself where none can, so a request sized to fit is never refused here. When the API still answers `prompt
 * is too long`, the guard learns from it, and the same request is never sent again.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { contextWindowOf } from '../model/contextWindow';
import type { PriceOverrides } from '../model/pricing';

type Params = Anthropic.Messages.MessageCreateParamsNonStreaming;

/**
 * UTF-8 bytes per token for sizing where the provider's count confirms each request near its window: the
 * current models' tokenizer takes about 3.5 bytes a token on code and more on prose, and the JSON escapes
 * counted here (`\n`, `\"`) add bytes the model never sees. Not a bound: dense text takes more.
 */
const BYTES_PER_TOKEN = 3;
/**
 * Where nothing counts, sizing and the check take the bound itself: no token is shorter than a byte (the
 * tokenizer works on UTF-8 bytes), and the request's JSON holds every byte of its text.
 */
const BOUND_BYTES_PER_TOKEN = 1;
/**
 * What the API adds to a prompt on its own, beyond the request's JSON: the tool-use system prompt (a few
 * hundred tokens by the docs' table), the structured-output instructions. Taken generously.
 */
const ADDED_TOKENS = 1_024;
/** The provider's count "may differ by a small amount" from what the request is billed: taken with this margin. */
const COUNT_MARGIN = 1.02;
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
export function estimatePromptTokens(params: PromptParams): number {
  return Math.ceil(promptBytes(params) / BYTES_PER_TOKEN);
}

type PromptParams = Pick<Params, 'system' | 'tools' | 'messages' | 'output_config'>;

/** What of a request counts toward its prompt, as one JSON value. */
const promptParts = (params: PromptParams): unknown[] => [
  params.system ?? null,
  params.tools ?? null,
  params.output_config ?? null,
  params.messages,
];

/** The UTF-8 bytes of the request's prompt as JSON. */
const promptBytes = (params: PromptParams): number => Buffer.byteLength(JSON.stringify(promptParts(params)));

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
    // for…in rather than Object.entries: no array per object walked, on a path every request takes.
    for (const key in value)
      if (Object.hasOwn(value, key))
        bytes += 4 + MAX_BYTES_PER_UNIT * key.length + jsonBytesAtMost((value as Record<string, unknown>)[key]);
  return bytes;
}

/** What `text` adds to a request by the same estimate (as a JSON string: escapes counted). */
export function estimateTextTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(JSON.stringify(text)) / BYTES_PER_TOKEN);
}

/** What an endpoint can say about its windows and its tokens (engine/connect.ts); each part optional. */
export interface WindowSource {
  /**
   * The model's input window as the endpoint states it: null when it answered that it states none (it has no
   * Models API, or the answer lacks the field), undefined when it could not be asked now. Never rejects.
   */
  windowOf?: (model: string) => Promise<number | null | undefined>;
  /** The prompt's input tokens by the provider's own count (`count_tokens`); rejects when it cannot count. */
  countTokens?: (params: Params) => Promise<number>;
}

export class WindowGuard {
  /** Per model: how many times more tokens the API counted than the estimate, once it has said so. */
  private readonly ratio = new Map<string, number>();
  /** Per model: the window the API's refusal implies, when smaller than the table's (a gateway's limit, say). */
  private readonly learned = new Map<string, number>();
  /** Per model: the endpoint's own word on its window, asked once (undefined in the map: asked, no answer yet). */
  private readonly stated = new Map<string, number | undefined>();
  private readonly asking = new Map<string, Promise<void>>();
  /**
   * Bytes a token for sizing: close where a count confirms each request near its window, the bound where none
   * can — and from the first count the endpoint fails to give (it has no count_tokens), for the rest of the run.
   */
  private sizing: number;

  /** `counted`: sizes as where the provider counts (a plan for such a run, without a connection to count with). */
  constructor(
    private readonly overrides: PriceOverrides = {},
    private readonly source: WindowSource = {},
    counted = source.countTokens !== undefined,
  ) {
    this.sizing = counted ? BYTES_PER_TOKEN : BOUND_BYTES_PER_TOKEN;
  }

  window(model: string): number {
    void this.ask(model);
    return Math.min(
      contextWindowOf(model, this.overrides),
      this.stated.get(model) ?? Infinity,
      this.learned.get(model) ?? Infinity,
    );
  }

  /** Asks the endpoint for the model's window once; settles when it has answered (or could not). */
  private ask(model: string): Promise<void> {
    const windowOf = this.source.windowOf;
    if (!windowOf) return Promise.resolve();
    let asked = this.asking.get(model);
    if (!asked) {
      this.stated.set(model, undefined);
      asked = windowOf(model).then(
        (window) => void this.stated.set(model, window ?? undefined),
        () => undefined,
      );
      this.asking.set(model, asked);
    }
    return asked;
  }

  /** The request's prompt tokens for sizing (corrected by what the API taught) and its window. */
  measure(params: Params): { prompt: number; window: number } {
    return { prompt: this.tokens(params.model, promptBytes(params), this.sizing), window: this.window(params.model) };
  }

  /**
   * What the window leaves beside the request and its max_tokens (negative: it does not fit), in the units of
   * estimateTextTokens, so a caller can pack texts into it by that estimate.
   */
  room(params: Params): number {
    const { prompt, window } = this.measure(params);
    return Math.floor(((window - prompt - params.max_tokens) * this.sizing) / BYTES_PER_TOKEN);
  }

  /**
   * What the window leaves at least, by the request's bound (jsonBytesAtMost) in place of its bytes: when this
   * is enough, the count byte by byte could only say more.
   */
  private roomAtLeast(params: Params): number {
    const prompt = this.tokens(params.model, jsonBytesAtMost(promptParts(params)), this.sizing);
    return this.window(params.model) - prompt - params.max_tokens;
  }

  /** Whether the request fits with `headroom` tokens to spare beyond its own max_tokens (a later turn's growth). */
  fits(params: Params, headroom = 0): boolean {
    return this.roomAtLeast(params) >= headroom || this.measureRoom(params) >= headroom;
  }

  private measureRoom(params: Params): number {
    const { prompt, window } = this.measure(params);
    return window - prompt - params.max_tokens;
  }

  /** The request's max_tokens, lowered as far as `floor` where that makes it fit; as it is otherwise. */
  outputFor(params: Params, floor: number): number {
    if (this.roomAtLeast(params) >= 0) return params.max_tokens;
    const { prompt, window } = this.measure(params);
    const room = window - prompt;
    return room < params.max_tokens && room >= floor ? room : params.max_tokens;
  }

  /**
   * Resolves when the request is shown to fit the window the endpoint states (asked first, once per model):
   * by the bound — a token at most per byte of its JSON, plus what the API adds — or else by the provider's
   * count with a margin. Throws PromptTooLong otherwise: nothing is sent.
   */
  async admit(params: Params): Promise<void> {
    await this.ask(params.model);
    const window = this.window(params.model);
    const room = window - params.max_tokens;
    if (this.tokens(params.model, jsonBytesAtMost(promptParts(params)), BOUND_BYTES_PER_TOKEN) <= room) return;
    const bytes = promptBytes(params);
    const bound = this.tokens(params.model, bytes, BOUND_BYTES_PER_TOKEN);
    if (bound <= room) return;
    let prompt = bound;
    if (this.source.countTokens && this.sizing !== BOUND_BYTES_PER_TOKEN) {
      const counted = await this.source.countTokens(params).catch(() => {
        this.sizing = BOUND_BYTES_PER_TOKEN;
        return undefined;
      });
      if (counted !== undefined) {
        prompt = Math.ceil(counted * COUNT_MARGIN);
        this.teach(params.model, counted / Math.max(1, estimatePromptTokens(params)));
        if (prompt <= room) return;
      }
    }
    throw new PromptTooLong(
      `the request (${prompt === bound ? 'at most' : 'counted at'} ${prompt} prompt tokens and ${params.max_tokens} for the answer) does not fit ${params.model}'s context window of ${window} tokens`,
      prompt,
      window,
    );
  }

  /**
   * A prompt of `bytes` in tokens at `perToken` bytes a token, or at what the API taught where that says more,
   * plus what the API adds on its own.
   */
  private tokens(model: string, bytes: number, perToken: number): number {
    return (
      Math.ceil(Math.max(bytes / perToken, (bytes / BYTES_PER_TOKEN) * (this.ratio.get(model) ?? 1))) + ADDED_TOKENS
    );
  }

  /** A count or a refusal showed the estimate `ratio` times short for this model: later sizing takes it, with a margin. */
  private teach(model: string, ratio: number): void {
    const margined = ratio * LEARNED_MARGIN;
    if (margined > (this.ratio.get(model) ?? 1)) this.ratio.set(model, margined);
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
    this.teach(params.model, counted / Math.max(1, estimatePromptTokens(params)));
    const window = maximum + params.max_tokens;
    if (window < this.window(params.model)) this.learned.set(params.model, window);
    return new PromptTooLong(
      `the API counted ${counted} prompt tokens, over the ${maximum} that ${params.model}'s window leaves beside max_tokens`,
      counted,
      window,
    );
  }
}
