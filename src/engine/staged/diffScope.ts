/**
 * Diff-aware review: which functions a change touches, and which findings it may report. Steps 1–2 see
 * the whole file; Step 3 reviews only functions whose lines overlap a change; a finding off the changed
 * lines survives only as must_fix, marked pre-existing.
 */
import type { FunctionRow } from '../../model/records';
import type { FilteredFinding, Finding } from '../../model/finding';
import { overlaps, type LineRange } from '../../model/lines';
import { judgeEach, type Filtered } from '../../model/filter';

/** What locating a function needs: an analysis row, or an inventory entry from the parser. */
type Located = Pick<FunctionRow, 'qualified_name' | 'start_line' | 'end_line'>;

/** Each function's lines: its `end_line` where known (the parser's, exact), else up to the next function's start. */
export function functionRanges(functions: Located[], lineCount: number): Map<string, LineRange> {
  const starts = [...new Set(functions.map((f) => f.start_line))].sort((a, b) => a - b);
  const nextStart = (line: number) => starts.find((s) => s > line) ?? lineCount + 1;
  return new Map(
    functions.map((f) => {
      const end = f.end_line && f.end_line >= f.start_line ? f.end_line : nextStart(f.start_line) - 1;
      return [f.qualified_name, [f.start_line, Math.max(f.start_line, end)] as LineRange];
    }),
  );
}

export function functionsTouched<T extends Located>(functions: T[], lineCount: number, changed: LineRange[]): T[] {
  const ranges = functionRanges(functions, lineCount);
  return functions.filter((f) => overlaps(ranges.get(f.qualified_name)!, changed));
}

/**
 * Keeps findings on changed lines; a must_fix elsewhere stays, marked pre-existing; the rest are dropped.
 * `changedIn` gives a file's changed ranges (undefined: the file is not part of the change).
 */
export function keepChanged(
  findings: Finding[],
  changedIn: (file: string) => LineRange[] | undefined,
): Filtered<Finding, FilteredFinding> {
  return judgeEach<Finding, FilteredFinding>((f) => {
    const onChange = f.locations.some((loc) => {
      const ranges = changedIn(loc.file);
      return ranges !== undefined && overlaps([loc.line, loc.endLine ?? loc.line], ranges);
    });
    if (onChange) return { keep: f };
    if (f.priority === 'must_fix') return { keep: { ...f, pre_existing: true } };
    return { drop: { finding: f, stage: 'diff_scope', reason: 'not on a changed line' } };
  })(findings);
}
