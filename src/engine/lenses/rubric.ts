/**
 * Rubric marking. A rubric is a markdown checklist; the criteria assigned to the code reviewer are the
 * task items that say `Evaluator: skeptic` (or `code-reviewer`, optionally `sw:`-prefixed, as in the
 * seed's rubrics). Each passes when the review kept no CRITICAL, HIGH or MEDIUM finding, and fails
 * with the counts otherwise. The user's file is never edited: the report carries the marked criteria.
 */
import type { RubricCriterion, RubricResult, SeverityCounts } from '../../model/lens';

const ITEM = /^(\s*[-*+]\s+)\[[ xX!]\]\s*(.*)$/;
const ASSIGNED = /\bEvaluator:\s*(?:sw:)?(?:skeptic|code-reviewer)\b/i;
/** A mark left by an earlier run, so marking twice does not stack. */
const EARLIER_MARK = /^(?:PASS|FAIL(?: \u2014 [^\u2014]*findings)?) \u2014 /;

export function markRubric(path: string, text: string, counts: SeverityCounts): RubricResult {
  const pass = counts.critical + counts.high + counts.medium === 0;
  const verdict = pass ? 'PASS' : `FAIL — ${failCounts(counts)}`;
  const criteria: RubricCriterion[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const m = ITEM.exec(raw);
    if (!m || !ASSIGNED.test(m[2]!)) return;
    const body = m[2]!.replace(EARLIER_MARK, '');
    criteria.push({
      line: i + 1,
      text: body,
      status: pass ? 'PASS' : 'FAIL',
      marked: `${m[1]}[${pass ? 'x' : '!'}] ${verdict} — ${body}`,
    });
  });
  const passed = criteria.filter((c) => c.status === 'PASS').length;
  return { path, criteria, passed, failed: criteria.length - passed };
}

/** "N critical, M high findings", plus the medium count when there are any (they fail a criterion too). */
function failCounts(c: SeverityCounts): string {
  return `${c.critical} critical, ${c.high} high${c.medium ? `, ${c.medium} medium` : ''} findings`;
}
