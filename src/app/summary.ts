/**
 * A finished run's summary, the one place it is made: the figures the extension shows and the lines the
 * CLI prints (and the extension logs), from either mode's result.
 */
import type { LensResult, ReviewResult, StagedResult } from '../model/events';
import { plural } from '../model/plural';
import { describeBatchRun, describeCost } from '../model/pricing';
import { addedByChangeLines, describeSuppressed } from '../model/suppressed';
import { describeBelowMinPriority } from '../model/order';
import type { RunSummary } from './protocol';

export function summarize(result: ReviewResult): RunSummary {
  const suppressed = describeSuppressed(result.suppressed);
  return {
    findings: result.findings.length,
    calls: result.usage.calls,
    costUsd: result.usage.cost_usd,
    ...(result.usage.billing ? { billing: result.usage.billing } : {}),
    notReviewed: result.failed.map((u) => `${u.file ?? 'synthesis'} ${u.step} ${u.unit}: ${u.reason}`),
    ...(result.stop ? { stopped: result.stop.message, stop: result.stop } : {}),
    ...(suppressed ? { suppressed } : {}),
    lines: [...(result.mode === 'lenses' ? lensLines(result) : stagedLines(result)), ...runNotes(result)],
  };
}

function lensLines(result: LensResult): string[] {
  const every = [...result.lensFindings, ...result.crossRepo];
  const all = every.filter((f) => !f.preExisting);
  const by = (s: string) => all.filter((f) => f.severity === s).length;
  const u = result.usage;
  const prompt = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
  const lines = [
    `${plural(all.length, 'finding')} (${by('CRITICAL')} critical, ${by('HIGH')} high, ${by('MEDIUM')} medium, ${by('LOW')} low, ${by('INFO')} info)${preExistingNote(every.length - all.length)}${suppressedNote(result)}; ${plural(u.calls, 'model call')}, cache read ${prompt ? Math.round((100 * u.cache_read_input_tokens) / prompt) : 0}% of prompt tokens, cost ${describeCost(u.cost_usd, undefined, u.billing)}.`,
  ];
  if (result.validation.performed)
    lines.push(`Validation: ${result.validation.rejected} rejected, ${result.validation.timeouts} not validated.`);
  if (result.missingReviewers.length)
    lines.push(`Missing reviewers: ${result.missingReviewers.join(', ')}; the report names them.`);
  if (result.rubric) lines.push(`Rubric: ${result.rubric.passed} passed, ${result.rubric.failed} failed.`);
  return lines;
}

function stagedLines(result: StagedResult): string[] {
  const main = result.findings.filter((f) => !f.pre_existing);
  const by = (p: string) => main.filter((f) => f.priority === p).length;
  const lines = [
    `${plural(main.length, 'finding')} (${by('must_fix')} must fix, ${by('should_fix')} should fix, ${by('nice_to_have')} nice to have)${preExistingNote(result.findings.length - main.length)}${suppressedNote(result)}; ${plural(result.usage.calls, 'model call')}, cost ${describeCost(result.usage.cost_usd, undefined, result.usage.billing)}.`,
  ];
  if (result.failed.length)
    lines.push(`${plural(result.failed.length, 'unit')} failed; the report lists them under Not Reviewed.`);
  return lines;
}

/** Pre-existing findings (off the change) are counted apart from the findings before them. */
const preExistingNote = (n: number) => (n ? `, and ${n} pre-existing apart (not on a changed line)` : '');

/** Findings a suppression hid are counted on the summary line, each kind apart. */
function suppressedNote(result: ReviewResult): string {
  const text = describeSuppressed(result.suppressed);
  const below = describeBelowMinPriority(result.belowMinPriority);
  return `${text ? `, ${text}` : ''}${below ? `, ${below}` : ''}`;
}

/** What the call count leaves out, why the run stopped early, and what the change's own suppressions hide. */
function runNotes(result: ReviewResult): string[] {
  const notes: string[] = [...addedByChangeLines(result.suppressed)];
  const batch = describeBatchRun(result.batch);
  if (batch) notes.push(`${batch[0]!.toUpperCase()}${batch.slice(1)}.`);
  if (result.failedAttempts)
    notes.push(
      `${result.failedAttempts} failed HTTP attempts (errors, timeouts, malformed replies) are not counted in the model calls above.`,
    );
  if (result.stop) notes.push(`Stopped early: ${result.stop.message}.`);
  return notes;
}
