/**
 * The calls that will use one cached prefix, as the caller who plans them counts them: whether a cache prime
 * pays (two or more of them go to the model) is then decided by that count, not by how close together the
 * calls happen to arrive.
 */

/** One planned call on a shared prefix (UnitSpec.primeFirst), told once whether it goes to the model. */
export interface Sharer {
  /**
   * The call has looked in the result cache; `missed`: it goes to the model. Resolves true once another
   * planned call goes too (a prime pays), false once every planned call has looked and at most one went.
   * Counted once a sharer: a unit rebuilt smaller and run again is not a second call on the prefix.
   */
  looked(missed: boolean): Promise<boolean>;
}

/** A sharer of a prefix that ended before it looked: it will not call. */
export interface PlannedSharer extends Sharer {
  drop(): void;
}

/**
 * The calls planned on one prefix. `open`: more may be planned (add) until `close`; a fixed group (the
 * reviewers of one part, one file's Step 3 units) is closed from the start.
 */
export class PrefixSharers {
  private unsettled: number;
  private misses = 0;
  private open: boolean;
  private settle!: (shared: boolean) => void;
  readonly shared = new Promise<boolean>((resolve) => (this.settle = resolve));

  constructor(planned: number, opts: { open?: boolean } = {}) {
    this.unsettled = planned;
    this.open = opts.open ?? false;
    this.decide();
  }

  /** One more planned call (an open group only), and the sharer it looks through. */
  add(): PlannedSharer {
    this.unsettled++;
    return this.sharer();
  }

  /** The sharer of a call counted in `planned`. */
  sharer(): PlannedSharer {
    let settled = false;
    const once = (missed: boolean) => {
      if (settled) return;
      settled = true;
      this.unsettled--;
      if (missed) this.misses++;
      this.decide();
    };
    return {
      looked: (missed) => {
        once(missed);
        return this.shared;
      },
      drop: () => once(false),
    };
  }

  /** No more calls will be planned. */
  close(): void {
    this.open = false;
    this.decide();
  }

  private decide(): void {
    if (this.misses >= 2) this.settle(true);
    else if (!this.open && this.unsettled <= 0) this.settle(false);
  }
}
