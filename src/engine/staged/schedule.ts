/**
 * The order of a staged run's requests. As a rule, when a slot frees, the call that brings a file closest to
 * done goes first (later steps first, then the file that started first), so files finish early. But the run
 * ends when its last file's chain of steps ends, and a chain started when little else is left to run ends
 * with the other slots idle. So a file whose remaining chain is a large share of the run's remaining calls
 * spread over the slots is critical, and its calls go before the rest, the longest chain first
 * (docs/caching.md, "The scheduler", has the figures).
 */
import type { Priority } from '../../model/semaphore';
import { FILE_STEPS as STEPS, type FileStep } from '../../model/models';

/** Later steps are served first: they bring a file closer to done. */
const STEP_RANK: Record<FileStep, number> = { curate: 1, analyze: 2, review: 3, challenge: 4 };
/** Above every step, below cache primes (calls wait on those). */
const CRITICAL_RANK = 100;
/**
 * A file is critical once the run's remaining calls, spread over the slots, would take at most this many
 * times its remaining chain (plus one round). Not 1: the last files must run side by side, or the run ends
 * on one file's chain with the other slots idle. Simulated on the bench's skewed tree and on jsonschema's
 * shape (docs/caching.md): 2.5–4 are equally good; 6 and more start the last files so early that the run
 * turns breadth-first and the first file finishes late.
 */
const CHAIN_SHARE = 3;

interface Left {
  /** Steps still to run in sequence, in rounds (a step of more units than slots takes several). */
  rounds: number;
  /** Calls still to answer, this step's included. */
  calls: number;
}

export class Schedule {
  private readonly files = new Map<number, Left>();
  private calls = 0;

  constructor(private readonly slots: number) {}

  /**
   * From now on, the file (by its start order) has `next` and the steps after it to run, with `units`
   * Step 3 calls (an estimate until Step 2 has answered). Challenge is counted: most files with functions
   * have a finding to defend.
   */
  expect(order: number, next: FileStep, units: number): void {
    const steps = STEPS.slice(STEPS.indexOf(next)).filter((s) => s !== 'review' || units > 0);
    const rounds = steps.reduce((n, s) => n + (s === 'review' ? Math.ceil(units / this.slots) : 1), 0);
    const calls = steps.reduce((n, s) => n + (s === 'review' ? units : 1), 0);
    this.set(order, { rounds, calls });
  }

  /** The file has nothing more to ask (finished, skipped, failed or stopped). */
  finish(order: number): void {
    this.set(order, { rounds: 0, calls: 0 });
  }

  /** One call about the file was answered, or came from the result cache. */
  answered(order: number): void {
    const left = this.files.get(order);
    if (left && left.calls > 0) this.set(order, { ...left, calls: left.calls - 1 });
  }

  /**
   * The queue position of a call for `step` of the file, re-read while the call waits: critical files first,
   * the longest chain first and then the most calls left; else later steps first, then the file that started
   * first.
   */
  priority(order: number, step: FileStep): () => Priority {
    return () => {
      const left = this.files.get(order);
      return left && this.critical(left.rounds)
        ? { rank: CRITICAL_RANK + left.rounds, order: -left.calls }
        : { rank: STEP_RANK[step], order };
    };
  }

  private critical(rounds: number): boolean {
    return rounds > 0 && rounds * CHAIN_SHARE + 1 >= this.calls / this.slots;
  }

  private set(order: number, left: Left): void {
    this.calls += left.calls - (this.files.get(order)?.calls ?? 0);
    this.files.set(order, left);
  }
}

/** Step 3 calls for a file of `functions` functions, before Step 2 says which go solo: batches of up to `batch`. */
export function expectedUnits(functions: number | undefined, batch: number): number {
  return functions === undefined ? 1 : Math.ceil(functions / batch);
}
