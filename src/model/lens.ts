/**
 * Lens mode's shared shapes: merged findings (and the shared Finding each becomes), severity order and
 * counts, and the rubric, routing and validation summaries a lens result carries to the reports.
 */
import type { Confidence, Priority } from './records';
import { MIN_CONFIDENCE, SEVERITIES, type LensFinding, type Severity } from './lensRecords';
import type { Finding } from './finding';
import { CROSS_REPO, type ReviewerName } from './reviewers';

export type Validated = true | false | 'timeout';

/** A finding after merging: who raised it, and what validation made of it. */
export interface MergedFinding extends LensFinding {
  reviewers: string[];
  /** The repository (cwd-relative path) in a multi-repo run; null otherwise. */
  repository: string | null;
  /** Full fan-out: the validator's outcome, for the CRITICAL/HIGH findings it checked. */
  validated?: Validated;
  validationReason?: string;
  /** Severity before a validator rejected the finding (it is INFO now). */
  originalSeverity?: Severity;
  /** Change scopes: a CRITICAL/HIGH problem on lines the change did not touch. */
  preExisting?: boolean;
}

/** A reviewer's finding with where it came from, before merging. */
export interface RaisedFinding {
  reviewer: string;
  repository: string | null;
  finding: LensFinding;
}

export type SeverityCounts = Record<Lowercase<Severity>, number>;

export const SEVERITY_RANK: Record<Severity, number> = { CRITICAL: 5, HIGH: 4, MEDIUM: 3, LOW: 2, INFO: 1 };

export const isSevere = (s: Severity) => s === 'CRITICAL' || s === 'HIGH';

/** Report order: severity, then file, then line. */
export function sortLensFindings<T extends LensFinding>(findings: T[]): T[] {
  return [...findings].sort(
    (a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || a.file.localeCompare(b.file) || a.line - b.line,
  );
}

export function severityCounts(findings: Pick<LensFinding, 'severity'>[]): SeverityCounts {
  const counts = Object.fromEntries(SEVERITIES.map((s) => [s.toLowerCase(), 0])) as SeverityCounts;
  for (const f of findings) counts[f.severity.toLowerCase() as Lowercase<Severity>]++;
  return counts;
}

export function priorityOf(severity: Severity): Priority {
  return isSevere(severity) ? 'must_fix' : severity === 'MEDIUM' ? 'should_fix' : 'nice_to_have';
}

export function confidenceOf(score: number): Confidence {
  return score >= 4 ? 'high' : score >= MIN_CONFIDENCE ? 'medium' : 'low';
}

/** The shared Finding every surface (diagnostics, JSON) is built from; the rule id is the reviewer that led. */
export function toFinding(f: MergedFinding): Finding {
  return {
    file: f.file,
    line: f.line,
    locations: [{ file: f.file, line: f.line }],
    rule_id: f.reviewers[0] ?? 'lens',
    priority: priorityOf(f.severity),
    confidence: confidenceOf(f.confidence),
    function: null,
    action: f.recommendation,
    rationale: `${f.title.trim().replace(/\.$/, '')}: ${f.evidence}`,
    source: f.reviewers.includes(CROSS_REPO) ? 'cross_repo' : 'lens',
    category: f.category ?? null,
    ...(f.repository ? { repository: f.repository } : {}),
    ...(f.preExisting ? { pre_existing: true } : {}),
  };
}

export type RubricStatus = 'PASS' | 'FAIL';

export interface RubricCriterion {
  /** 1-based line in the rubric file. */
  line: number;
  /** The criterion's text, without its checkbox or an earlier mark. */
  text: string;
  status: RubricStatus;
  /** The line as marked: `- [x] PASS — …` or `- [!] FAIL — N critical, M high findings — …`. */
  marked: string;
}

export interface RubricResult {
  path: string;
  criteria: RubricCriterion[];
  passed: number;
  failed: number;
}

export interface ValidationSummary {
  performed: boolean;
  preValidation: { critical: number; high: number };
  postValidation: { critical: number; high: number };
  rejected: number;
  /** Validators that failed or timed out: their findings kept their severity. */
  timeouts: number;
}

export interface RoutingDecision {
  reviewer: ReviewerName;
  routed: boolean;
  reason: string;
}
