import assert from 'node:assert/strict';
import { parseSuppression, suppressionAt, withoutDirective } from '../../src/model/suppression';

describe('skeptic-ignore comments', () => {
  it('read rule ids and a reason in the comment styles of common languages', () => {
    assert.deepEqual(parseSuppression('x = a[i]; // skeptic-ignore A1: i is bounded by the caller'), {
      rules: ['A1'],
      reason: 'i is bounded by the caller',
    });
    assert.deepEqual(parseSuppression('    # skeptic-ignore A1, A5: legacy'), {
      rules: ['A1', 'A5'],
      reason: 'legacy',
    });
    assert.deepEqual(parseSuppression('/* skeptic-ignore A4 */'), { rules: ['A4'], reason: null });
    assert.deepEqual(parseSuppression(' * skeptic-ignore A2: documented elsewhere */'), {
      rules: ['A2'],
      reason: 'documented elsewhere',
    });
    assert.deepEqual(parseSuppression('-- skeptic-ignore security: parameterised upstream'), {
      rules: ['security'],
      reason: 'parameterised upstream',
    });
    assert.deepEqual(parseSuppression('<!-- skeptic-ignore F1: generated docs -->'), {
      rules: ['F1'],
      reason: 'generated docs',
    });
    assert.deepEqual(parseSuppression('// skeptic-ignore: whole line is intentional'), {
      rules: [],
      reason: 'whole line is intentional',
    });
  });

  it('ignore text that is not a comment directive', () => {
    assert.equal(parseSuppression('const skepticIgnore = 1;'), null);
    assert.equal(parseSuppression('call("skeptic-ignore A1")'), null);
    assert.equal(parseSuppression('// skeptic-ignored A1'), null);
    assert.equal(parseSuppression('// skeptic-ignore A1 (why): bad id list'), null);
  });

  it('cover the finding on the same line or the line above, for the rules named', () => {
    const lines = [
      '// skeptic-ignore A1: checked',
      'a[i] = 1;',
      'b[i] = 2; // skeptic-ignore A5',
      'c();',
      '// skeptic-ignore: all rules',
      'd();',
    ];
    assert.ok(suppressionAt(lines, 2, 'A1'), 'the comment above');
    assert.equal(suppressionAt(lines, 2, 'A5'), null, 'another rule');
    assert.ok(suppressionAt(lines, 3, 'a5'), 'the same line, any case');
    assert.equal(suppressionAt(lines, 4, 'A1'), null, 'two lines below the comment is not covered');
    assert.equal(suppressionAt(lines, 4, 'A5'), null, 'a comment after code covers only its own line');
    assert.ok(suppressionAt(lines, 6, 'G3'), 'no rule ids: every rule');
    assert.equal(suppressionAt(lines, 99, 'A1'), null);
  });

  it('takes the directive off a line for its fingerprint, and leaves any other line as it is', () => {
    assert.equal(withoutDirective('  for (;;) { // skeptic-ignore'), '  for (;;) {');
    assert.equal(withoutDirective('x = 1  # skeptic-ignore A1: why'), 'x = 1');
    assert.equal(withoutDirective('a(); /* skeptic-ignore A1 */'), 'a();');
    assert.equal(withoutDirective('// skeptic-ignore-not a directive'), '// skeptic-ignore-not a directive');
    assert.equal(withoutDirective('const s = "// a comment"; // keep'), 'const s = "// a comment"; // keep');
  });
});
