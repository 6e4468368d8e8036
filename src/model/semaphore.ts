/**
 * A limit on work in flight: model requests in a run, file reads while taking stock of a tree. A waiter that
 * is aborted leaves the queue at once. Waiters may carry a priority (see Priority), fixed or re-read whenever
 * a slot frees; without one the queue is first come, first served.
 */

/**
 * Which waiting request gets the next free slot: the highest `rank`, then the lowest `order`, then the one
 * that asked first (src/engine/staged/schedule.ts says what they are for a staged review's calls).
 */
export interface Priority {
  rank: number;
  order: number;
}

/** A fixed priority, or one read afresh each time a slot frees: what is urgent can change while a call waits. */
export type PriorityOf = Priority | (() => Priority);

const FIFO: Priority = { rank: 0, order: 0 };

interface Waiter {
  priority: PriorityOf;
  seq: number;
  grant: () => void;
  reject: (reason: unknown) => void;
}

export class Semaphore {
  private active = 0;
  private seq = 0;
  /** Waiters with a priority of their own, scanned on each release; the first come, first served ones wait in order. */
  private ranked: Waiter[] = [];
  private readonly inOrder = new Set<Waiter>();
  /**
   * The waiters of each signal, under one abort listener per signal: an EventTarget checks every listener it
   * has for a duplicate as one is added, so a listener per waiter made 18,880 files waiting at once cost 2.3 s.
   */
  private readonly bySignal = new Map<AbortSignal, { waiters: Set<Waiter>; onAbort: () => void }>();

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`concurrency must be a whole number ≥ 1, got ${limit}`);
  }

  async run<T>(task: () => Promise<T>, signal?: AbortSignal, priority: PriorityOf = FIFO): Promise<T> {
    await this.acquire(signal, priority);
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private acquire(signal: AbortSignal | undefined, priority: PriorityOf): Promise<void> {
    signal?.throwIfAborted();
    if (this.active < this.limit) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        priority,
        seq: this.seq++,
        grant: () => {
          if (signal) this.unwatch(signal, waiter);
          this.active++;
          resolve();
        },
        reject,
      };
      if (signal) this.watch(signal, waiter);
      if (priority === FIFO) this.inOrder.add(waiter);
      else this.ranked.push(waiter);
    });
  }

  private watch(signal: AbortSignal, waiter: Waiter): void {
    let watched = this.bySignal.get(signal);
    if (!watched) {
      const waiters = new Set<Waiter>();
      const onAbort = () => {
        this.bySignal.delete(signal);
        // Out of both queues in one pass each, however many wait on this signal.
        this.ranked = this.ranked.filter((w) => !waiters.has(w));
        for (const w of waiters) {
          this.inOrder.delete(w);
          w.reject(signal.reason);
        }
      };
      watched = { waiters, onAbort };
      this.bySignal.set(signal, watched);
      signal.addEventListener('abort', onAbort, { once: true });
    }
    watched.waiters.add(waiter);
  }

  private unwatch(signal: AbortSignal, waiter: Waiter): void {
    const watched = this.bySignal.get(signal);
    if (!watched) return;
    watched.waiters.delete(waiter);
    if (watched.waiters.size > 0) return;
    // No waiter left on it: a long-lived signal does not keep a listener per semaphore that once waited.
    signal.removeEventListener('abort', watched.onAbort);
    this.bySignal.delete(signal);
  }

  private release(): void {
    this.active--;
    // A linear scan of the ranked waiters, once per call (a heap would not do: priorities move). A staged run
    // bounds the files in flight (engine/staged/pipeline.ts), so they stay a few hundred at most; the
    // first-come waiters (file reads over a large tree) are taken in order, without a scan.
    const first = this.inOrder.values().next();
    let best: { at: number; priority: Priority; seq: number } | undefined = first.done
      ? undefined
      : { at: -1, priority: FIFO, seq: first.value.seq };
    this.ranked.forEach((w, at) => {
      const priority = typeof w.priority === 'function' ? w.priority() : w.priority;
      if (!best || before({ priority, seq: w.seq }, best)) best = { at, priority, seq: w.seq };
    });
    if (!best) return;
    if (best.at < 0) {
      this.inOrder.delete(first.value!);
      first.value!.grant();
    } else this.ranked.splice(best.at, 1)[0]!.grant();
  }
}

function before(a: { priority: Priority; seq: number }, b: { priority: Priority; seq: number }): boolean {
  if (a.priority.rank !== b.priority.rank) return a.priority.rank > b.priority.rank;
  if (a.priority.order !== b.priority.order) return a.priority.order < b.priority.order;
  return a.seq < b.seq;
}
