/** The one way findings are filtered (model/filter.ts): judged item by item, chained in order. */
import assert from 'node:assert/strict';
import { chain, judgeEach, keepAll, type Filter } from '../../src/model/filter';

type Drop = { item: number; by: string };

const dropOdd: Filter<number, Drop> = judgeEach<number, Drop>((n) =>
  n % 2 ? { drop: { item: n, by: 'odd' } } : { keep: n },
);
/** Revises what it keeps: what a later filter sees is the revision. */
const halve: Filter<number, Drop> = judgeEach((n) => ({ keep: n / 2 }));
const dropAbove: (limit: number) => Filter<number, Drop> = (limit) =>
  judgeEach<number, Drop>((n) => (n > limit ? { drop: { item: n, by: `above ${limit}` } } : { keep: n }));

describe('finding filters', () => {
  it('judgeEach keeps (perhaps revised) or drops each item, in order, with its index', () => {
    const byIndex = judgeEach<string, number>((s, i) => (i === 1 ? { drop: i } : { keep: s.toUpperCase() }));
    assert.deepEqual(byIndex(['a', 'b', 'c']), { kept: ['A', 'C'], dropped: [1] });
  });

  it('chain runs each filter on what the one before kept, and gathers the drops in order', () => {
    const out = chain(dropOdd, halve, dropOdd, dropAbove(2))([1, 2, 4, 6, 8, 12, 3]);
    assert.deepEqual(out.kept, [2]);
    assert.deepEqual(out.dropped, [
      { item: 1, by: 'odd' },
      { item: 3, by: 'odd' },
      { item: 1, by: 'odd' },
      { item: 3, by: 'odd' },
      { item: 4, by: 'above 2' },
      { item: 6, by: 'above 2' },
    ]);
  });

  it('keepAll and an empty chain change nothing', () => {
    assert.deepEqual(keepAll([3, 1]), { kept: [3, 1], dropped: [] });
    assert.deepEqual(chain<number, Drop>()([3, 1]), { kept: [3, 1], dropped: [] });
  });
});
