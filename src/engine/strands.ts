/**
 * Batch mode's one question before a round: can anything still send a request before a result comes back?
 * The run's work is counted in strands — a unit from its start to its end (runner.ts), a chain of units such as
 * a file's steps (staged/pipeline.ts) — and a strand waiting on the batcher, or on units of its own, does
 * not count. When none counts, every request that can be made has been made, and the round goes out
 * (batch.ts): no quiet time is guessed, so how many rounds a run takes does not depend on the machine's load.
 * The batch transport behind the model client owns the strands: work says only that it is counted
 * (ModelClient.count), and the strand it was started from is found by its async context, never handed down.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface Strand {
  /** Waits on `work` without counting: `work` starts what counts instead (its units, a request). */
  away<T>(work: () => Promise<T>): Promise<T>;
  /** The strand's work is done. */
  end(): void;
}

export class Strands {
  private running = 0;
  /** The strand the current work runs in, if any. */
  private readonly current = new AsyncLocalStorage<Strand>();

  /** `idle`: nothing counts any more (checked after the work that stopped counting has started what it waits on). */
  constructor(private readonly idle: () => void) {}

  /**
   * Runs `work` as a strand of its own, counted until it ends except while it waits on strands it starts or
   * on a result; the strand it is started from waits on it without counting.
   */
  count<T>(work: () => Promise<T>): Promise<T> {
    const counted = async () => {
      const strand = this.begin();
      try {
        return await this.current.run(strand, work);
      } finally {
        strand.end();
      }
    };
    const from = this.current.getStore();
    return from ? from.away(counted) : counted();
  }

  begin(): Strand {
    this.running++;
    let ended = false;
    let away = 0;
    return {
      away: async (work) => {
        // Started before this strand stops counting, so a unit it starts is counted first.
        const waiting = work();
        if (away++ === 0 && !ended) this.leave();
        try {
          return await waiting;
        } finally {
          if (--away === 0 && !ended) this.running++;
        }
      },
      end: () => {
        if (ended) return;
        ended = true;
        if (away === 0) this.leave();
      },
    };
  }

  /** A counted unit waits on the batcher until the returned function is called (once its result is in). */
  park(): () => void {
    if (this.running === 0) return () => undefined;
    this.leave();
    let back = false;
    return () => {
      if (back) return;
      back = true;
      this.running++;
    };
  }

  get busy(): boolean {
    return this.running > 0;
  }

  private leave(): void {
    if (--this.running === 0) this.idle();
  }
}
