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
  private readonly waiting: Waiter[] = [];

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
        const i = this.waiting.indexOf(waiter);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  private release(): void {
    this.active--;
    // A linear scan, once per call: cheap for hundreds of waiters. A staged run queues every file's Step 1 at
    // once, so a tree of N files costs O(N) priority reads per release (a heap would not do: priorities move).
    let best: { at: number; priority: Priority; seq: number } | undefined;
    this.waiting.forEach((w, at) => {
      const priority = typeof w.priority === 'function' ? w.priority() : w.priority;
      if (!best || before({ priority, seq: w.seq }, best)) best = { at, priority, seq: w.seq };
    });
    if (best) this.waiting.splice(best.at, 1)[0]!.grant();
  }
}

function before(a: { priority: Priority; seq: number }, b: { priority: Priority; seq: number }): boolean {
  if (a.priority.rank !== b.priority.rank) return a.priority.rank > b.priority.rank;
  if (a.priority.order !== b.priority.order) return a.priority.order < b.priority.order;
  return a.seq < b.seq;
}
