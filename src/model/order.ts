/** Priority order, shared by the filters that downgrade findings and by every surface that sorts them. */
import type { Finding } from './finding';
import type { MergedFinding } from './lens';
import type { Priority } from './records';

const RANK: Record<Priority, number> = { must_fix: 3, should_fix: 2, nice_to_have: 1 };

export const PRIORITY_ORDER: Priority[] = ['must_fix', 'should_fix', 'nice_to_have'];

/** Whether a priority is at `min` or above: the one rule of --min-priority, the MCP tools' min_priority and eval's cuts. */
export function meetsPriority(p: Priority, min?: Priority): boolean {
  return !min || RANK[p] >= RANK[min];
}

/** The items of `min` priority or higher (all without one). */
export function atLeast<T extends { priority: Priority }>(items: T[], min?: Priority): T[] {
  return min ? items.filter((f) => meetsPriority(f.priority, min)) : items;
}

/** Findings a run's --min-priority left out of what it shows and posts (counted, never silently lost). */
export interface BelowMinPriority {
  min: Priority;
  findings: Finding[];
  /** Lens mode: the same findings as the lens records its --json lists. */
  lens?: MergedFinding[];
}

/** The notes' and the summary's words for them; null when none were left out. */
export function describeBelowMinPriority(below: BelowMinPriority | undefined): string | null {
  if (!below?.findings.length) return null;
  const n = below.findings.length;
  return `${n} finding${n === 1 ? '' : 's'} below ${below.min} left out (--min-priority ${below.min})`;
}

export function isDowngrade(from: Priority, to: Priority): boolean {
  return RANK[to] < RANK[from];
}

/** Report order: priority, then file, then line. */
export function sortFindings(findings: Finding[]): Finding[] {
  return [...findings].sort(
    (a, b) => RANK[b.priority] - RANK[a.priority] || a.file.localeCompare(b.file) || a.line - b.line,
  );
}
