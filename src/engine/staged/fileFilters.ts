/**
 * The filters a file's findings pass before and after its challenge, and the ones Step 5's cross-file findings
 * pass: out of their rule's scope, noise, and, in a diff review, what the change may not report.
 */
import type { FilteredFinding, Finding, FindingFilter } from '../../model/finding';
import { chain, judgeEach, keepAll, type Filtered } from '../../model/filter';
import type { LineRange } from '../../model/lines';
import type { ChallengeResult, ContextFile, FileAnalysis, PerFunctionReview, Step1Record } from '../../model/records';
import { dropNoise, noiseRules } from '../noise';
import { keepChanged } from './diffScope';
import { applyChallenge, findingFromFileRule, findingsFromReview, tiebreak } from './filters';

/** What the filters read of the run's request (StagedRequest's fields of these names). */
export interface FilterRequest {
  /** For a diff review: each file's changed line ranges. */
  changedRanges?: Map<string, LineRange[]>;
  /** The project context files, which may name more categories that are never a finding. */
  context: ContextFile[];
}

/**
 * The findings that go to the challenge: Step 2's file-level and Step 3's function findings, without those
 * out of their rule's scope and, in a diff review, those the change may not report.
 */
export function findingsToChallenge(
  req: FilterRequest,
  step1: Step1Record,
  analysis: FileAnalysis,
  reviews: PerFunctionReview[],
): Filtered<Finding, FilteredFinding> {
  const path = analysis.file_path;
  const raw = [
    ...analysis.file_level_findings.map((f) => findingFromFileRule(f, path)),
    ...reviews.flatMap((r) => findingsFromReview(r, path)),
  ];
  return chain(dropOutOfScope(step1), dropNoiseFindings(req), onlyChanged(req))(raw);
}

/** The file's findings after its challenge (none: kept as they are), the tiebreaker and, in a diff review, the change. */
export function afterChallenge(
  req: Pick<FilterRequest, 'changedRanges'>,
  survivors: Finding[],
  ruling: ChallengeResult | undefined,
): Filtered<Finding, FilteredFinding> {
  const challenged: FindingFilter = ruling ? (findings) => applyChallenge(findings, ruling) : keepAll;
  // Again after the tiebreaker: a pre-existing must_fix it demoted no longer qualifies.
  return chain(challenged, tiebreak, onlyChanged(req))(survivors);
}

/** In a diff review, the findings a change may report; all of them otherwise. */
export function onlyChanged(req: Pick<FilterRequest, 'changedRanges'>): FindingFilter {
  const changed = req.changedRanges;
  return changed ? (findings) => keepChanged(findings, (path) => changed.get(path)) : keepAll;
}

/** Findings labelled with a category that is never a finding (prompts/noise.md), removed with their reason. */
export function dropNoiseFindings(req: Pick<FilterRequest, 'context'>): FindingFilter {
  const noise = dropNoise<Finding>(noiseRules(req.context));
  return (findings) => {
    const { kept, dropped } = noise(findings);
    return { kept, dropped: dropped.map((d) => ({ ...d, stage: 'noise' })) };
  };
}

/**
 * Where Step 1 saw no concurrency, an A7 nice-to-have is out of scope and dropped, with its reason. A must-fix
 * or should-fix A7 stays for the challenger: Step 1 judged the file before anyone read its functions, and a
 * function's read-modify-write of a row, check-then-act or un-awaited call (what A7 applies to even then,
 * prompts/rules-function.md) is a defect its reviewer saw and Step 1 did not.
 */
function dropOutOfScope(step1: Step1Record): FindingFilter {
  if (step1.concurrency_present) return keepAll;
  const reason = 'an A7 nice-to-have applies only where concurrency is present';
  return judgeEach<Finding, FilteredFinding>((finding) =>
    finding.rule_id === 'A7' && finding.priority === 'nice_to_have'
      ? { drop: { finding, stage: 'rule_scope', reason } }
      : { keep: finding },
  );
}
