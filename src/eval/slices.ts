/** The priority cuts an evaluation scores from one set of judgements: what a posting threshold would keep. */
import type { Priority } from '../model/records';
import { meetsPriority } from '../model/order';

/** From everything to must-fix alone; each cut keeps the findings at or above its priority. */
export const PRIORITY_CUTS = ['nice_to_have', 'should_fix', 'must_fix'] as const satisfies readonly Priority[];
export type PriorityCut = (typeof PRIORITY_CUTS)[number];

export const priorityCut =
  (min: PriorityCut) =>
  (p: Priority): boolean =>
    meetsPriority(p, min);
