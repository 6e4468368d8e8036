/** Step 4: a fresh sub-agent defends the file against its findings; it may only disqualify or downgrade. */
import { intentPacket } from '../../model/intent';
import { ChallengeResult, type FileAnalysis } from '../../model/records';
import type { Finding } from '../../model/finding';
import type { FileCall, FileUnderReview, StageSetup } from './context';
import { stepRule } from './fileRules';
import type { LineRange } from '../../model/lines';
import { isDowngrade } from '../../model/order';

/** The request of Step 4 (the run's and the forecast's). */
export function challengeCall(
  ctx: StageSetup,
  file: FileUnderReview,
  analysis: FileAnalysis,
  findings: Finding[],
): FileCall<ChallengeResult> {
  const packet = {
    file_path: file.entry.path,
    companion_path: file.entry.companion_path,
    brutal_one_line: analysis.brutal_one_line,
    invariants: analysis.invariants,
    findings: findings.map((f) => ({
      rule_id: f.rule_id,
      function_qualified_name: f.function,
      line: f.line,
      location: citedPlace(f),
      ...functionLines(analysis, f),
      action: f.action,
      rationale: f.rationale,
      confidence: f.confidence,
      priority: f.priority,
    })),
    ...(ctx.dismissalExamples.length ? { team_dismissed: ctx.dismissalExamples } : {}),
    ...intentPacket(file.intent),
  };
  return {
    label: `Step 4 challenge ${file.entry.path}`,
    record: ChallengeResult,
    packet,
    ...(packet.intent ? { rule: stepRule('intent-challenge') } : {}),
    check: (r) => checkChallenge(r, findings),
    // Sent only when the file goes as an outline, which it may start to do at this step (fit.ts).
    excerpt: findingContext(analysis, findings, file.primary.lines.length),
  };
}

/** Where the finding points, as the rules spell it: `path:line`, `path:start-end`, or `file-wide` (whose `line` is only 1). */
function citedPlace(f: Finding): string {
  if (f.file_wide) return 'file-wide';
  return f.end_line && f.end_line > f.line ? `${f.file}:${f.line}-${f.end_line}` : `${f.file}:${f.line}`;
}

/** A function-level finding's function, as the lines the challenger reads in full. */
function functionLines(analysis: FileAnalysis, f: Finding): { function_lines?: LineRange } {
  const fn = f.function === null ? undefined : analysis.functions.find((r) => r.qualified_name === f.function);
  return fn?.end_line ? { function_lines: [fn.start_line, fn.end_line] } : {};
}

/** For a file sent as an outline: each finding's function in full, or the lines around a file-level finding. */
function findingContext(analysis: FileAnalysis, findings: Finding[], lineCount: number): LineRange[] {
  const ranges = findings.map(
    (f): LineRange =>
      functionLines(analysis, f).function_lines ??
      (f.end_line ? [f.line, f.end_line] : [Math.max(1, f.line - 10), Math.min(lineCount, f.line + 10)]),
  );
  const merged: LineRange[] = [];
  for (const r of ranges.sort((a, b) => a[0] - b[0])) {
    const last = merged.at(-1);
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else merged.push([...r]);
  }
  return merged;
}

/** One ruling per finding, in input order, echoing its rule and line; a revised priority may only be lower. */
export function checkChallenge(result: ChallengeResult, findings: Finding[]): string[] {
  if (result.challenges.length !== findings.length) {
    return [
      `challenges has ${result.challenges.length} entries; it needs exactly one per finding, ${findings.length}, in the same order`,
    ];
  }
  return result.challenges.flatMap((c, i) => {
    const f = findings[i]!;
    const errors: string[] = [];
    if (c.rule_id !== f.rule_id || c.line !== f.line) {
      errors.push(
        `challenges.${i} answers ${c.rule_id} at line ${c.line}, but finding ${i} is ${f.rule_id} at line ${f.line}; keep the input order`,
      );
    }
    if (
      c.survived &&
      c.revised_priority &&
      c.revised_priority !== f.priority &&
      !isDowngrade(f.priority, c.revised_priority)
    ) {
      errors.push(
        `challenges.${i}: revised_priority ${c.revised_priority} is higher than ${f.priority}; a challenge may only downgrade`,
      );
    }
    return errors;
  });
}
