import assert from 'node:assert/strict';
import type { FunctionRow } from '../../src/model/records';
import { functionRanges, functionsTouched, keepChanged } from '../../src/engine/staged/diffScope';
import { finding } from '../helpers/records';

const fn = (name: string, start: number, end?: number): FunctionRow => ({
  qualified_name: name,
  kind: 'function',
  visibility: 'public',
  role_in_file: 'r',
  start_line: start,
  solo_review: false,
  ...(end ? { end_line: end } : {}),
});

describe('diff-aware review', () => {
  it('derives function ranges from the next start, or takes end_line', () => {
    const ranges = functionRanges([fn('b', 10), fn('a', 1), fn('c', 20, 25)], 40);
    assert.deepEqual(ranges.get('a'), [1, 9]);
    assert.deepEqual(ranges.get('b'), [10, 19]);
    assert.deepEqual(ranges.get('c'), [20, 25]);
    assert.deepEqual(functionRanges([fn('last', 30)], 40).get('last'), [30, 40]);
  });

  it('reviews only functions that overlap a change', () => {
    const fns = [fn('a', 1), fn('b', 10), fn('c', 20, 25)];
    assert.deepEqual(
      functionsTouched(fns, 40, [[12, 12]]).map((f) => f.qualified_name),
      ['b'],
    );
    assert.deepEqual(
      functionsTouched(fns, 40, [
        [9, 10],
        [26, 30],
      ]).map((f) => f.qualified_name),
      ['a', 'b'],
    );
    assert.deepEqual(functionsTouched(fns, 40, [[26, 30]]), []);
  });

  it('keeps findings on changed lines, keeps must_fix elsewhere as pre-existing, drops the rest', () => {
    const changed = new Map([['src/a.ts', [[5, 8]] as Array<[number, number]>]]);
    const { kept, dropped } = keepChanged(
      [
        finding({ line: 6, priority: 'should_fix' }),
        finding({ line: 20, priority: 'must_fix' }),
        finding({ line: 21, priority: 'nice_to_have' }),
        finding({ file: 'src/b.ts', line: 6, priority: 'should_fix' }),
        {
          ...finding({ line: 30, priority: 'should_fix' }),
          locations: [
            { file: 'src/a.ts', line: 30 },
            { file: 'src/a.ts', line: 7 },
          ],
        },
        finding({ line: 3, end_line: 5, priority: 'should_fix' }),
      ],
      (p) => changed.get(p),
    );
    assert.deepEqual(
      kept.map((f) => [f.file, f.line, f.pre_existing ?? false]),
      [
        ['src/a.ts', 6, false],
        ['src/a.ts', 20, true],
        ['src/a.ts', 30, false],
        ['src/a.ts', 3, false],
      ],
    );
    assert.deepEqual(
      dropped.map((d) => [d.finding.file, d.finding.line, d.stage]),
      [
        ['src/a.ts', 21, 'diff_scope'],
        ['src/b.ts', 6, 'diff_scope'],
      ],
    );
  });
});
