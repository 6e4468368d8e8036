/** What --min-priority left out, as the reports' notes and the --json outputs say it (both modes). */
import { z } from 'zod';
import type { RunAccounting } from '../model/events';
import { describeBelowMinPriority, type BelowMinPriority } from '../model/order';
import { Priority } from '../model/records';

export function belowMinPriorityNote(result: RunAccounting): string[] {
  const text = describeBelowMinPriority(result.belowMinPriority);
  return text ? [`- ${text}; --json lists them under below_min_priority.`] : [];
}

/** `below_min_priority` in --json: null without a floor; else the floor, how many, and the findings themselves. */
export const BelowMinPriorityJson = <F extends z.ZodTypeAny>(finding: F) =>
  z.object({ min_priority: Priority, count: z.number().int().min(0), findings: z.array(finding) }).nullable();

export function belowJson<F>(below: BelowMinPriority | undefined, findings: F[]) {
  return below ? { min_priority: below.min, count: findings.length, findings } : null;
}
