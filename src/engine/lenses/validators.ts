/**
 * Full fan-out: an independent validator per CRITICAL/HIGH finding (at most ten, most severe first) on
 * the small model. VALIDATED keeps the finding, REJECTED demotes it to INFO, and a validator that
 * fails or times out leaves it as it was, marked "timeout".
 */
import type { UnitOutcome } from '../unit';
import { isSevere, SEVERITY_RANK, severityCounts, type MergedFinding, type ValidationSummary } from '../../model/lens';
import type { LensValidation } from '../../model/lensRecords';

export const MAX_VALIDATORS = 10;

/** The findings that get a validator: CRITICAL before HIGH, surer ones first, at most ten. */
export function pickForValidation(findings: MergedFinding[]): MergedFinding[] {
  return findings
    .filter((f) => isSevere(f.severity))
    .sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || b.confidence - a.confidence)
    .slice(0, MAX_VALIDATORS);
}

export function applyValidation(finding: MergedFinding, outcome: UnitOutcome<LensValidation>): MergedFinding {
  if (!outcome.ok) return { ...finding, validated: 'timeout', validationReason: outcome.reason };
  const { verdict, reason } = outcome.value;
  if (verdict === 'VALIDATED') return { ...finding, validated: true, validationReason: reason };
  return {
    ...finding,
    validated: false,
    validationReason: reason,
    originalSeverity: finding.severity,
    severity: 'INFO',
  };
}

export function summarizeValidation(
  before: MergedFinding[],
  after: MergedFinding[],
  performed: boolean,
): ValidationSummary {
  const pick = (fs: MergedFinding[]) => {
    const c = severityCounts(fs);
    return { critical: c.critical, high: c.high };
  };
  return {
    performed,
    preValidation: pick(before),
    postValidation: pick(after),
    rejected: after.filter((f) => f.validated === false).length,
    timeouts: after.filter((f) => f.validated === 'timeout').length,
  };
}
