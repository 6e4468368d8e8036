/**
 * --min-priority (skeptic.minPriority): findings below the floor leave the result's findings, and so the
 * summary, the report, --json `findings`, SARIF and the Problems panel; the result keeps them apart
 * (`belowMinPriority`) so the report's notes and --json count what was left out.
 */
import type { EmitFn, ReviewResult } from '../model/events';
import type { Finding } from '../model/finding';
import { toFinding, type MergedFinding } from '../model/lens';
import { meetsPriority } from '../model/order';
import type { Priority } from '../model/records';

/** The run's finding events without those below the floor. */
export function floorEvents(emit: EmitFn, min: Priority | undefined): EmitFn {
  if (!min) return emit;
  return (e) => (e.type === 'finding' && !meetsPriority(e.finding.priority, min) ? undefined : emit(e));
}

/** The result with its findings below `min` moved apart; unchanged without a floor. */
export function applyPriorityFloor<R extends ReviewResult>(result: R, min: Priority | undefined): R {
  if (!min) return result;
  const meets = (f: Finding) => meetsPriority(f.priority, min);
  const below = { min, findings: result.findings.filter((f) => !meets(f)) };
  const findings = result.findings.filter(meets);
  if (result.mode === 'lenses') {
    const lensMeets = (m: MergedFinding) => meets(toFinding(m));
    const lens = [...result.lensFindings, ...result.crossRepo].filter((m) => !lensMeets(m));
    const lensFindings = result.lensFindings.filter(lensMeets);
    const crossRepo = result.crossRepo.filter(lensMeets);
    return { ...result, findings, lensFindings, crossRepo, belowMinPriority: { ...below, lens } };
  }
  return { ...result, findings, belowMinPriority: below };
}
