/**
 * The Message Batches transport behind ModelClient: instead of sending each request at once, the run's
 * requests wait until every strand of the run's work is waiting on a result (strands.ts: every unit that can
 * ask has asked), and then go out together as one round of batches. Each batch is polled until it ends and its results are handed back by
 * custom_id; the replies feed the next steps, whose requests (tool turns and repair turns included) make the
 * next round. A request whose result is not a message goes again in a later round (expired, canceled, lost
 * or invalid) or fails as the API said (errored). The whole run has a deadline; Ctrl-C and the deadline leave
 * the batches running, kept in the ledger, so that the next run collects them instead of paying again.
 */
import { createHash } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import { plural } from '../model/plural';
import type { BoundedInit } from '../io/boundedFetch';
import { DEFAULT_BACKOFF, retryDelayMs, sleep } from './backoff';
import { LedgerRefused, type BatchLedger } from './batchLedger';
import {
  BATCH_LIMITS,
  batchBody,
  batchView,
  chunks,
  erroredAs,
  readResults,
  type BatchResult,
  type ResultsRead,
} from './batchWire';
import { Semaphore } from '../model/semaphore';
import { Strands } from './strands';
import { BatchRequest as Request } from './batchRequest';

type Params = Anthropic.Messages.MessageCreateParamsNonStreaming;
type Message = Anthropic.Messages.Message;

/** Polls start quick (small batches end in seconds) and slow down to once a minute. */
const FIRST_POLL_MS = 250;
const MAX_POLL_MS = 60_000;
/**
 * Attempts at creating one batch when the connection fails. An answer of 429 or 5xx (the API's "later") is
 * asked again until the run's deadline or Ctrl-C: a batch waits hours anyway.
 */
const CREATE_ATTEMPTS = 5;
/** Polls in a row that fail alike, and not transiently, before the batch's requests are given up on. */
const POLL_FAILURES = 5;
const CUSTOM_ID = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * The create body is built whole in memory, as JSON text (two bytes a character once any character is not
 * Latin-1) and again as bytes: batches of at most 16 MB, created one at a time, keep that under 100 MB however
 * large the round (a round of 4,000 files at the API's 256 MB took 2 GB). More batches cost nothing more.
 */
const BODY_LIMITS = { requests: BATCH_LIMITS.requests, bytes: 16_000_000 };
const CREATES_AT_ONCE = 1;

export interface BatchOptions {
  /** The whole batch run may take this long; then what is still unanswered is reported missing. */
  timeoutMs: number;
  ledger?: BatchLedger;
  /**
   * --refresh and --no-cache: every request is sent anew, none taken from the batches an earlier run left.
   * Those stay in the ledger, paid for and still collectable by a later run without either flag.
   */
  askAgain?: boolean;
}

/** Where the run's batches are, for the progress line. */
export interface BatchState {
  rounds: number;
  /** Batches submitted (or taken over from an earlier run) and not yet ended. */
  running: number;
  /** Requests waiting for their batch to end. */
  waiting: number;
  /** The newest state seen, in the API's words: "msgbatch_… in_progress (45 requests)". */
  message: string;
}

/**
 * The request goes again in the next round: its result was expired, canceled, lost or not valid. `why` is
 * what happened (what a request that gives up was last told); the message adds that it goes again, naming
 * the request as `subject` (default "the request"). `free`: expired or canceled, which the run's deadline
 * bounds, not --max-attempts.
 */
export class BatchRetry extends Error {
  readonly free: boolean;

  constructor(
    readonly why: string,
    o: { free?: boolean; subject?: 'it' | 'the request' } = {},
  ) {
    super(`${why}; ${o.subject ?? 'the request'} goes again in the next round`);
    this.free = o.free ?? false;
  }
}

export interface BatcherHooks {
  signal: AbortSignal;
  onState: (state: BatchState) => void;
  onWarning: (message: string) => void;
  /** One line about a failed API call, without credentials. */
  describe: (err: unknown) => string;
  /** The run's deadline passed: the error every unanswered request gets (it stops the run). */
  deadline: (message: string) => Error;
}

export class Batcher {
  rounds = 0;
  /** Batches this run created. */
  created = 0;
  /** Requests answered from batches an earlier run left behind (not those the batch no longer had). */
  collected = 0;
  /** Every request not yet settled, each in its one state (batchRequest.ts): the figures are read off them. */
  private readonly live = new Set<Request>();
  /** custom_id → the request waiting for the next round (state queued). */
  private pending = new Map<string, Request>();
  /** The run's work that may still send a request: a round waits until none is left. */
  private readonly strands = new Strands(() => this.arm());
  private armed: NodeJS.Immediate | undefined;
  /** Batch id → its requests still waiting for results, as its polls and results find them. */
  private readonly running = new Map<string, Map<string, Request>>();
  /** custom_id + hash → the earlier run's batch that holds the request, until taken. */
  private readonly earlier = new Map<string, string>();
  private readonly ready: Promise<void>;
  private readonly stopped = new AbortController();
  private lastMessage = '';
  private readonly deadline: NodeJS.Timeout;
  private readonly creating = new Semaphore(CREATES_AT_ONCE);

  constructor(
    private readonly sdk: Anthropic,
    private readonly opts: BatchOptions,
    private readonly hooks: BatcherHooks,
  ) {
    this.ready = this.loadEarlier();
    this.deadline = setTimeout(() => this.stop('deadline'), opts.timeoutMs);
    hooks.signal.addEventListener('abort', () => this.stop('abort'), { once: true });
  }

  /** Queues one request for the next round; settles with its message, or the reason it has none. */
  send(params: Params, key?: string): Promise<Message> {
    this.hooks.signal.throwIfAborted();
    if (this.stopped.signal.aborted) return Promise.reject(this.stopped.signal.reason as Error);
    const sent = withHourCache(params);
    const json = JSON.stringify(sent);
    const hash = createHash('sha256').update(json).digest('hex');
    const bytes = Buffer.byteLength(json);
    return new Promise<Message>((resolve, reject) => {
      // The sending unit waits from now on, and counts again once its result is in.
      const back = this.strands.park();
      const waiter = {
        resolve: (m: Message) => (back(), resolve(m)),
        reject: (err: unknown) => (back(), reject(err)),
      };
      const customId = customIdOf(key, sent, hash);
      // Identical requests share one entry; a different one under a custom_id taken goes by its own hash.
      const taken = this.pending.get(customId);
      const id = taken && taken.hash !== hash ? hashId(hash) : customId;
      const same = this.pending.get(id) ?? this.enqueue(new Request(id, hash, sent, bytes));
      same.waiters.push(waiter);
      this.arm();
    });
  }

  /** Counts `work` as a strand of the run (a unit, a chain of units): rounds wait for it to send or end. */
  count<T>(work: () => Promise<T>): Promise<T> {
    return this.strands.count(work);
  }

  /** The run is over: its deadline no longer stands. */
  close(): void {
    clearTimeout(this.deadline);
  }

  /** Requests not yet answered, wherever they are. */
  get waiting(): number {
    return this.live.size;
  }

  private enqueue(request: Request): Request {
    this.live.add(request);
    this.pending.set(request.customId, request);
    return request;
  }

  /** Hands the request its message, or the reason there is none; it is no longer waited for. */
  private settle(request: Request, outcome: Message | unknown): void {
    request.settle(outcome as Message | Error);
    this.live.delete(request);
  }

  private fail(requests: Request[], err: unknown): void {
    for (const r of requests) this.settle(r, err);
  }

  /** Requests in one state (a stop names those whose batch is being created). */
  private inState(at: Request['state']['at']): number {
    return [...this.live].filter((r) => r.state.at === at).length;
  }

  /** A round once nothing counts: checked again after the current turn of the event loop, which may start more. */
  private arm(): void {
    if (this.armed || this.pending.size === 0) return;
    this.armed = setImmediate(() => {
      this.armed = undefined;
      if (!this.strands.busy) void this.round();
    });
  }

  /** Everything pending goes out: to an earlier run's batch that holds it, else to new batches. */
  private async round(): Promise<void> {
    await this.ready;
    const requests = [...this.pending.values()];
    this.pending.clear();
    if (requests.length === 0 || this.stopped.signal.aborted) return;
    this.rounds++;
    const fresh: Request[] = [];
    const resumed = new Map<string, Request[]>();
    for (const r of requests) {
      const id = this.earlier.get(`${r.customId} ${r.hash}`);
      if (id === undefined) fresh.push(r);
      else {
        this.earlier.delete(`${r.customId} ${r.hash}`);
        r.earlier = true;
        r.move({ at: 'submitted', batch: id });
        resumed.set(id, [...(resumed.get(id) ?? []), r]);
      }
    }
    for (const [id, rs] of resumed) this.watch(id, rs);
    for (const chunk of chunks(fresh, BODY_LIMITS)) void this.submit(chunk);
  }

  private async submit(requests: Request[]): Promise<void> {
    const body = batchBody(requests);
    for (let attempt = 1; ; attempt++) {
      try {
        const batch = await this.create(body, requests);
        this.created++;
        await this.opts.ledger?.add({
          id: batch.id,
          created_at: batch.created_at,
          requests: Object.fromEntries(requests.map((r) => [r.customId, r.hash])),
        });
        this.report(`${batch.id} submitted (${plural(requests.length, 'request')})`);
        this.watch(batch.id, requests);
        return;
      } catch (err) {
        if (this.stopped.signal.aborted) return this.fail(requests, this.stopped.signal.reason);
        if (err instanceof Anthropic.APIError && err.status === 413 && requests.length > 1)
          return this.split(requests, err);
        // A create whose connection failed may have been taken all the same; asked again, it leaves a second
        // batch outside the ledger (a batch carries nothing to find it by), so such failures get few attempts.
        if (!transient(err) || (err instanceof Anthropic.APIConnectionError && attempt >= CREATE_ATTEMPTS)) {
          const reason = new Error(`the batch could not be created: ${this.hooks.describe(err)}`);
          return this.fail(requests, err instanceof Anthropic.APIError && fatal(err) ? err : reason);
        }
        await this.pause(attempt, err, requests);
        if (this.stopped.signal.aborted) return this.fail(requests, this.stopped.signal.reason);
      }
    }
  }

  /**
   * One batch created, after those before it: a stop leaves the queue at once, but not a create under way (a
   * batch the API took is then in the ledger, for the next run to collect).
   */
  private async create(body: ReturnType<typeof batchBody<Params>>, requests: Request[]) {
    for (const r of requests) r.move({ at: 'waiting' });
    const create = () => {
      for (const r of requests) r.move({ at: 'creating' });
      return this.sdk.messages.batches.create(body);
    };
    const batch = await this.creating.run(create, this.stopped.signal);
    for (const r of requests) r.move({ at: 'submitted', batch: batch.id });
    return batch;
  }

  /** A body over the API's limit (413) goes as two batches, each split again if still too large. */
  private split(requests: Request[], err: unknown): void {
    const half = Math.ceil(requests.length / 2);
    this.report(
      `${plural(requests.length, 'request')} too large for one batch (${this.hooks.describe(err)}); sent in halves`,
    );
    void this.submit(requests.slice(0, half));
    void this.submit(requests.slice(half));
  }

  /** Before the next attempt at creating a batch: the API's retry-after (up to a minute, as live), else backoff. */
  private async pause(attempt: number, err: unknown, requests: Request[]): Promise<void> {
    const ms = retryDelayMs(attempt, err instanceof Anthropic.APIError ? err.headers : undefined, DEFAULT_BACKOFF);
    // Still waiting for their answers, in the count a --timeout reports.
    for (const r of requests) r.move({ at: 'pausing' });
    this.report(`creating a batch: ${this.hooks.describe(err)}; trying again in ${(ms / 1000).toFixed(1)}s`);
    await sleep(ms, this.stopped.signal).catch(() => undefined);
  }

  private watch(id: string, requests: Request[]): void {
    // Stopped meanwhile (while the ledger was written, say): the batch is in the ledger, its requests get the reason.
    if (this.stopped.signal.aborted) return this.fail(requests, this.stopped.signal.reason);
    const waiting = this.running.get(id) ?? new Map<string, Request>();
    const first = waiting.size === 0;
    for (const r of requests) waiting.set(r.customId, r);
    this.running.set(id, waiting);
    if (first) void this.poll(id, waiting);
  }

  private async poll(id: string, waiting: Map<string, Request>): Promise<void> {
    const failures: PollFailures = { kind: '', count: 0 };
    for (let delay = FIRST_POLL_MS; ; delay = Math.min(MAX_POLL_MS, delay * 2)) {
      try {
        await sleep(delay, this.stopped.signal);
        const batch = batchView(id, await this.sdk.messages.batches.retrieve(id, {}, { signal: this.stopped.signal }));
        failures.count = 0;
        const c = batch.request_counts;
        const done = c.succeeded + c.errored + c.canceled + c.expired;
        this.report(`${id} ${batch.processing_status} (${done}/${done + c.processing} requests done)`);
        if (batch.processing_status === 'ended') return await this.collect(id, waiting, batch.results_url!);
      } catch (err) {
        if (this.stopped.signal.aborted) return;
        if (err instanceof Anthropic.NotFoundError) {
          void this.opts.ledger?.drop(id);
          return this.settleAll(id, waiting, () => {
            return new BatchRetry(`batch ${id} disappeared (404 not found)`);
          });
        }
        if (err instanceof Anthropic.APIError && fatal(err)) return this.settleAll(id, waiting, () => err);
        if (this.pollFailed(id, err, failures)) {
          void this.opts.ledger?.drop(id);
          const why = `batch ${id} could not be polled ${POLL_FAILURES} times in a row (${this.hooks.describe(err)})`;
          return this.settleAll(id, waiting, () => new BatchRetry(why));
        }
      }
    }
  }

  /**
   * Counts a failed poll and says so on the progress line; true once the same failure, not a transient one,
   * has come POLL_FAILURES times in a row. A dropped connection or an overloaded API is asked again until
   * the deadline, as a live call would be.
   */
  private pollFailed(id: string, err: unknown, failures: PollFailures): boolean {
    this.report(`${id} not polled: ${this.hooks.describe(err)}`);
    if (transient(err)) {
      failures.count = 0;
      return false;
    }
    const kind = err instanceof Anthropic.APIError ? `HTTP ${err.status}` : String(err);
    failures.count = kind === failures.kind ? failures.count + 1 : 1;
    failures.kind = kind;
    return failures.count >= POLL_FAILURES;
  }

  /** Reads an ended batch's results and hands each to its request; what is not there goes again. */
  private async collect(id: string, waiting: Map<string, Request>, url: string): Promise<void> {
    const taken = [...waiting.keys()];
    const strays = new Set<string>();
    const take = (customId: string, outcome: Message | Error) => {
      const request = waiting.get(customId);
      if (!request) return void strays.add(customId);
      waiting.delete(customId);
      if (!(outcome instanceof Error) && request.earlier) this.collected++;
      this.settle(request, outcome);
    };
    const read = await this.results(
      url,
      (customId, result) => take(customId, outcomeOf(id, result)),
      () => waiting.size === 0,
    );
    if (this.stopped.signal.aborted) return;
    for (const [customId, why] of read.invalid) {
      const retry = `batch ${id} gave a result for this request that is not a valid batch result (${why})`;
      take(customId, new BatchRetry(retry, { subject: 'it' }));
    }
    this.warnAbout(id, read, strays);
    const cut =
      read.cut === undefined
        ? undefined
        : `the results of batch ${id} were cut short after ${plural(read.lines, 'line')} (${this.hooks.describe(read.cut)})`;
    if (cut)
      this.hooks.onWarning(`${cut}; ${plural(waiting.size, 'request')} without a result go again in the next round`);
    // Each request taken has its message or goes again: none is left to collect (what this run did not take stays).
    void this.opts.ledger?.drop(id, taken);
    this.settleAll(id, waiting, () =>
      cut
        ? new BatchRetry(cut)
        : new BatchRetry(`batch ${id} ended without a result for this request`, { subject: 'it' }),
    );
  }

  /**
   * The results stream, fetched through the SDK's client (its credentials and errors) but read here, line
   * by line: the SDK's own decoder stops at the first line that is not JSON, a blank one included.
   */
  private async results(
    url: string,
    take: (customId: string, result: BatchResult) => void,
    done: () => boolean,
  ): Promise<ResultsRead> {
    try {
      // The key goes only where the run was told to send it: a results_url elsewhere is not fetched.
      const home = new URL(this.sdk.baseURL);
      const at = new URL(url, home);
      if (at.origin !== home.origin)
        throw new Error(`its results_url is on another host (${at.host}), which is not sent the key`);
      // The stream is capped line by line (readResults), not whole; the attempt's deadline still holds.
      const bounds: BoundedInit = { maxBytes: Number.POSITIVE_INFINITY };
      const fetchOptions = bounds as Anthropic.RequestOptions['fetchOptions'];
      const answer = await this.sdk
        .get(url, { headers: { Accept: 'application/binary' }, signal: this.stopped.signal, fetchOptions })
        .asResponse();
      if (!answer.body) throw new Error('the results answer has no body');
      return await readResults(answer.body, take, done);
    } catch (err) {
      return { lines: 0, notJson: [], nameless: [], duplicates: new Set(), invalid: new Map(), cut: err };
    }
  }

  /** Lines of the results that were skipped, and results that matched no request or came twice. */
  private warnAbout(id: string, read: ResultsRead, strays: Set<string>): void {
    const some = (items: Iterable<string | number>) => [...items].slice(0, 3).join(', ');
    if (read.notJson.length)
      this.hooks.onWarning(
        `batch ${id}: ${plural(read.notJson.length, 'results line')} not JSON (line ${some(read.notJson)}); skipped`,
      );
    if (read.nameless.length)
      this.hooks.onWarning(
        `batch ${id}: ${plural(read.nameless.length, 'results line')} without a custom_id (line ${some(read.nameless)}); skipped`,
      );
    if (read.duplicates.size)
      this.hooks.onWarning(
        `batch ${id} returned more than one result for ${plural(read.duplicates.size, 'custom_id')} (${some(read.duplicates)}); the first valid one counted`,
      );
    if (strays.size)
      this.hooks.onWarning(
        `batch ${id} returned ${plural(strays.size, 'result')} for custom_ids this run did not send (${some(strays)}); ignored`,
      );
  }

  private settleAll(id: string, waiting: Map<string, Request>, why: () => unknown): void {
    for (const r of waiting.values()) this.settle(r, why());
    waiting.clear();
    this.running.delete(id);
    this.report(this.lastMessage);
  }

  private report(message: string): void {
    this.lastMessage = message;
    const running = [...this.running.values()].filter((m) => m.size > 0).length;
    this.hooks.onState({ rounds: this.rounds, running, waiting: this.waiting, message });
  }

  /** Ctrl-C or the deadline: no more polls; the batches keep running, and the ledger keeps them for a rerun. */
  private stop(why: 'abort' | 'deadline'): void {
    if (this.stopped.signal.aborted) return;
    const left = [...this.running].filter(([, m]) => m.size > 0).map(([id]) => id);
    const creating = this.inState('creating');
    // A batch still being created is kept in the ledger too once the API answers: the run waits for that.
    const batches = [
      left.length && `${plural(left.length, 'Message Batch', 'Message Batches')} left running (${left.join(', ')})`,
      creating && `batches still being created for ${plural(creating, 'request')}`,
    ].filter(Boolean);
    const collect = batches.length
      ? `; ${batches.join(' and ')}: run the same review again to collect their results instead of paying for them again (the API keeps them 29 days), or stop what has not run yet with skeptic batches --cancel`
      : '';
    const error =
      why === 'abort'
        ? (this.hooks.signal.reason as Error)
        : this.hooks.deadline(
            `the batch run reached its --timeout of ${duration(this.opts.timeoutMs)} with ${plural(this.waiting, 'request')} unanswered${collect}`,
          );
    this.stopped.abort(error);
    clearImmediate(this.armed);
    if (why === 'abort' && collect) this.hooks.onWarning(`stopped${collect}`);
    for (const r of this.pending.values()) this.settle(r, error);
    this.pending.clear();
    for (const [id, waiting] of this.running) this.settleAll(id, waiting, () => error);
  }

  private async loadEarlier(): Promise<void> {
    if (this.opts.askAgain) return;
    const entries = await this.opts.ledger?.load().catch((err: unknown) => {
      if (!(err instanceof LedgerRefused)) throw err;
      this.hooks.onWarning(`${err.message}; this run's batches are not kept for a rerun`);
      return [];
    });
    for (const entry of entries ?? [])
      for (const [customId, hash] of Object.entries(entry.requests)) this.earlier.set(`${customId} ${hash}`, entry.id);
  }
}

/** Polls of one batch that failed alike in a row. */
interface PollFailures {
  kind: string;
  count: number;
}

/** A result as what its request settles with: the message, the API's error, or a retry. */
function outcomeOf(id: string, result: BatchResult): Message | Error {
  if (result.type === 'succeeded') return result.message as unknown as Message;
  if (result.type === 'errored') return erroredAs(result.error);
  return new BatchRetry(`the request was ${result.type} in batch ${id}`, { free: true, subject: 'it' });
}

function transient(err: unknown): boolean {
  if (err instanceof Anthropic.APIConnectionError) return true;
  return err instanceof Anthropic.APIError && err.status !== undefined && (err.status === 429 || err.status >= 500);
}

function fatal(err: InstanceType<typeof Anthropic.APIError>): boolean {
  return err instanceof Anthropic.AuthenticationError || err instanceof Anthropic.PermissionDeniedError;
}

/**
 * The unit's cache key on its first request; on later turns the key's start and the turn's number (a unit's
 * turns go in different rounds, so no two share a batch). Without a key, the request's own hash.
 */
function customIdOf(key: string | undefined, params: Params, hash: string): string {
  if (!key || !CUSTOM_ID.test(key)) return hashId(hash);
  const turn = params.messages.filter((m) => m.role === 'user').length;
  return turn <= 1 ? key : `${key.slice(0, 60)}-${turn}`;
}

function hashId(hash: string): string {
  return `r${hash.slice(0, 63)}`;
}

/**
 * Every breakpoint with the 1-hour lifetime: a batch runs for minutes to hours, longer than a 5-minute entry
 * lives, and the same rewrite on every request keeps their shared prefix byte-identical. Only the objects on
 * the way to a breakpoint are copied: the rest (the tools' schemas, the system prompt) stays shared by every
 * request of a round (copied, a round of 4,000 files held 1 GB more).
 */
function withHourCache<T>(value: T): T {
  if (Array.isArray(value)) {
    const items = value.map(withHourCache);
    return (items.some((v, i) => v !== value[i]) ? items : value) as T;
  }
  if (!value || typeof value !== 'object') return value;
  const fields = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(fields)) {
    const next = k === 'cache_control' && v && typeof v === 'object' ? { ...v, ttl: '1h' } : withHourCache(v);
    if (next !== v) (copy ??= { ...fields })[k] = next;
  }
  return (copy ?? value) as T;
}

/** "24h", "90m", "45s". */
export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s % 3600 === 0) return `${s / 3600}h`;
  if (s % 60 === 0) return `${s / 60}m`;
  return `${s}s`;
}
