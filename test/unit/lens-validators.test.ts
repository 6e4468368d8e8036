import assert from 'node:assert/strict';
import type { MergedFinding } from '../../src/model/lens';
import {
  applyValidation,
  MAX_VALIDATORS,
  pickForValidation,
  summarizeValidation,
} from '../../src/engine/lenses/validators';

const f = (over: Partial<MergedFinding> = {}): MergedFinding => ({
  severity: 'HIGH',
  file: 'src/a.ts',
  line: 1,
  title: 't',
  evidence: 'e',
  recommendation: 'r',
  confidence: 4,
  reviewers: ['logic'],
  repository: null,
  category: null,
  ...over,
});

describe('lens validators', () => {
  it('picks CRITICAL before HIGH, surer first, at most ten, and nothing milder', () => {
    const many = Array.from({ length: 12 }, (_, i) => f({ line: i + 1, confidence: 3 }));
    const picked = pickForValidation([
      f({ severity: 'MEDIUM', line: 50 }),
      ...many,
      f({ severity: 'CRITICAL', line: 99, confidence: 3 }),
      f({ line: 77, confidence: 5 }),
    ]);
    assert.equal(picked.length, MAX_VALIDATORS);
    assert.deepEqual(
      picked.slice(0, 2).map((x) => x.line),
      [99, 77],
    );
    assert.ok(!picked.some((x) => x.severity === 'MEDIUM'));
  });

  it('maps VALIDATED, REJECTED and a failed validator', () => {
    assert.deepEqual(
      applyValidation(f(), { ok: true, value: { verdict: 'VALIDATED', reason: 'Index reaches length.' }, repairs: 0 }),
      { ...f(), validated: true, validationReason: 'Index reaches length.' },
    );
    const rejected = applyValidation(f({ severity: 'CRITICAL' }), {
      ok: true,
      value: { verdict: 'REJECTED', reason: 'Caller guards it.' },
      repairs: 0,
    });
    assert.equal(rejected.severity, 'INFO');
    assert.equal(rejected.validated, false);
    assert.equal(rejected.originalSeverity, 'CRITICAL');
    const timedOut = applyValidation(f(), { ok: false, reason: 'model call failed: request timed out' });
    assert.equal(timedOut.severity, 'HIGH');
    assert.equal(timedOut.validated, 'timeout');
  });

  it('counts CRITICAL/HIGH before and after, rejections and timeouts', () => {
    const before = [f({ severity: 'CRITICAL' }), f(), f({ line: 2 }), f({ severity: 'LOW' })];
    const after = [
      f({ severity: 'INFO', validated: false }),
      f({ validated: true }),
      f({ line: 2, validated: 'timeout' }),
      f({ severity: 'LOW' }),
    ];
    assert.deepEqual(summarizeValidation(before, after, true), {
      performed: true,
      preValidation: { critical: 1, high: 2 },
      postValidation: { critical: 0, high: 2 },
      rejected: 1,
      timeouts: 1,
    });
  });
});
