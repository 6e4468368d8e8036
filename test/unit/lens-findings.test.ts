import assert from 'node:assert/strict';
import { citationErrors } from '../../src/engine/lenses/calls';
import { chunkFiles, sourceTokens } from '../../src/engine/lenses/chunks';
import { applyConfidenceFloor, keepOnChange, mergeFindings } from '../../src/engine/lenses/findings';
import { toFinding } from '../../src/model/lens';
import { type MergedFinding, type RaisedFinding } from '../../src/model/lens';
import type { LensFinding } from '../../src/model/lensRecords';
import { toSourceFile } from '../../src/engine/source';

const lens = (over: Partial<LensFinding> = {}): LensFinding => ({
  severity: 'MEDIUM',
  file: 'src/a.ts',
  line: 10,
  title: 'Swallowed error',
  evidence: 'The catch block is empty.',
  recommendation: 'Log and rethrow.',
  confidence: 4,
  category: null,
  ...over,
});
const raised = (reviewer: string, over: Partial<LensFinding> = {}): RaisedFinding => ({
  reviewer,
  repository: null,
  finding: lens(over),
});
const merged = (over: Partial<MergedFinding> = {}): MergedFinding => ({
  ...lens(),
  reviewers: ['logic'],
  repository: null,
  ...over,
});

describe('lens findings', () => {
  describe('self-critique floor', () => {
    it('drops and counts findings below confidence 3, keeps 3 and up', () => {
      const out = applyConfidenceFloor([
        lens({ confidence: 1 }),
        lens({ confidence: 2 }),
        lens({ confidence: 3 }),
        lens({ confidence: 5 }),
      ]);
      assert.deepEqual(
        out.kept.map((f) => f.confidence),
        [3, 5],
      );
      assert.equal(out.dropped, 2);
    });
  });

  describe('merging by file:line', () => {
    it('keeps the highest severity, every reviewer, both perspectives and the best confidence', () => {
      const [one, ...rest] = mergeFindings([
        raised('logic', { severity: 'MEDIUM', title: 'Empty catch', evidence: 'Errors vanish.', confidence: 5 }),
        raised('silent-failures', {
          severity: 'HIGH',
          title: 'Save failure is swallowed',
          evidence: 'A failed save reports success.',
          recommendation: 'Propagate the error.',
          confidence: 3,
        }),
      ]);
      assert.equal(rest.length, 0);
      assert.equal(one!.severity, 'HIGH');
      assert.equal(one!.title, 'Save failure is swallowed');
      assert.deepEqual(one!.reviewers, ['silent-failures', 'logic']);
      assert.equal(one!.confidence, 5);
      assert.equal(one!.evidence, '(silent-failures) A failed save reports success. (logic) Errors vanish.');
      assert.equal(one!.recommendation, '(silent-failures) Propagate the error. (logic) Log and rethrow.');
    });

    it('does not repeat identical text, and keeps different lines apart in report order', () => {
      const out = mergeFindings([
        raised('security', { line: 4 }),
        raised('logic', { line: 4 }),
        raised('logic', { line: 2, severity: 'LOW' }),
        raised('performance', { file: 'src/b.ts', line: 1, severity: 'CRITICAL' }),
      ]);
      assert.deepEqual(
        out.map((f) => `${f.file}:${f.line} ${f.severity}`),
        ['src/b.ts:1 CRITICAL', 'src/a.ts:4 MEDIUM', 'src/a.ts:2 LOW'],
      );
      assert.equal(out[1]!.evidence, 'The catch block is empty.');
      assert.deepEqual(out[1]!.reviewers, ['security', 'logic']);
    });
  });

  describe('change filter', () => {
    const changed = new Map([['src/a.ts', [[8, 12]] as Array<[number, number]>]]);
    it('keeps findings on changed lines, marks severe ones elsewhere pre-existing, drops the rest', () => {
      const out = keepOnChange(
        [merged({ line: 9 }), merged({ line: 30, severity: 'HIGH' }), merged({ line: 31, severity: 'MEDIUM' })],
        changed,
      );
      assert.deepEqual(
        out.kept.map((f) => [f.line, f.preExisting ?? false]),
        [
          [9, false],
          [30, true],
        ],
      );
      assert.equal(out.dropped, 1);
    });
    it('leaves a path scope alone', () => {
      assert.equal(keepOnChange([merged({ line: 99 })], undefined).kept.length, 1);
    });
  });

  describe('mapping to the shared Finding', () => {
    it('maps severity to priority, confidence to its level, and the lead reviewer to the rule id', () => {
      const cases: Array<[MergedFinding['severity'], string]> = [
        ['CRITICAL', 'must_fix'],
        ['HIGH', 'must_fix'],
        ['MEDIUM', 'should_fix'],
        ['LOW', 'nice_to_have'],
        ['INFO', 'nice_to_have'],
      ];
      for (const [severity, priority] of cases)
        assert.equal(toFinding(merged({ severity })).priority, priority, severity);
      assert.equal(toFinding(merged({ confidence: 5 })).confidence, 'high');
      assert.equal(toFinding(merged({ confidence: 4 })).confidence, 'high');
      assert.equal(toFinding(merged({ confidence: 3 })).confidence, 'medium');
      const f = toFinding(merged({ reviewers: ['security', 'logic'], repository: 'api', preExisting: true }));
      assert.equal(f.rule_id, 'security');
      assert.deepEqual(f.locations, [{ file: 'src/a.ts', line: 10 }]);
      assert.equal(f.action, 'Log and rethrow.');
      assert.equal(f.rationale, 'Swallowed error: The catch block is empty.');
      assert.equal(f.repository, 'api');
      assert.equal(f.pre_existing, true);
      assert.equal(toFinding(merged({ reviewers: ['cross-repo'] })).source, 'cross_repo');
    });
  });

  describe('citation check', () => {
    const files = [toSourceFile('src/a.ts', 'a\nb\nc\n')];
    it('accepts lines that exist in a file under review', () => {
      assert.deepEqual(citationErrors([lens({ line: 3 })], files), []);
    });
    it('rejects a line past the end and a file out of scope, saying which', () => {
      const errors = citationErrors([lens({ line: 4 }), lens({ file: 'src/other.ts', line: 1 })], files);
      assert.equal(errors.length, 2);
      assert.match(errors[0]!, /findings\.0 \(src\/a\.ts\): line 4 does not exist \(the file has 3 lines\)/);
      assert.match(
        errors[1]!,
        /findings\.1: "src\/other\.ts" is not among the files under review; cite one of: src\/a\.ts/,
      );
    });
  });

  describe('chunks', () => {
    it('packs files in order under the budget; an oversized file gets a chunk of its own', () => {
      const f = (name: string, lines: number) => toSourceFile(name, 'x'.repeat(38).concat('\n').repeat(lines));
      const files = [f('a', 100), f('b', 100), f('c', 500), f('d', 10)];
      const size = sourceTokens(files[0]!);
      const chunks = chunkFiles(files, 2 * size);
      assert.deepEqual(
        chunks.map((c) => c.files.map((x) => x.path)),
        [['a', 'b'], ['c'], ['d']],
      );
      assert.deepEqual(
        chunks.map((c) => `${c.index}/${c.of}`),
        ['1/3', '2/3', '3/3'],
      );
      assert.equal(chunkFiles(files).length, 1);
    });
  });
});
