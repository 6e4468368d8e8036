/**
 * `skeptic review --format agent`: only what a coding agent acts on — one line per finding (new ones first,
 * then by priority) with its fix prompt as one JSON string, then one verdict line — and an exit code it can
 * branch on: 0 converged (complete, nothing new since the last review of the same scope), 1 new findings,
 * 3 incomplete (a ceiling, failed units), 2 a usage or setup error.
 */
import { byPriority, type AgentFinding, type AgentReview } from '../app/agentReview';
import { formatUsd } from '../model/pricing';
import { plural } from '../model/plural';
import { EXIT } from './help';

export { keepAgentReview } from '../app/agentReview';

export function agentLines(review: AgentReview): string[] {
  const ordered = [
    ...byPriority(review.findings.filter((f) => f.new_since_last)),
    ...byPriority(review.findings.filter((f) => !f.new_since_last)),
  ];
  return [...ordered.map(findingLine), verdictLine(review)];
}

function findingLine(f: AgentFinding): string {
  const where = `${f.file}:${f.line}${f.end_line > f.line ? `-${f.end_line}` : ''}`;
  const marks = [f.new_since_last ? 'new' : 'seen before', ...(f.pre_existing ? ['pre-existing'] : [])].join(', ');
  return `${f.priority} ${where} ${f.rule} (${marks}) ${f.fingerprint} fix: ${JSON.stringify(f.fix_prompt)}`;
}

function verdictLine(r: AgentReview): string {
  const fresh = r.findings.filter((f) => f.new_since_last).length;
  const spent = `${plural(r.calls, 'call')}, ${formatUsd(r.cost_usd)}`;
  const found = `${plural(r.findings.length, 'finding')}, ${fresh} new`;
  if (!r.complete) {
    const failed = r.not_reviewed.filter((f) => f.status === 'failed').length;
    return `verdict: incomplete — ${r.stopped ?? `${plural(failed, 'file')} could not be reviewed`} (${found}; ${spent})`;
  }
  if (r.converged) return `verdict: converged — nothing new since the last review (${found}; ${spent})`;
  return `verdict: not converged — fix the new findings and review again (${found}; ${spent})`;
}

export function agentExit(review: AgentReview): number {
  if (!review.complete) return EXIT.incomplete;
  return review.converged ? EXIT.ok : EXIT.findings;
}

/** A change too small to review has nothing an agent must fix. */
export function skippedVerdict(reason: string): string {
  return `verdict: converged — not reviewed: ${reason}`;
}
