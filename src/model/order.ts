/** Priority order, shared by the filters that downgrade findings and by every surface that sorts them. */
import type { Finding } from './finding';
import type { Priority } from './records';

const RANK: Record<Priority, number> = { must_fix: 3, should_fix: 2, nice_to_have: 1 };

export const PRIORITY_ORDER: Priority[] = ['must_fix', 'should_fix', 'nice_to_have'];

export function isDowngrade(from: Priority, to: Priority): boolean {
  return RANK[to] < RANK[from];
}

/** Report order: priority, then file, then line. */
export function sortFindings(findings: Finding[]): Finding[] {
  return [...findings].sort(
    (a, b) => RANK[b.priority] - RANK[a.priority] || a.file.localeCompare(b.file) || a.line - b.line,
  );
}
