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
}

export class Semaphore {
  private active = 0;
  private seq = 0;
  /** Waiters with a priority of their own, scanned on each release; the first come, first served ones wait in order. */
  private readonly ranked: Waiter[] = [];
  private readonly inOrder = new Set<Waiter>();

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
          signal?.removeEventListener('abort', onAbort);
          this.active++;
          resolve();
        },
      };
      const onAbort = () => {
        const i = this.ranked.indexOf(waiter);
        if (i >= 0) this.ranked.splice(i, 1);
        this.inOrder.delete(waiter);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (priority === FIFO) this.inOrder.add(waiter);
      else this.ranked.push(waiter);
    });
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
