/**
 * One request of a batch run (batch.ts) and where it is: one state at a time, changed only along the edges of
 * NEXT, so that what the progress line and a stop say (how many requests wait, how many are in batches being
 * created, which batches still run) is read off the requests themselves, not kept in counters beside them.
 */
import type Anthropic from '@anthropic-ai/sdk';

type Params = Anthropic.Messages.MessageCreateParamsNonStreaming;
type Message = Anthropic.Messages.Message;

export type RequestState =
  /** Waits for the next round. */
  | { at: 'queued' }
  /** Its batch waits for the one being created before it. */
  | { at: 'waiting' }
  /** Its batch is being created. */
  | { at: 'creating' }
  /** Waits to try creating its batch again (after a 429, a 5xx or a failed connection). */
  | { at: 'pausing' }
  /** In a batch the API took, this run's or one an earlier run left: polled until it ends. */
  | { at: 'submitted'; batch: string }
  /** Answered with its message. */
  | { at: 'done' }
  /** Settled with an error: the API's, the stop's, or a retry (then it is sent again as a new request). */
  | { at: 'failed' };

type At = RequestState['at'];

/** Where a request may go from each state; `done` and `failed` are final. */
export const NEXT: Readonly<Record<At, readonly At[]>> = {
  // A round sends it in a new batch, or takes it from an earlier run's batch that holds it; or the run stops.
  queued: ['waiting', 'submitted', 'failed'],
  waiting: ['creating', 'failed'],
  // Created; or asked again later; or too large for one batch (413), in a half that waits its turn again.
  creating: ['submitted', 'pausing', 'waiting', 'failed'],
  pausing: ['waiting', 'failed'],
  submitted: ['done', 'failed'],
  done: [],
  failed: [],
};

interface Waiter {
  resolve: (m: Message) => void;
  reject: (err: unknown) => void;
}

/** The requests sent under one custom_id: usually one; identical requests made in the same round share it. */
export class BatchRequest {
  private current: RequestState = { at: 'queued' };
  readonly waiters: Waiter[] = [];
  /** Sent by an earlier run, whose batch this one collects. */
  earlier = false;

  constructor(
    readonly customId: string,
    readonly hash: string,
    readonly params: Params,
    /** The params' JSON length in bytes, measured once (chunks() sums it). */
    readonly bytes: number,
  ) {}

  get state(): RequestState {
    return this.current;
  }

  /** Moves to `next`; a move NEXT does not allow is a bug, and throws. */
  move(next: RequestState): void {
    if (!NEXT[this.current.at].includes(next.at))
      throw new Error(`batch request ${this.customId}: no way from ${this.current.at} to ${next.at}`);
    this.current = next;
  }

  /** Hands every waiter the message, or the reason there is none. */
  settle(outcome: Message | Error): void {
    this.move(outcome instanceof Error ? { at: 'failed' } : { at: 'done' });
    for (const w of this.waiters) {
      if (outcome instanceof Error) w.reject(outcome);
      else w.resolve(outcome);
    }
  }
}
