/**
 * The deterministic parts of the staged pipeline's noise control: turning verdicts into findings,
 * applying the challenger's rulings, and the confidence tiebreaker. Every removal is recorded.
 */
import type { ChallengeResult, Confidence, FileLevelFinding, PerFunctionReview, Priority } from '../../model/records';
import type { Finding, FilteredFinding, FindingFilter, FindingSource } from '../../model/finding';
import { judgeEach, type Filtered } from '../../model/filter';
import { parseLocation } from '../../model/location';
import { isDowngrade } from '../../model/order';
import type { Category } from '../../model/categories';

/** Non-clean verdicts become findings: a flag is must_fix, an advisory keeps its priority. */
export function findingsFromReview(review: PerFunctionReview, file: string): Finding[] {
  return review.verdicts.flatMap((v): Finding[] => {
    if (v.verdict !== 'flag' && v.verdict !== 'advisory') return [];
    const line = v.line ?? review.start_line;
    return [
      {
        file,
        line,
        locations: [{ file, line }],
        rule_id: v.rule_id,
        priority: v.verdict === 'flag' ? 'must_fix' : (v.priority ?? 'nice_to_have'),
        confidence: v.confidence,
        function: review.function_qualified_name,
        action: v.action ?? '',
        rationale: v.rationale ?? '',
        source: 'function_rule',
        category: v.category ?? null,
      },
    ];
  });
}

/** A file-level finding's `location` as a finding: "path:line", "path:start-end" or "file-wide". */
export function findingFromFileRule(f: FileLevelFinding, file: string): Finding {
  const parsed = parseLocation(f.location);
  const at = parsed?.path ?? file; // the analysis check admits only the file or its companion
  const line = parsed?.line ?? 1; // "file-wide" findings point at the top of the file
  const end = parsed?.end ? { end_line: parsed.end } : {};
  return {
    ...ruleFinding(f, 'file_rule'),
    file: at,
    line,
    ...end,
    ...(parsed ? {} : { file_wide: true }),
    locations: [{ file: at, line, ...(parsed?.end ? { endLine: parsed.end } : {}) }],
  };
}

/** What a file-level or cross-file rule's record says, as a Finding's fields; the caller places it. */
export function ruleFinding(
  f: {
    rule_id: string;
    priority: Priority;
    confidence: Confidence;
    action: string;
    rationale: string;
    category?: Category | null;
  },
  source: FindingSource,
) {
  return {
    rule_id: f.rule_id,
    priority: f.priority,
    confidence: f.confidence,
    function: null,
    action: f.action,
    rationale: f.rationale,
    source,
    category: f.category ?? null,
  };
}

/** Applies a ChallengeResult answered finding-by-finding in input order (the check guarantees the order). */
export function applyChallenge(findings: Finding[], result: ChallengeResult): Filtered<Finding, FilteredFinding> {
  return judgeEach<Finding, FilteredFinding>((finding, i) => {
    const ruling = result.challenges[i]!;
    if (!ruling.survived) return { drop: { finding, stage: 'challenge', reason: ruling.challenge_reason } };
    const revised = ruling.revised_priority;
    const verdict = ruling.challenge_reason.trim();
    return {
      keep: {
        ...finding,
        ...(revised && isDowngrade(finding.priority, revised) ? { priority: revised } : {}),
        ...(verdict ? { verdict } : {}),
      },
    };
  })(findings);
}

/**
 * The confidence tiebreaker: low confidence demotes must_fix to should_fix and drops should_fix and
 * nice_to_have; high and medium confidence change nothing.
 */
export const tiebreak: FindingFilter = judgeEach<Finding, FilteredFinding>((f) => {
  if (f.confidence !== 'low') return { keep: f };
  if (f.priority === 'must_fix') return { keep: { ...f, priority: 'should_fix' } };
  return { drop: { finding: f, stage: 'tiebreaker', reason: `${f.priority} with low confidence` } };
});
