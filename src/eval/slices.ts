/** The priority cuts an evaluation scores from one set of judgements: what a posting threshold would keep. */
import type { Priority } from '../model/records';

/** From everything to must-fix alone; each cut keeps the findings at or above its priority. */
export const PRIORITY_CUTS = ['nice_to_have', 'should_fix', 'must_fix'] as const satisfies readonly Priority[];
export type PriorityCut = (typeof PRIORITY_CUTS)[number];

const RANK: Record<Priority, number> = { must_fix: 0, should_fix: 1, nice_to_have: 2 };

export const priorityCut =
  (min: PriorityCut) =>
  (p: Priority): boolean =>
    RANK[p] <= RANK[min];
