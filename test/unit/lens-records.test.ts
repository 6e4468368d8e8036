import assert from 'node:assert/strict';
import { LensReview, LensValidation } from '../../src/model/lensRecords';
import { recordTitle } from '../../src/engine/runner';

const finding = {
  severity: 'HIGH',
  file: 'src/a.ts',
  line: 3,
  title: 'Off by one',
  evidence: 'i <= n reads past the end.',
  recommendation: 'Loop while i < n.',
  confidence: 4,
  category: 'logic',
};

describe('lens records', () => {
  it('titles both records, which the runner and the fake server key on', () => {
    assert.equal(recordTitle(LensReview), 'LensReview');
    assert.equal(recordTitle(LensValidation), 'LensValidation');
  });

  it('accepts a well-formed review, and an empty one', () => {
    assert.ok(LensReview.safeParse({ findings: [finding] }).success);
    assert.ok(LensReview.safeParse({ findings: [] }).success);
  });

  it('lets low confidence through the schema (the floor filters it) but not out-of-range values', () => {
    assert.ok(LensReview.safeParse({ findings: [{ ...finding, confidence: 1 }] }).success);
    for (const bad of [
      { confidence: 0 },
      { confidence: 6 },
      { confidence: 3.5 },
      { severity: 'BLOCKER' },
      { line: 0 },
      { evidence: '' },
    ]) {
      assert.ok(!LensReview.safeParse({ findings: [{ ...finding, ...bad }] }).success, JSON.stringify(bad));
    }
  });

  it('limits a validator reason to ten words', () => {
    assert.ok(
      LensValidation.safeParse({ verdict: 'REJECTED', reason: 'The caller already checks the index before this call.' })
        .success,
    );
    assert.ok(
      !LensValidation.safeParse({
        verdict: 'REJECTED',
        reason: 'one two three four five six seven eight nine ten eleven',
      }).success,
    );
    assert.ok(!LensValidation.safeParse({ verdict: 'MAYBE', reason: 'unsure' }).success);
  });
});
