import assert from 'node:assert/strict';
import {
  BatchReview,
  ChallengeResult,
  FileAnalysis,
  PerFunctionReview,
  Step1Record,
  SynthesisResult,
} from '../../src/model/records';
import { verdicts, step1 } from '../helpers/records';

describe('records', () => {
  describe('Step1Record', () => {
    it('accepts a valid record', () => {
      assert.ok(Step1Record.safeParse(step1()).success);
    });
    it('rejects more than 5 entrypoints or touchpoints', () => {
      assert.ok(!Step1Record.safeParse(step1({ primary_entrypoints: ['a', 'b', 'c', 'd', 'e', 'f'] })).success);
      assert.ok(!Step1Record.safeParse(step1({ external_touchpoints: ['a', 'b', 'c', 'd', 'e', 'f'] })).success);
      assert.ok(Step1Record.safeParse(step1({ primary_entrypoints: ['a', 'b', 'c', 'd', 'e'] })).success);
    });
    it('rejects unknown enums', () => {
      assert.ok(!Step1Record.safeParse(step1({ primary_kind: 'library' as never })).success);
      assert.ok(!Step1Record.safeParse(step1({ review_as: 'deep_review' as never })).success);
    });
    it('rejects an appearance over 600 characters', () => {
      assert.ok(Step1Record.safeParse(step1({ appearance: 'x'.repeat(600) })).success);
      assert.ok(!Step1Record.safeParse(step1({ appearance: 'x'.repeat(601) })).success);
    });
    it('rejects a missing field and a non-integer line count', () => {
      const { language: _l, ...rest } = step1();
      assert.ok(!Step1Record.safeParse(rest).success);
      assert.ok(!Step1Record.safeParse(step1({ approx_line_count: 12.5 })).success);
      assert.ok(Step1Record.safeParse(step1({ approx_line_count: null })).success);
    });
  });

  describe('FileAnalysis', () => {
    const base = {
      file_path: 'a.ts',
      brutal_one_line: 'x',
      invariants: [],
      risk_flags: [],
      file_level_findings: [],
      functions: [],
    };
    it('limits invariants to 5 and risk flags to 3', () => {
      assert.ok(FileAnalysis.safeParse(base).success);
      assert.ok(!FileAnalysis.safeParse({ ...base, invariants: ['1', '2', '3', '4', '5', '6'] }).success);
      assert.ok(!FileAnalysis.safeParse({ ...base, risk_flags: ['1', '2', '3', '4'] }).success);
    });
    it('accepts only F1-F3 file-level findings with known enums', () => {
      const f = {
        rule_id: 'F1',
        confidence: 'high',
        priority: 'should_fix',
        location: 'a.ts:3',
        action: 'Do x.',
        rationale: 'Y breaks.',
        category: 'documentation',
      };
      assert.ok(FileAnalysis.safeParse({ ...base, file_level_findings: [f] }).success);
      assert.ok(!FileAnalysis.safeParse({ ...base, file_level_findings: [{ ...f, rule_id: 'F4' }] }).success);
      assert.ok(!FileAnalysis.safeParse({ ...base, file_level_findings: [{ ...f, confidence: 'certain' }] }).success);
    });
    it('requires function rows with a visibility enum and a positive start line', () => {
      const fn = {
        qualified_name: 'a',
        kind: 'function',
        visibility: 'public',
        role_in_file: 'r',
        start_line: 1,
        solo_review: false,
      };
      assert.ok(FileAnalysis.safeParse({ ...base, functions: [fn] }).success);
      assert.ok(!FileAnalysis.safeParse({ ...base, functions: [{ ...fn, visibility: 'protected' }] }).success);
      assert.ok(!FileAnalysis.safeParse({ ...base, functions: [{ ...fn, start_line: 0 }] }).success);
    });
  });

  describe('PerFunctionReview verdicts', () => {
    const review = (v = verdicts()) => ({
      file_path: 'a.ts',
      function_qualified_name: 'f',
      start_line: 1,
      verdicts: v,
    });
    it('accepts eight clean verdicts', () => {
      assert.ok(PerFunctionReview.safeParse(review()).success);
    });
    it('needs exactly one verdict per rule A1-A8', () => {
      assert.ok(!PerFunctionReview.safeParse(review(verdicts().slice(0, 7))).success);
      const dup = verdicts();
      dup[7] = { ...dup[7]!, rule_id: 'A1' };
      assert.ok(!PerFunctionReview.safeParse(review(dup)).success);
    });
    it('requires line, action and rationale for advisory and flag', () => {
      assert.ok(
        !PerFunctionReview.safeParse(
          review(verdicts({ A1: { verdict: 'flag', line: null, action: 'a', rationale: 'r' } })),
        ).success,
      );
      assert.ok(
        !PerFunctionReview.safeParse(
          review(verdicts({ A1: { verdict: 'flag', line: 3, action: null, rationale: 'r' } })),
        ).success,
      );
      assert.ok(
        PerFunctionReview.safeParse(review(verdicts({ A1: { verdict: 'flag', line: 3, action: 'a', rationale: 'r' } })))
          .success,
      );
    });
    it('takes a priority only for advisory, and only should_fix or nice_to_have', () => {
      assert.ok(
        !PerFunctionReview.safeParse(
          review(verdicts({ A2: { verdict: 'advisory', line: 3, action: 'a', rationale: 'r', priority: null } })),
        ).success,
      );
      assert.ok(
        PerFunctionReview.safeParse(
          review(
            verdicts({ A2: { verdict: 'advisory', line: 3, action: 'a', rationale: 'r', priority: 'should_fix' } }),
          ),
        ).success,
      );
      assert.ok(
        !PerFunctionReview.safeParse(
          review(
            verdicts({
              A2: { verdict: 'advisory', line: 3, action: 'a', rationale: 'r', priority: 'must_fix' as never },
            }),
          ),
        ).success,
      );
      assert.ok(
        !PerFunctionReview.safeParse(
          review(verdicts({ A1: { verdict: 'flag', line: 3, action: 'a', rationale: 'r', priority: 'should_fix' } })),
        ).success,
      );
      assert.ok(
        !PerFunctionReview.safeParse(review(verdicts({ A3: { verdict: 'clean', priority: 'nice_to_have' } }))).success,
      );
    });
    it('never accepts a flag on A6 or A8', () => {
      assert.ok(
        !PerFunctionReview.safeParse(
          review(verdicts({ A6: { verdict: 'flag', line: 3, action: 'a', rationale: 'r' } })),
        ).success,
      );
      assert.ok(
        !PerFunctionReview.safeParse(
          review(verdicts({ A8: { verdict: 'flag', line: 3, action: 'a', rationale: 'r' } })),
        ).success,
      );
      assert.ok(
        PerFunctionReview.safeParse(
          review(
            verdicts({ A6: { verdict: 'advisory', line: 3, action: 'a', rationale: 'r', priority: 'nice_to_have' } }),
          ),
        ).success,
      );
    });
    it('applies the same rules inside a BatchReview', () => {
      const ok = {
        file_path: 'a.ts',
        reviews: [{ function_qualified_name: 'f', start_line: 1, verdicts: verdicts() }],
      };
      assert.ok(BatchReview.safeParse(ok).success);
      assert.ok(
        !BatchReview.safeParse({ ...ok, reviews: [{ ...ok.reviews[0], verdicts: verdicts().slice(1) }] }).success,
      );
    });
  });

  describe('ChallengeResult and SynthesisResult', () => {
    it('rejects an unknown revised priority and a missing reason', () => {
      const c = {
        rule_id: 'A1',
        function_qualified_name: null,
        line: 3,
        survived: true,
        revised_priority: null,
        challenge_reason: 'Holds.',
      };
      assert.ok(ChallengeResult.safeParse({ file_path: 'a', challenges: [c] }).success);
      assert.ok(
        !ChallengeResult.safeParse({ file_path: 'a', challenges: [{ ...c, revised_priority: 'drop' }] }).success,
      );
      assert.ok(!ChallengeResult.safeParse({ file_path: 'a', challenges: [{ ...c, challenge_reason: '' }] }).success);
    });
    it('accepts only G1-G4 cross-file findings with at least one location', () => {
      const s = {
        verdict_one_line: 'v',
        executive_summary: 's',
        file_groups: [],
        file_profiles: [],
        cross_cutting_analysis: '',
        cross_file_findings: [] as object[],
      };
      const g = {
        rule_id: 'G1',
        confidence: 'high',
        priority: 'should_fix',
        locations: ['a.ts:1'],
        action: 'a',
        category: 'duplication',
        rationale: 'r',
      };
      assert.ok(SynthesisResult.safeParse({ ...s, cross_file_findings: [g] }).success);
      assert.ok(!SynthesisResult.safeParse({ ...s, cross_file_findings: [{ ...g, rule_id: 'A1' }] }).success);
      assert.ok(!SynthesisResult.safeParse({ ...s, cross_file_findings: [{ ...g, locations: [] }] }).success);
    });
  });
});
