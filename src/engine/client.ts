/**
 * The one place that sends a Messages API call: checked against the model's context window first
 * (window.ts; a request that does not fit is never sent, and one the API calls too long is never retried
 * as it is), then the real SDK client, behind the run's concurrency limit,
 * with our own retry loop (the SDK's is switched off so that a waiting retry gives its slot back, honours
 * retry-after, and is counted), a per-call timeout and the run's AbortSignal. In batch mode the requests go
 * through the Message Batches API instead (engine/batch.ts), in rounds, at batch prices.
 */
import { setMaxListeners } from 'node:events';
import type Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import { batchRefusal, type Capabilities } from '../model/providers';
import type { Connection } from './connect';
import type { EndpointMemory, Refusable } from './endpointMemory';
import type { ErrorClasses } from './platform';
import { plural } from '../model/plural';
import { redact } from '../model/redact';
import { costUsd, formatUsd, type BatchRun, type PriceOverrides } from '../model/pricing';
import { Batcher, BatchRetry, type BatchOptions, type BatchState } from './batch';
import { BatchLedger } from './batchLedger';
import { DEFAULT_BACKOFF, retryDelayMs, sleep, type BackoffPolicy } from './backoff';
import { Semaphore, type PriorityOf } from '../model/semaphore';
import { addUsage, emptyUsage, type Usage } from '../model/usage';
import { estimatePromptTokens, WindowGuard, type WindowSource } from './window';
import { ResponseBoundError } from '../io/boundedFetch';

export type MessageParams = Anthropic.Messages.MessageCreateParamsNonStreaming;
export type Message = Anthropic.Messages.Message;

/** What a run's request says of its client: RunRequest (engine/reviewRun.ts) carries it as it is. */
export interface ClientRequest {
  /** The provider's SDK client with its credentials, error classes and capabilities (engine/connect.ts). */
  connection: Connection;
  /** Requests in flight (live calls; a batch run sends all it has). */
  maxConcurrency: number;
  /**
   * Attempts per call, the first included; an expired or canceled batch result is not one (the run's deadline
   * bounds those). The time per attempt is the connection's: ConnectOptions.requestTimeout.
   */
  maxAttempts: number;
  signal: AbortSignal;
  backoff?: BackoffPolicy;
  /** Price overrides per model for the cost figures. */
  prices?: PriceOverrides;
  /** Requests the whole run may send, failed ones included (--max-calls); none: no ceiling. */
  maxCalls?: number;
  /** Dollars the whole run may spend (--max-cost); none: no ceiling. */
  maxCostUsd?: number;
  /** What the endpoint refused in earlier runs (and where this run's refusals are kept); none: each run learns anew. */
  memory?: EndpointMemory;
  /**
   * Through the Message Batches API, in rounds: the whole run's time limit in seconds, the file that keeps its
   * batches for a rerun, and what they are for there ("staged review of shop"); none: every request live.
   */
  batch?: { batchTimeout: number; ledgerFile?: string; review?: string };
}

export interface ModelClientOptions extends ClientRequest {
  /** --refresh and --no-cache: a batch run takes nothing an earlier run left (BatchOptions.askAgain). */
  askAgain?: boolean;
  onRetry?: (info: { label: string; attempt: number; delayMs: number; reason: string }) => void;
  /** After every answered call: what it used, and the run's totals so far. */
  onCall?: (info: CallInfo) => void;
  /** Batch mode: where the run's batches are, whenever that changes. */
  onBatch?: (state: BatchState) => void;
  onWarning?: (message: string) => void;
}

/** What a request is for: the unit's label (retry reports), its step (usage per step) and file, if any. */
export interface CallTag {
  label: string;
  step: string;
  file?: string;
  /** What names the unit (its result-cache key): the transport makes a batch request's custom_id of it. */
  key?: string;
}

export interface CallInfo extends Omit<CallTag, 'key'> {
  model: string;
  usage: Usage;
  totals: Usage;
  /** How long the request took, queueing for a slot not included. */
  ms: number;
}

/**
 * The API refused in a way no retry or other unit can fix (bad key, unknown model): the run stops. `kind` and
 * `status` are what the run's Stop (model/outcome.ts) says: `setup` where the provider lacks what the run needs.
 */
export class FatalApiError extends Error {
  constructor(
    message: string,
    readonly kind: 'refused' | 'setup' = 'refused',
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

/** The run reached a limit of its own: it stops, and what finished is reported. */
export class RunLimitReached extends FatalApiError {
  constructor(
    message: string,
    readonly limit: 'maxCalls' | 'maxCost' | 'deadline',
  ) {
    super(message);
  }
}

/** A 2xx answer that is not a Messages API reply (a proxy's HTML page, say): transient, so retried. */
export class MalformedReply extends Error {}

/** What every reply must have before anything reads it. */
const ReplyShape = z.looseObject({
  content: z.array(z.looseObject({ type: z.string() })),
  stop_reason: z.string().nullable(),
  usage: z.looseObject({ input_tokens: z.number(), output_tokens: z.number() }),
});

export class ModelClient {
  readonly usage: Usage = emptyUsage();
  /** The same figures split by the step each call was made for. */
  readonly usageByStep = new Map<string, Usage>();
  retries = 0;
  /** HTTP attempts that got no usable answer (errors, timeouts, malformed replies); not in `usage.calls`. */
  failedAttempts = 0;
  /** Requests sent, failed ones included: what --max-calls limits. */
  private sent = 0;
  /** Dollars the requests in flight are expected to cost: what --max-cost counts besides what was spent. */
  private committed = 0;
  private readonly slots: Semaphore;
  /** What each model's window holds, and what the API taught about our estimate. */
  readonly window: WindowGuard;
  /** Batch mode's transport; its rounds and batches are the run's figures. */
  private readonly batcher: Batcher | undefined;
  private markSent!: () => void;
  /**
   * Settles once the run's first request is on its way (a turn of the event loop after the SDK took it):
   * CPU work that can wait, such as parsing, starts then and overlaps the wait for the answer.
   */
  readonly firstSent = new Promise<void>((done) => (this.markSent = () => setImmediate(done)));

  constructor(private readonly opts: ModelClientOptions) {
    // A batch takes every request that is ready: no limit on how many wait for their round at once.
    this.slots = new Semaphore(opts.batch ? Number.MAX_SAFE_INTEGER : opts.maxConcurrency);
    this.batcher =
      opts.batch &&
      new Batcher(batchesOf(opts.connection), batchOptions(opts.batch, opts.askAgain), {
        signal: opts.signal,
        onState: (state) => opts.onBatch?.(state),
        onWarning: (message) => opts.onWarning?.(message),
        describe: (err) => this.describe(err),
        deadline: (message) => new RunLimitReached(message, 'deadline'),
      });
    this.window = new WindowGuard(
      opts.prices,
      rememberedWindows(
        limitedCounts(opts.connection.window, new Semaphore(opts.maxConcurrency), opts.signal),
        opts.memory,
      ),
    );
    const recalled = opts.memory?.recall() ?? [];
    for (const what of recalled) this.refused.add(what);
    if (recalled.length)
      opts.onWarning?.(
        `${opts.connection.endpoint} refused ${(Object.keys(SAID) as Refusable[])
          .filter((w) => this.refused.has(w))
          .map((w) => SAID[w])
          .join(
            ', ',
          )} in an earlier run: this run goes without, as --provider compatible does (--refresh asks it again; deleting ${opts.memory!.file} forgets every endpoint)`,
      );
    // Every request in flight listens on the run's one signal; dozens at once is expected, not a leak.
    setMaxListeners(0, opts.signal);
  }

  get signal(): AbortSignal {
    return this.opts.signal;
  }

  /**
   * Runs `work` (a unit, a chain of units such as a file's steps) as a strand of the run, which a batch round
   * waits for until it sends its request, waits on units of its own, or ends (strands.ts); live, nothing waits.
   */
  count<T>(work: () => Promise<T>): Promise<T> {
    return this.batcher ? this.batcher.count(work) : work();
  }

  /**
   * Whether a cache prime pays: not without a prompt cache, and not in a batch, which runs its requests in
   * no order (a prime would only cost a round); a batch's requests share one prefix at the 1-hour lifetime
   * instead (batch.ts).
   */
  get primes(): boolean {
    return this.capabilities.promptCache && !this.batcher;
  }

  /** Requests the transport takes at once: the concurrency limit live, every one that is ready in a batch. */
  get capacity(): number {
    return this.batcher ? Number.POSITIVE_INFINITY : this.opts.maxConcurrency;
  }

  /** The run is over: a batch run's deadline no longer stands; its rounds, batches and collected requests. */
  close(): { batch?: BatchRun } {
    const b = this.batcher;
    b?.close();
    return b ? { batch: { rounds: b.rounds, batches: b.created, collected: b.collected } } : {};
  }

  /** What the provider can do (see model/providers.ts) less what the endpoint refused: the runner and the layout fall back on what it cannot. */
  get capabilities(): Capabilities {
    const all = this.opts.connection.capabilities;
    return this.refused.size ? { ...all, ...Object.fromEntries([...this.refused].map((w) => [w, false])) } : all;
  }

  private get errors(): ErrorClasses {
    return this.opts.connection.errors;
  }

  /** One line about a failed call, without the key or any credential an endpoint echoed back. */
  describe(err: unknown): string {
    return describeError(err, this.opts.connection);
  }

  /** True where a 400 says structured outputs (output formats, strict tools) are not available here; said once. */
  refusesStructuredOutput(err: unknown): boolean {
    return this.refuses(err, /output_config|output_format|structured output|json_schema|strict/i, 'structuredOutputs');
  }

  /** True where a 400 says a forced (or `none`) tool_choice is not available here; said once. */
  refusesToolChoice(err: unknown): boolean {
    return this.refuses(err, /tool_choice/i, 'forcedToolChoice');
  }

  /** What the endpoint refused, each said once and remembered: the run falls back as `--provider compatible` does. */
  private readonly refused = new Set<Refusable>();

  private refuses(err: unknown, words: RegExp, what: Refusable): boolean {
    if (!(err instanceof this.errors.BadRequestError) || !words.test(this.describe(err))) return false;
    if (!this.refused.has(what)) {
      this.refused.add(what);
      this.opts.onWarning?.(
        `the endpoint refused ${SAID[what]} (${this.describe(err)}); the run goes on without it, as --provider compatible does`,
      );
      void this.opts.memory?.remember(what);
    }
    return true;
  }

  /** Sends one request, retrying transient failures; throws PromptTooLong for one that does not fit its window. */
  async create(params: MessageParams, tag: CallTag, priority?: PriorityOf): Promise<Message> {
    const { signal } = this.opts;
    const { label, step } = tag;
    await this.window.admit(params);
    // `counted`: the attempts maxAttempts limits.
    for (let attempt = 0, counted = 0; ; attempt++) {
      signal.throwIfAborted();
      // Whether this attempt carried cache markers: decided when it leaves, since a refusal met by a call in flight
      // turns them off for the rest, and this attempt's own refusal must still be recognised as one.
      let marked = false;
      try {
        let ms = 0;
        const message = await this.slots.run(
          async () => {
            const sent = Date.now();
            marked = this.capabilities.promptCache;
            try {
              return await this.attempt(marked ? params : withoutCacheControl(params), signal, tag.key);
            } finally {
              ms = Date.now() - sent;
            }
          },
          signal,
          priority,
        );
        const tokens = tokenUsage(message.usage);
        const batch = this.batcher !== undefined;
        // A batch request's every breakpoint lives an hour (batch.ts): without the API's breakdown, so do its writes.
        const hourWrites =
          message.usage.cache_creation?.ephemeral_1h_input_tokens ?? (batch ? tokens.cache_creation_input_tokens : 0);
        const tariff = { batch, hourWrites };
        // The editor's models are billed by its plan: the call is counted, never priced at list prices.
        const used: Usage = this.capabilities.listPrices
          ? { calls: 1, ...tokens, cost_usd: costUsd(params.model, tokens, this.opts.prices, tariff) }
          : { calls: 1, ...tokens, cost_usd: null, billing: 'editor' };
        addUsage(this.usage, used);
        if (!this.usageByStep.has(step)) this.usageByStep.set(step, emptyUsage());
        addUsage(this.usageByStep.get(step)!, used);
        this.opts.onCall?.({ ...unnamed(tag), model: params.model, usage: used, totals: { ...this.usage }, ms });
        return message;
      } catch (err) {
        signal.throwIfAborted();
        if (err instanceof RunLimitReached) throw err;
        this.failedAttempts++;
        const tooLong =
          err instanceof this.errors.BadRequestError ? this.window.learn(params, this.describe(err)) : undefined;
        if (tooLong) throw tooLong;
        // A server without a prompt cache may refuse its markers: the request goes again without them, not counted.
        if (marked && this.refuses(err, /cache_control/i, 'promptCache')) {
          attempt--;
          continue;
        }
        if (isFatal(err, this.errors))
          throw new FatalApiError(this.describe(err), 'refused', statusOf(err, this.errors));
        if (!isRetryable(err, this.errors)) throw err;
        if (!(err instanceof BatchRetry && err.free) && ++counted >= this.opts.maxAttempts)
          throw err instanceof BatchRetry
            ? new Error(`${err.why}; given up after ${plural(attempt + 1, 'round')}`)
            : err;
        const headers = err instanceof this.errors.APIError ? err.headers : undefined;
        // In batch mode the next round is the wait.
        const delayMs = this.batcher ? 0 : retryDelayMs(attempt, headers, this.opts.backoff ?? DEFAULT_BACKOFF);
        this.retries++;
        this.opts.onRetry?.({ label, attempt: attempt + 1, delayMs, reason: this.describe(err) });
        await sleep(delayMs, signal);
      }
    }
  }

  /**
   * The most a request can cost, checked against --max-cost before it is sent: what was spent and what is in
   * flight, plus its prompt at the uncached input price and its whole max_tokens of answer — a bound, not a
   * mean, so one rambling answer cannot take the run past its ceiling. 0 without a ceiling; refused when over it.
   */
  private expectedCost(params: MessageParams): number {
    const ceiling = this.opts.maxCostUsd;
    if (ceiling === undefined) return 0;
    const tokens = { input_tokens: estimatePromptTokens(params), output_tokens: params.max_tokens };
    const expected =
      costUsd(
        params.model,
        { ...tokens, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
        this.opts.prices,
        {
          batch: this.batcher !== undefined,
        },
      ) ?? 0;
    const spent = this.usage.cost_usd ?? 0;
    if (spent + this.committed + expected > ceiling)
      throw new RunLimitReached(
        `the next model call would take the run past its ceiling of ${formatUsd(ceiling)} (--max-cost; ${formatUsd(spent)} spent)`,
        'maxCost',
      );
    return expected;
  }

  /** One HTTP attempt, counted against the ceiling before it is sent; the reply's shape is checked. */
  private async attempt(params: MessageParams, signal: AbortSignal, key?: string): Promise<Message> {
    if (this.opts.maxCalls !== undefined && this.sent >= this.opts.maxCalls) {
      throw new RunLimitReached(
        `the run reached its ceiling of ${this.opts.maxCalls} model calls (--max-calls)`,
        'maxCalls',
      );
    }
    const expected = this.expectedCost(params);
    this.sent++;
    this.committed += expected;
    const pending = this.batcher
      ? this.batcher.send(params, key)
      : this.opts.connection.messages.create(params, { signal });
    this.markSent();
    const reply: unknown = await pending.finally(() => (this.committed -= expected));
    if (!ReplyShape.safeParse(reply).success) {
      const start = typeof reply === 'string' ? reply.trim().slice(0, 40) : JSON.stringify(reply ?? null).slice(0, 40);
      throw new MalformedReply(
        `the API answered with something that is not a Messages API reply (it begins ${JSON.stringify(start)}); a proxy or gateway may be in the way`,
      );
    }
    return reply as Message;
  }
}

/** A call's tag without the unit's name, which only the transport reads. */
function unnamed({ label, step, file }: CallTag): Omit<CallTag, 'key'> {
  return { label, step, ...(file !== undefined ? { file } : {}) };
}

/**
 * The endpoint's token counts, at most as many at once as the run's requests (a batch run's too): a large
 * file's requests, each counted before it is sent, were otherwise all counted at once — hundreds of large
 * bodies in flight, failed connections, and the CLI past 3 GB on an 11,000-file review.
 */
function limitedCounts(source: WindowSource | undefined, slots: Semaphore, signal: AbortSignal): WindowSource {
  const count = source?.countTokens;
  return count ? { ...source, countTokens: (params) => slots.run(() => count(params), signal) } : (source ?? {});
}

/**
 * The endpoint's stated windows, from what an earlier run of this user heard when there is that: a rerun
 * answered from the result cache then sends the endpoint nothing, not even the Models API's question.
 */
function rememberedWindows(source: WindowSource, memory: EndpointMemory | undefined): WindowSource {
  const windowOf = source.windowOf;
  if (!windowOf || !memory) return source;
  return {
    ...source,
    windowOf: async (model) => {
      const known = memory.windowOf(model);
      if (known !== undefined) return known;
      const stated = await windowOf(model);
      if (stated !== undefined) void memory.rememberWindow(model, stated);
      return stated;
    },
  };
}

/** Each refusal as the warnings say it. */
const SAID: Record<Refusable, string> = {
  structuredOutputs: 'structured outputs',
  forcedToolChoice: 'a forced tool choice',
  promptCache: 'cache_control (a prompt cache)',
};

function tokenUsage(u: Anthropic.Messages.Usage): Omit<Usage, 'calls' | 'cost_usd' | 'billing'> {
  return {
    input_tokens: u.input_tokens ?? 0,
    output_tokens: u.output_tokens ?? 0,
    cache_read_input_tokens: u.cache_read_input_tokens ?? 0,
    cache_creation_input_tokens: u.cache_creation_input_tokens ?? 0,
  };
}

/** The batch transport's options from the request's: its deadline in ms, and its ledger. */
function batchOptions(b: NonNullable<ClientRequest['batch']>, askAgain = false): BatchOptions {
  return {
    timeoutMs: b.batchTimeout * 1000,
    ...(b.ledgerFile ? { ledger: new BatchLedger(b.ledgerFile, { review: b.review }) } : {}),
    ...(askAgain ? { askAgain } : {}),
  };
}

/** The client batches go through; a provider without them is refused before the run (model/providers.ts batchRefusal). */
function batchesOf(c: Connection): Anthropic {
  if (!c.batches)
    throw new FatalApiError(batchRefusal(c.provider.provider) ?? '--batch needs Message Batches', 'setup');
  return c.batches;
}

/** A provider without a prompt cache gets no cache_control blocks at all (a strict server refuses what it does not know). */
function withoutCacheControl(params: MessageParams): MessageParams {
  return JSON.parse(
    JSON.stringify(params, (key, value: unknown) => (key === 'cache_control' ? undefined : value)),
  ) as MessageParams;
}

/** Refusals no retry can fix: the key or credentials, a permission, an unknown model (a 404, or Bedrock's 400 for an invalid id). */
function isFatal(err: unknown, e: ErrorClasses): boolean {
  return (
    err instanceof e.AuthenticationError ||
    err instanceof e.PermissionDeniedError ||
    err instanceof e.NotFoundError ||
    (err instanceof e.BadRequestError && /model identifier is invalid/i.test(err.message))
  );
}

function statusOf(err: unknown, e: ErrorClasses): number | null {
  return err instanceof e.APIError ? (err.status ?? null) : null;
}

function isRetryable(err: unknown, e: ErrorClasses): boolean {
  // A dropped connection, a timeout, a broken gateway, credentials not fetched, a batch result to ask again.
  // An answer given up on mid-body (io/boundedFetch.ts) is a timeout or a dropped connection by another name.
  if (
    err instanceof e.APIConnectionError ||
    err instanceof ResponseBoundError ||
    err instanceof MalformedReply ||
    err instanceof BatchRetry
  )
    return true;
  if (!(err instanceof e.APIError) || err.status === undefined) return false;
  return err.status === 408 || err.status === 409 || err.status === 429 || err.status >= 500;
}

/** One line about a failed call on `connection`, without the key or any credential an endpoint echoed back. */
export function describeError(err: unknown, connection: Pick<Connection, 'errors' | 'secrets'>): string {
  return redact(describeRaw(err, connection.errors), connection.secrets);
}

/** One line for logs and reports: the status and the API's own message, never a stack (describeError redacts it). */
function describeRaw(err: unknown, e: ErrorClasses): string {
  if (err instanceof e.APIConnectionTimeoutError) return 'request timed out';
  if (err instanceof e.APIConnectionError) {
    const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
    return `connection failed (${err.message}${cause})`;
  }
  if (err instanceof e.APIError) {
    // The Anthropic API and Vertex AI answer {error: {message}}; Bedrock answers {message}.
    const body = err.error as { error?: { message?: string }; message?: string } | undefined;
    return `HTTP ${err.status ?? '?'}: ${body?.error?.message ?? body?.message ?? err.message}`;
  }
  return err instanceof Error ? err.message : String(err);
}
