/**
 * The files a staged run starts with, as the run-wide prefix of Step 1's model sees them (tools, system text,
 * context): every file's first call is its Step 1, so the first files Step 0 keeps, up to the bound on files in
 * flight, start on that prefix together. A prime of it goes if two or more of their Step 1 calls miss the
 * result cache (a cold run: whenever two files start; one edited file among cached ones: never), decided by
 * their count (sharers.ts), not by how close together they arrive. A later file waits for that decision.
 */
import { PrefixSharers, type PlannedSharer, type Sharer } from '../sharers';

export class StartingFiles {
  private readonly sharers = new PrefixSharers(0, { open: true });
  private readonly members = new Map<number, PlannedSharer>();
  private judged = 0;
  private readonly later: Sharer = { looked: () => this.sharers.shared };

  /**
   * `candidates`: the files Step 0 judges; `bound`: the files in flight at once. Kept files take their place
   * in flight in the order of their verdicts, so the first `bound` of them start together.
   */
  constructor(
    private readonly candidates: number,
    private readonly bound: number,
  ) {
    if (candidates === 0) this.sharers.close();
  }

  /** Step 0's verdict on a candidate, as it comes (before the file asks for its place in flight). */
  verdict(order: number, kept: boolean): void {
    this.judged++;
    if (kept && this.members.size < this.bound) this.members.set(order, this.sharers.add());
    if (this.members.size >= this.bound || this.judged === this.candidates) this.sharers.close();
  }

  /** The sharer the file's Step 1 looks through: its own among the starting files, else the decision theirs make. */
  of(order: number): Sharer {
    return this.members.get(order) ?? this.later;
  }

  /** The file's steps ended: one that never looked (it could not be read) will not call. */
  ended(order: number): void {
    this.members.get(order)?.drop();
  }
}
