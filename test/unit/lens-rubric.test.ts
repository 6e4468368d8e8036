import assert from 'node:assert/strict';
import { markRubric } from '../../src/engine/lenses/rubric';

const RUBRIC = [
  '# Rubric',
  '- [ ] Cart totals are exact (Evaluator: skeptic)',
  '- [ ] Docs updated (Evaluator: human)',
  '  * [ ] No injection paths — Evaluator: sw:code-reviewer',
  '- [x] PASS — Old mark is replaced (Evaluator: code-reviewer)',
  'Evaluator: skeptic, but not a checklist item',
].join('\n');
const none = { critical: 0, high: 0, medium: 0, low: 3, info: 1 };

describe('rubric marking', () => {
  it('passes the criteria assigned to the code reviewer when nothing is MEDIUM or worse', () => {
    const r = markRubric('rubric.md', RUBRIC, none);
    assert.deepEqual(
      r.criteria.map((c) => c.line),
      [2, 4, 5],
    );
    assert.equal(r.passed, 3);
    assert.equal(r.failed, 0);
    assert.equal(r.criteria[0]!.marked, '- [x] PASS — Cart totals are exact (Evaluator: skeptic)');
    assert.equal(r.criteria[1]!.marked, '  * [x] PASS — No injection paths — Evaluator: sw:code-reviewer');
    assert.equal(r.criteria[2]!.marked, '- [x] PASS — Old mark is replaced (Evaluator: code-reviewer)');
  });

  it('fails them with the counts otherwise', () => {
    const r = markRubric('rubric.md', RUBRIC, { ...none, critical: 1, high: 2 });
    assert.equal(r.failed, 3);
    assert.equal(
      r.criteria[0]!.marked,
      '- [!] FAIL — 1 critical, 2 high findings — Cart totals are exact (Evaluator: skeptic)',
    );
    const medium = markRubric('rubric.md', RUBRIC, { ...none, medium: 2 });
    assert.equal(medium.criteria[0]!.status, 'FAIL');
    assert.match(medium.criteria[0]!.marked, /FAIL — 0 critical, 0 high, 2 medium findings — /);
    assert.equal(
      markRubric('r.md', '- [!] FAIL — 1 critical, 0 high findings — X (Evaluator: skeptic)', none).criteria[0]!.text,
      'X (Evaluator: skeptic)',
    );
  });
});
