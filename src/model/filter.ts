/**
 * Findings pass through filters: each keeps some (perhaps revised: demoted, marked pre-existing) and drops the
 * rest, saying why. One type for a filter, one way to judge item by item, one way to chain them, so the
 * drops of every step of a chain come out together and in order.
 */

/** What a filter made of a list: what it kept, in order, and what it dropped (`D`: the drop with its reason). */
export interface Filtered<T, D> {
  kept: T[];
  dropped: D[];
}

export type Filter<T, D> = (items: T[]) => Filtered<T, D>;

/** One item's fate: kept (as it is, or revised), or dropped. */
export type Judged<T, D> = { keep: T } | { drop: D };

/** The filter that judges each item on its own (with its index in the list). */
export function judgeEach<T, D>(judge: (item: T, index: number) => Judged<T, D>): Filter<T, D> {
  return (items) => {
    const out: Filtered<T, D> = { kept: [], dropped: [] };
    items.forEach((item, i) => {
      const judged = judge(item, i);
      if ('keep' in judged) out.kept.push(judged.keep);
      else out.dropped.push(judged.drop);
    });
    return out;
  };
}

/** Keeps everything: a filter where a step does not apply (no change under review, no challenge). */
export function keepAll<T, D>(items: T[]): Filtered<T, D> {
  return { kept: items, dropped: [] };
}

/** The filters in order, each on what the one before kept; the drops of all of them, in order. */
export function chain<T, D>(...filters: Array<Filter<T, D>>): Filter<T, D> {
  return (items) =>
    filters.reduce<Filtered<T, D>>(
      (sofar, filter) => {
        const next = filter(sofar.kept);
        return { kept: next.kept, dropped: [...sofar.dropped, ...next.dropped] };
      },
      { kept: items, dropped: [] },
    );
}
