/**
 * What every review run shares, whatever its mode: the model client on the run's own AbortSignal (which
 * follows the caller's), the guard that turns a fatal API answer (bad key, unknown model) into a stop of
 * the whole run, and the figures and stop reason every result reports.
 */
import type { FileAccess } from '../model/access';
import { FatalApiError, ModelClient, RunLimitReached, type ClientRequest } from './client';
import type { EmitFn, RunAccounting } from '../model/events';
import { ResultCache } from './resultCache';
import type { Effort } from '../model/models';
import { SubAgentRunner } from './runner';
import { CANCELLED, type Stop } from '../model/outcome';

/** The part of either mode's request (StagedRequest, LensRequest) that every run shares: its client's, and the run's own. */
export interface RunRequest extends ClientRequest {
  /** Where finished units are kept between runs (see ResultCache); none: every unit is asked anew. */
  cacheDir?: string;
  /** What the run may read from disk (prompts and tools alike): Step 0's rule, built by the caller. */
  access: FileAccess;
  /** --refresh: units kept as salvaged or failed are asked again (clean answers still come from the cache). */
  refresh?: boolean;
}

export class ReviewRun {
  readonly client: ModelClient;
  private readonly controller = new AbortController();
  private readonly outer: AbortSignal;
  private readonly follow = () => this.controller.abort(this.outer.reason);
  private fatal: Stop | undefined;
  private readonly cache: ResultCache | undefined;
  private readonly runners: SubAgentRunner[] = [];
  private readonly refresh: boolean;
  readonly access: FileAccess;

  /** `prompts`: the mode's prompt version, part of every unit's result-cache key (staged/ or lenses/promptVersion.ts). */
  constructor(
    opts: RunRequest,
    emit: EmitFn,
    private readonly prompts: string,
  ) {
    this.access = opts.access;
    this.refresh = opts.refresh ?? false;
    this.outer = opts.signal;
    this.outer.addEventListener('abort', this.follow, { once: true });
    this.client = new ModelClient({
      ...opts,
      // --refresh, and --no-cache (no result cache), take nothing an earlier run's batches left.
      ...(opts.batch && (opts.refresh || !opts.cacheDir) ? { askAgain: true } : {}),
      onBatch: (state) => emit({ type: 'batch', ...state }),
      onWarning: (message) => emit({ type: 'warning', message }),
      signal: this.controller.signal,
      onRetry: (info) => emit({ type: 'retry', ...info }),
      onCall: (info) => emit({ type: 'call', ...info }),
    });
    this.cache = opts.cacheDir
      ? new ResultCache(opts.cacheDir, (message) => emit({ type: 'warning', message }))
      : undefined;
  }

  /** A sub-agent runner on this run's client and result cache; its repairs and cache hits count in close(). */
  runner(effort?: Effort): SubAgentRunner {
    const runner = new SubAgentRunner(this.client, this.access, {
      prompts: this.prompts,
      ...(effort ? { effort } : {}),
      ...(this.cache ? { cache: this.cache, refresh: this.refresh } : {}),
    });
    this.runners.push(runner);
    return runner;
  }

  /** Aborted when the run stops (cancelled, or a fatal answer). */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get aborted(): boolean {
    return this.controller.signal.aborted;
  }

  /** Runs one unit of work; `onStop` gives its outcome when the run stops under it (fatal answer or cancel). */
  async guard<T>(work: () => Promise<T>, onStop: (reason: string) => T): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof FatalApiError) {
        this.fatal ??= stopFor(err);
        this.controller.abort(err);
      } else if (!this.aborted) throw err;
      return onStop(this.fatal?.message ?? 'cancelled before this unit finished');
    }
  }

  /** The figures and stop of a finished run; also detaches from the caller's signal. */
  close(): RunAccounting & { stop?: Stop } {
    this.outer.removeEventListener('abort', this.follow);
    const stop = this.fatal ?? (this.outer.aborted ? CANCELLED : undefined);
    return {
      usage: this.client.usage,
      usageByStep: Object.fromEntries(this.client.usageByStep),
      retries: this.client.retries,
      failedAttempts: this.client.failedAttempts,
      repairs: this.runners.reduce((n, r) => n + r.repairs, 0),
      cacheHits: this.runners.reduce((n, r) => n + r.cacheHits, 0),
      ...this.client.close(),
      ...(stop ? { stop } : {}),
    };
  }
}

/** The run's stop for an answer that ends it: a limit of its own says so as it is, a refusal says the API refused. */
function stopFor(err: FatalApiError): Stop {
  if (err instanceof RunLimitReached) return { kind: err.limit, status: null, message: err.message };
  return { kind: err.kind, status: err.status, message: `the API refused the run: ${err.message}` };
}
