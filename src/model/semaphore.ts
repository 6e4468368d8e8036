/**
 * A limit on work in flight: model requests in a run, file reads while taking stock of a tree. A waiter that
 * is aborted leaves the queue at once. Waiters may carry a priority (see Priority); without one the queue is
 * first come, first served.
 */

/**
 * Which waiting request gets the next free slot: the highest `rank` (for model calls, a later step: it brings
 * a file closer to done), then the lowest `order` (the file that started first), then the one that asked first.
 */
export interface Priority {
  rank: number;
  order: number;
}

const FIFO: Priority = { rank: 0, order: 0 };

interface Waiter {
  priority: Priority;
  seq: number;
  grant: () => void;
}

export class Semaphore {
  private active = 0;
  private seq = 0;
  private readonly waiting: Waiter[] = [];

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`concurrency must be a whole number ≥ 1, got ${limit}`);
  }

  async run<T>(task: () => Promise<T>, signal?: AbortSignal, priority: Priority = FIFO): Promise<T> {
    await this.acquire(signal, priority);
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private acquire(signal: AbortSignal | undefined, priority: Priority): Promise<void> {
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
    // A linear scan: the queue holds at most a few hundred requests, and a slot frees once per call.
    let best = -1;
    for (let i = 0; i < this.waiting.length; i++) if (best < 0 || before(this.waiting[i]!, this.waiting[best]!)) best = i;
    if (best >= 0) this.waiting.splice(best, 1)[0]!.grant();
  }
}

function before(a: Waiter, b: Waiter): boolean {
  if (a.priority.rank !== b.priority.rank) return a.priority.rank > b.priority.rank;
  if (a.priority.order !== b.priority.order) return a.priority.order < b.priority.order;
  return a.seq < b.seq;
}
