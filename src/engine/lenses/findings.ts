/**
 * The deterministic side of lens mode: the self-critique floor, the change filter, merging findings that
 * several reviewers raised at one file:line, and the mapping to the shared Finding type.
 */
import type { Confidence, Priority } from '../records';
import type { LineRange } from '../staged/context';
import { overlaps } from '../staged/diffScope';
import type { Finding } from '../types';
import { MIN_CONFIDENCE, SEVERITIES, type LensFinding, type Severity } from './records';
import { CROSS_REPO } from './reviewers';

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

/** The self-critique floor: findings below confidence 3 are dropped and counted, not treated as an error. */
export function applyConfidenceFloor(findings: LensFinding[]): { kept: LensFinding[]; dropped: number } {
  const kept = findings.filter((f) => f.confidence >= MIN_CONFIDENCE);
  return { kept, dropped: findings.length - kept.length };
}

/**
 * In a change review, findings belong on changed lines. Off them, CRITICAL and HIGH stay, marked
 * pre-existing; the rest are dropped and counted. `changed` undefined: a path scope, everything stays.
 */
export function keepOnChange(findings: MergedFinding[], changed: Map<string, LineRange[]> | undefined): { kept: MergedFinding[]; dropped: number } {
  if (!changed) return { kept: findings, dropped: 0 };
  const kept: MergedFinding[] = [];
  for (const f of findings) {
    if (overlaps([f.line, f.line], changed.get(f.file) ?? [])) kept.push(f);
    else if (isSevere(f.severity)) kept.push({ ...f, preExisting: true });
  }
  return { kept, dropped: findings.length - kept.length };
}

/**
 * One finding per file:line: the highest severity and confidence, every reviewer that raised it, and the
 * descriptions of each perspective (labelled by reviewer when they differ).
 */
export function mergeFindings(raised: RaisedFinding[]): MergedFinding[] {
  const groups = new Map<string, RaisedFinding[]>();
  for (const r of raised) {
    const key = `${r.finding.file}:${r.finding.line}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return sortFindings(
    [...groups.values()].map((group) => {
      const ordered = [...group].sort((a, b) => SEVERITY_RANK[b.finding.severity] - SEVERITY_RANK[a.finding.severity] || b.finding.confidence - a.finding.confidence);
      const top = ordered[0]!;
      return {
        ...top.finding,
        confidence: Math.max(...group.map((r) => r.finding.confidence)),
        evidence: combine(ordered, (f) => f.evidence),
        recommendation: combine(ordered, (f) => f.recommendation),
        reviewers: [...new Set(ordered.map((r) => r.reviewer))],
        repository: top.repository,
      };
    }),
  );
}

function combine(group: RaisedFinding[], text: (f: LensFinding) => string): string {
  const distinct: Array<[string, string]> = [];
  for (const r of group) {
    const t = text(r.finding).trim();
    if (!distinct.some(([, seen]) => seen === t)) distinct.push([r.reviewer, t]);
  }
  if (distinct.length === 1) return distinct[0]![1];
  return distinct.map(([reviewer, t]) => `(${reviewer}) ${t}`).join(' ');
}

/** Report order: severity, then file, then line. */
export function sortFindings<T extends LensFinding>(findings: T[]): T[] {
  return [...findings].sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || a.file.localeCompare(b.file) || a.line - b.line);
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
    locations: [`${f.file}:${f.line}`],
    rule_id: f.reviewers[0] ?? 'lens',
    priority: priorityOf(f.severity),
    confidence: confidenceOf(f.confidence),
    function: null,
    action: f.recommendation,
    rationale: `${f.title.trim().replace(/\.$/, '')}: ${f.evidence}`,
    source: f.reviewers.includes(CROSS_REPO) ? 'cross_repo' : 'lens',
    ...(f.repository ? { repository: f.repository } : {}),
    ...(f.preExisting ? { pre_existing: true } : {}),
  };
}
