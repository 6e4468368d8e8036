import assert from 'node:assert/strict';
import { missingFunctions, planReviews } from '../../src/engine/staged/batching';
import { applyChallenge, findingFromFileRule, findingsFromReview, tiebreak } from '../../src/engine/staged/filters';
import { parseLocation } from '../../src/model/location';
import type { FunctionRow } from '../../src/model/records';
import { finding, verdicts } from '../helpers/records';

describe('confidence tiebreaker', () => {
  const table: Array<[string, string, string | null]> = [
    ['must_fix', 'low', 'should_fix'],
    ['should_fix', 'low', null],
    ['nice_to_have', 'low', null],
    ['must_fix', 'medium', 'must_fix'],
    ['should_fix', 'medium', 'should_fix'],
    ['nice_to_have', 'medium', 'nice_to_have'],
    ['must_fix', 'high', 'must_fix'],
    ['should_fix', 'high', 'should_fix'],
    ['nice_to_have', 'high', 'nice_to_have'],
  ];
  for (const [priority, confidence, expected] of table) {
    it(`${priority} + ${confidence} → ${expected ?? 'dropped'}`, () => {
      const { kept, dropped } = tiebreak([finding({ priority: priority as never, confidence: confidence as never })]);
      if (expected === null) {
        assert.equal(kept.length, 0);
        assert.equal(dropped.length, 1);
        assert.equal(dropped[0]!.stage, 'tiebreaker');
      } else {
        assert.equal(dropped.length, 0);
        assert.equal(kept[0]!.priority, expected);
      }
    });
  }
});

describe('findings from verdicts', () => {
  it('makes a flag must_fix, keeps an advisory priority, omits clean and na', () => {
    const review = {
      file_path: 'a.ts',
      function_qualified_name: 'f',
      start_line: 2,
      verdicts: verdicts({
        A1: { verdict: 'flag', line: 4, action: 'Fix.', rationale: 'Breaks.', confidence: 'medium' },
        A5: { verdict: 'advisory', line: 5, action: 'Log.', rationale: 'Context lost.', priority: 'nice_to_have' },
        A7: { verdict: 'na' },
      }),
    };
    const found = findingsFromReview(review, 'a.ts');
    assert.deepEqual(
      found.map((f) => [f.rule_id, f.priority, f.line, f.confidence, f.function]),
      [
        ['A1', 'must_fix', 4, 'medium', 'f'],
        ['A5', 'nice_to_have', 5, 'high', 'f'],
      ],
    );
  });

  it('reads file-level locations: line, range, file-wide, companion', () => {
    const base = {
      rule_id: 'F3' as const,
      confidence: 'high' as const,
      priority: 'should_fix' as const,
      action: 'a',
      rationale: 'r',
      category: 'duplication' as const,
    };
    const line = findingFromFileRule({ ...base, location: 'src/a.ts:12' }, 'src/a.ts');
    assert.deepEqual([line.file, line.line, line.locations], ['src/a.ts', 12, [{ file: 'src/a.ts', line: 12 }]]);
    const range = findingFromFileRule({ ...base, location: 'src/a.ts:12-20' }, 'src/a.ts');
    assert.deepEqual([range.line, range.end_line], [12, 20]);
    const wide = findingFromFileRule({ ...base, location: 'file-wide' }, 'src/a.ts');
    assert.deepEqual([wide.file, wide.line], ['src/a.ts', 1]);
    const companion = findingFromFileRule({ ...base, location: 'src/a.test.ts:7' }, 'src/a.ts');
    assert.deepEqual([companion.file, companion.line], ['src/a.test.ts', 7]);
  });

  it('parses locations strictly', () => {
    assert.deepEqual(parseLocation('a/b.ts:3'), { path: 'a/b.ts', line: 3 });
    assert.deepEqual(parseLocation('12-14'), { path: null, line: 12, end: 14 });
    assert.equal(parseLocation('file-wide'), null);
    assert.equal(parseLocation('somewhere in the middle'), null);
  });
});

describe('challenge rulings', () => {
  const findings = [finding({ line: 3 }), finding({ line: 8, priority: 'should_fix' }), finding({ line: 9 })];
  const ruling = (survived: boolean, revised: string | null, line: number) => ({
    rule_id: 'A1',
    function_qualified_name: 'f',
    line,
    survived,
    revised_priority: revised as never,
    challenge_reason: 'Because.',
  });

  it('drops disqualified findings and applies downgrades only', () => {
    const { kept, dropped } = applyChallenge(findings, {
      file_path: 'src/a.ts',
      challenges: [ruling(false, null, 3), ruling(true, 'nice_to_have', 8), ruling(true, 'must_fix', 9)],
    });
    assert.deepEqual(
      dropped.map((d) => [d.finding.line, d.stage, d.reason]),
      [[3, 'challenge', 'Because.']],
    );
    assert.deepEqual(
      kept.map((f) => [f.line, f.priority]),
      [
        [8, 'nice_to_have'],
        [9, 'must_fix'],
      ],
    );
  });
});

describe('batching and completeness', () => {
  const fn = (name: string, solo = false): FunctionRow => ({
    qualified_name: name,
    kind: 'function',
    visibility: 'public',
    role_in_file: 'r',
    start_line: 1,
    solo_review: solo,
  });

  it('gives solo functions their own call and batches the rest in eights, in order', () => {
    const fns = [fn('s1', true), ...Array.from({ length: 17 }, (_, i) => fn(`b${i}`)), fn('s2', true)];
    const plan = planReviews(fns);
    assert.deepEqual(
      plan.solo.map((f) => f.qualified_name),
      ['s1', 's2'],
    );
    assert.deepEqual(
      plan.batches.map((b) => b.length),
      [8, 8, 1],
    );
    assert.equal(plan.batches[1]![0]!.qualified_name, 'b8');
  });

  it('finds expected − reviewed', () => {
    const fns = [fn('a'), fn('b'), fn('c')];
    assert.deepEqual(
      missingFunctions(fns, ['a', 'c', 'zzz']).map((f) => f.qualified_name),
      ['b'],
    );
    assert.deepEqual(missingFunctions(fns, ['a', 'b', 'c']), []);
  });
});
