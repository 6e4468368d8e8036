/**
 * The deterministic side of lens mode: the self-critique floor, the change filter, merging findings that
 * several reviewers raised at one file:line (the mapping to the shared Finding type is model/lens.ts).
 */
import { isSevere, SEVERITY_RANK, sortLensFindings, type MergedFinding, type RaisedFinding } from '../../model/lens';
import { overlaps, type LineRange } from '../../model/lines';
import { MIN_CONFIDENCE, type LensFinding } from '../../model/lensRecords';
import { judgeEach } from '../../model/filter';
import { dropNoise, type NoiseRules } from '../noise';

/** The self-critique floor: findings below confidence 3 are dropped and counted, not treated as an error. */
export function applyConfidenceFloor(findings: LensFinding[]): { kept: LensFinding[]; dropped: number } {
  const kept = findings.filter((f) => f.confidence >= MIN_CONFIDENCE);
  return { kept, dropped: findings.length - kept.length };
}

/**
 * In a change review, findings belong on changed lines. Off them, CRITICAL and HIGH stay, marked
 * pre-existing; the rest are dropped and counted. `changed` undefined: a path scope, everything stays.
 */
export function keepOnChange(
  findings: MergedFinding[],
  changed: Map<string, LineRange[]> | undefined,
): { kept: MergedFinding[]; dropped: number } {
  if (!changed) return { kept: findings, dropped: 0 };
  const { kept, dropped } = judgeEach<MergedFinding, MergedFinding>((f) => {
    if (overlaps([f.line, f.line], changed.get(f.file) ?? [])) return { keep: f };
    return isSevere(f.severity) ? { keep: { ...f, preExisting: true } } : { drop: f };
  })(findings);
  return { kept, dropped: dropped.length };
}

/**
 * A reviewer's own findings past the self-critique floor and then the noise rules: what stays, how many fell
 * below the floor, and the category of each one the noise rules removed.
 */
export function screenFindings(
  findings: LensFinding[],
  rules: NoiseRules,
): { kept: LensFinding[]; lowConfidence: number; noise: string[] } {
  const floor = applyConfidenceFloor(findings);
  const noise = dropNoise<LensFinding>(rules)(floor.kept);
  return {
    kept: noise.kept,
    lowConfidence: floor.dropped,
    noise: noise.dropped.map((d) => String(d.finding.category)),
  };
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
  return sortLensFindings(
    [...groups.values()].map((group) => {
      const ordered = [...group].sort(
        (a, b) =>
          SEVERITY_RANK[b.finding.severity] - SEVERITY_RANK[a.finding.severity] ||
          b.finding.confidence - a.finding.confidence,
      );
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
