import assert from 'node:assert/strict';
import { checkAnalysis } from '../../src/engine/staged/analyze';
import { checkChallenge } from '../../src/engine/staged/challenge';
import type { FileUnderReview } from '../../src/engine/staged/context';
import { checkBatch } from '../../src/engine/staged/review';
import { checkSynthesis, salvageSynthesis } from '../../src/engine/staged/synthesisRecords';
import { toSourceFile } from '../../src/engine/source';
import { finding, step1, verdicts } from '../helpers/records';

const file: FileUnderReview = {
  entry: { path: 'src/a.ts', companion_path: 'src/a.test.ts' },
  primary: toSourceFile('src/a.ts', Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n'),
  companion: toSourceFile('src/a.test.ts', 'one\ntwo\n'),
  order: 0,
  warm: new Set(),
  cut: [],
  view: 0,
};

describe('semantic checks', () => {
  it('analysis: function start lines exist, names are unique, F2/F3 are never must_fix, locations are real', () => {
    const fn = {
      qualified_name: 'f',
      kind: 'function',
      visibility: 'public' as const,
      role_in_file: 'r',
      start_line: 3,
      solo_review: false,
    };
    const ok = {
      file_path: 'src/a.ts',
      brutal_one_line: 'x',
      invariants: [],
      risk_flags: [],
      file_level_findings: [],
      functions: [fn],
    };
    assert.deepEqual(checkAnalysis(ok, file, step1()), []);
    assert.match(
      checkAnalysis({ ...ok, functions: [{ ...fn, start_line: 11 }] }, file, step1()).join(),
      /line 11 does not exist \(the file has 10 lines\)/,
    );
    assert.match(checkAnalysis({ ...ok, functions: [fn, fn] }, file, step1()).join(), /appears twice/);
    const ff = {
      rule_id: 'F2' as const,
      confidence: 'high' as const,
      priority: 'must_fix' as const,
      location: 'src/a.ts:2',
      action: 'a',
      rationale: 'r',
      category: 'formatting' as const,
    };
    assert.match(checkAnalysis({ ...ok, file_level_findings: [ff] }, file, step1()).join(), /F2 can never be must_fix/);
    const loc = (location: string) =>
      checkAnalysis(
        { ...ok, file_level_findings: [{ ...ff, priority: 'should_fix', location }] },
        file,
        step1(),
      ).join();
    assert.equal(loc('file-wide'), '');
    assert.equal(loc('src/a.test.ts:2'), '');
    assert.match(loc('src/a.test.ts:3'), /does not exist/);
    assert.match(loc('src/other.ts:2'), /names a file other than/);
    assert.match(loc('near the top'), /must be "path:line"/);
  });

  it('analysis: documentation files list no functions', () => {
    const fn = {
      qualified_name: 'f',
      kind: 'function',
      visibility: 'public' as const,
      role_in_file: 'r',
      start_line: 3,
      solo_review: false,
    };
    const a = {
      file_path: 'src/a.ts',
      brutal_one_line: 'x',
      invariants: [],
      risk_flags: [],
      file_level_findings: [],
      functions: [fn],
    };
    assert.match(
      checkAnalysis(a, file, step1({ primary_kind: 'documentation', review_as: 'documentation_review' })).join(),
      /functions must be empty/,
    );
  });

  it('batch: answers for its own file, only for asked functions, once each, on real lines; omissions pass', () => {
    const r = (name: string, line: number | null = null) => ({
      function_qualified_name: name,
      start_line: 1,
      verdicts: verdicts(line ? { A1: { verdict: 'flag', line, action: 'a', rationale: 'r' } } : {}),
    });
    const row = (qualified_name: string, start_line = 1, end_line?: number) => ({
      qualified_name,
      kind: 'function',
      visibility: 'public' as const,
      role_in_file: 'r',
      start_line,
      end_line,
      solo_review: false,
    });
    const asked = new Map([
      ['f', row('f')],
      ['g', row('g')],
    ]);
    assert.deepEqual(checkBatch({ file_path: 'src/a.ts', reviews: [r('f')] }, asked, file), []);
    assert.match(
      checkBatch({ file_path: 'src/a.ts', reviews: [r('f'), r('h')] }, asked, file).join(),
      /"h" was not asked for/,
    );
    assert.match(
      checkBatch({ file_path: 'src/a.ts', reviews: [r('f'), r('f')] }, asked, file).join(),
      /reviewed twice/,
    );
    assert.match(
      checkBatch({ file_path: 'src/a.ts', reviews: [r('g', 99)] }, asked, file).join(),
      /line 99 does not exist/,
    );
    // With exact lines known, a verdict must cite a line of its own function.
    const ranged = new Map([['f', row('f', 2, 3)]]);
    assert.deepEqual(checkBatch({ file_path: 'src/a.ts', reviews: [r('f', 3)] }, ranged, file), []);
    assert.match(
      checkBatch({ file_path: 'src/a.ts', reviews: [r('f', 4)] }, ranged, file).join(),
      /f A1: line 4 is outside the function \(lines 2-3\)/,
    );
    assert.match(
      checkBatch({ file_path: 'src/other.ts', reviews: [r('f')] }, asked, file).join(),
      /file_path: "src\/other\.ts" is not the file under review; answer for "src\/a\.ts"/,
    );
  });

  it('challenge: one ruling per finding in order, downgrades only', () => {
    const findings = [finding({ line: 3, priority: 'should_fix' }), finding({ line: 5 })];
    const c = (line: number, revised: string | null = null) => ({
      rule_id: 'A1',
      function_qualified_name: 'f',
      line,
      survived: true,
      revised_priority: revised as never,
      challenge_reason: 'ok',
    });
    assert.deepEqual(checkChallenge({ file_path: 'x', challenges: [c(3), c(5)] }, findings), []);
    assert.match(checkChallenge({ file_path: 'x', challenges: [c(3)] }, findings).join(), /exactly one per finding, 2/);
    assert.match(checkChallenge({ file_path: 'x', challenges: [c(5), c(3)] }, findings).join(), /keep the input order/);
    assert.match(
      checkChallenge({ file_path: 'x', challenges: [c(3, 'must_fix'), c(5)] }, findings).join(),
      /may only downgrade/,
    );
    assert.deepEqual(
      checkChallenge({ file_path: 'x', challenges: [c(3, 'nice_to_have'), c(5, 'should_fix')] }, findings),
      [],
    );
  });

  it('synthesis: cross-file locations are path:line in reviewed files', () => {
    const s = (locations: string[]) => ({
      verdict_one_line: 'v',
      executive_summary: 's',
      file_groups: [],
      file_profiles: [],
      cross_cutting_analysis: '',
      cross_file_findings: [
        {
          rule_id: 'G1' as const,
          confidence: 'high' as const,
          priority: 'should_fix' as const,
          locations,
          action: 'a',
          rationale: 'r',
          category: 'duplication' as const,
        },
      ],
    });
    const counts = new Map([
      ['src/a.ts', 10],
      ['src/b.ts', 4],
    ]);
    assert.deepEqual(checkSynthesis(s(['src/a.ts:3', 'src/b.ts:4']), counts), []);
    assert.match(checkSynthesis(s(['src/b.ts:5']), counts).join(), /does not exist/);
    assert.match(checkSynthesis(s(['src/c.ts:1']), counts).join(), /not one of the reviewed files/);
    assert.match(checkSynthesis(s(['src/a.ts']), counts).join(), /must be "path:line"/);
  });

  it('synthesis salvage keeps the sound cross-file findings and names the rest', () => {
    const g = (rule_id: 'G1' | 'G2', locations: string[]) => ({
      rule_id,
      confidence: 'high' as const,
      priority: 'should_fix' as const,
      locations,
      action: `act ${rule_id}`,
      rationale: 'r',
      category: 'duplication' as const,
    });
    const result = {
      verdict_one_line: 'v',
      executive_summary: 's',
      file_groups: [],
      file_profiles: [],
      cross_cutting_analysis: 'c',
      cross_file_findings: [g('G1', ['src/a.ts:3']), g('G2', ['src/a.ts:3', 'src/zzz.ts:1'])],
    };
    const { value, leftOut } = salvageSynthesis(result, new Map([['src/a.ts', 10]]));
    assert.deepEqual(
      value.cross_file_findings.map((f) => f.rule_id),
      ['G1'],
    );
    assert.equal(value.verdict_one_line, 'v');
    assert.deepEqual(leftOut, ['cross-file finding G2 "act G2" dropped: cites src/zzz.ts, which was not reviewed']);
  });
});
