/**
 * A review as a coding agent needs it, the same for `skeptic mcp` and `skeptic review --format agent`: each
 * finding with its fix prompt and whether it is new since the last review of the same scope, the counts,
 * what was not reviewed, calls and cost, and `converged` — the run was complete and found nothing new, so
 * an agent looping "fix, review" can stop. The last review of each scope is kept in the repository's state
 * folder: the next one is compared with it, and the MCP `findings` tool replays it without a call.
 */
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { readOwnFile, readRegularFileSync } from '../io/regularFile';
import { ensureFolder, replaceFile } from '../io/safeWrite';
import type { ReviewResult } from '../model/events';
import type { Finding } from '../model/finding';
import { fixPrompt } from '../model/fixPrompt';
import { MAX_FILE_BYTES } from '../model/fileSize';
import { languageOf } from '../model/languages';
import { splitLines } from '../model/lines';
import { PRIORITY_ORDER } from '../model/order';
import { STOP_KINDS } from '../model/outcome';
import type { ScopeSpec } from '../model/scope';
import { MAX_STATE_FILE_BYTES } from './state';
import type { ReviewJob } from './job';

const Priority = z.enum(['must_fix', 'should_fix', 'nice_to_have']);

export const AgentFinding = z.object({
  fingerprint: z.string().describe('line-independent id: the key for dismiss, and for "new since last"'),
  file: z.string(),
  function: z.string().nullable(),
  line: z.number().int(),
  end_line: z.number().int(),
  priority: Priority,
  rule: z.string(),
  category: z.string().nullable(),
  action: z.string().describe('what to change'),
  rationale: z.string().describe('why'),
  fix_prompt: z.string().describe('the finding as a task for a coding agent, with the code around it'),
  new_since_last: z.boolean().describe('not found by the last review of the same scope'),
  pre_existing: z.boolean().describe('a change review: a must-fix problem on lines the change did not touch'),
});
export type AgentFinding = z.infer<typeof AgentFinding>;

export const AgentReview = z.object({
  scope: z.string().describe('what was reviewed'),
  findings: z.array(AgentFinding),
  counts: z.object({ must_fix: z.number().int(), should_fix: z.number().int(), nice_to_have: z.number().int() }),
  not_reviewed: z.array(
    z
      .object({ path: z.string(), status: z.enum(['skipped', 'failed']), reason: z.string() })
      .describe('skipped: left out by choice (documentation, generated); failed: could not be reviewed'),
  ),
  complete: z.boolean().describe('every unit of the review finished: no ceiling, cancel or failure stopped any'),
  stopped: z.string().nullable().describe('why the run stopped early (a ceiling, a cancel); null: it finished'),
  stop_kind: z
    .enum(STOP_KINDS)
    .nullable()
    .optional()
    .describe(
      'what stopped it, to act on: cancelled, maxCalls, maxCost or deadline (a ceiling: raise it or rerun to continue), refused (the key or model), setup, fatal; null: it finished',
    ),
  calls: z.number().int(),
  cost_usd: z.number().nullable(),
  converged: z.boolean().describe('the review was complete and found nothing new since the last one of this scope'),
  report: z.string().nullable().describe('the markdown report, relative to the working folder'),
  reviewed_at: z.string(),
});
export type AgentReview = z.infer<typeof AgentReview>;

/** Lines of code quoted around a finding in its fix prompt, on each side. */
const CODE_AROUND = 4;

/** The run's result as an agent reads it, compared with the last review of the same scope (null: none). */
export function agentReview(
  result: ReviewResult,
  o: { cwd: string; scope: string; reportPath: string | null; last: AgentReview | null; now?: Date },
): AgentReview {
  const seen = new Set(o.last?.findings.map((f) => f.fingerprint));
  const findings = result.findings.map((f) => agentFinding(f, o.cwd, !seen.has(f.fingerprint ?? '')));
  const counts = { must_fix: 0, should_fix: 0, nice_to_have: 0 };
  for (const f of findings) if (!f.pre_existing) counts[f.priority]++;
  const notReviewed = result.files
    .filter((f) => f.status !== 'reviewed')
    .map((f) => ({ path: f.path, status: f.status as 'skipped' | 'failed', reason: f.reason ?? f.status }));
  const complete = !result.stop && result.failed.length === 0 && !notReviewed.some((f) => f.status === 'failed');
  return {
    scope: o.scope,
    findings,
    counts,
    not_reviewed: notReviewed,
    complete,
    stopped: result.stop?.message ?? null,
    stop_kind: result.stop?.kind ?? null,
    calls: result.usage.calls,
    cost_usd: result.usage.cost_usd,
    converged: complete && findings.every((f) => !f.new_since_last),
    report: o.reportPath && relative(o.cwd, o.reportPath).split(sep).join('/'),
    reviewed_at: (o.now ?? new Date()).toISOString(),
  };
}

function agentFinding(f: Finding, cwd: string, isNew: boolean): AgentFinding {
  return {
    fingerprint: f.fingerprint ?? '',
    file: f.file,
    function: f.function,
    line: f.line,
    end_line: f.end_line ?? f.line,
    priority: f.priority,
    rule: f.rule_id,
    category: f.category ?? null,
    action: f.action,
    rationale: f.rationale,
    fix_prompt: fixPrompt(f, codeAround(cwd, f)),
    new_since_last: isNew,
    pre_existing: f.pre_existing ?? false,
  };
}

/** The lines around a finding, read as any review read of the file is (regular file, capped); null when unreadable. */
function codeAround(cwd: string, f: Finding): { text: string; firstLine: number; language: string } | null {
  const text = readRegularFileSync(join(cwd, f.file), MAX_FILE_BYTES);
  if (text === null) return null;
  const lines = splitLines(text);
  const first = Math.max(1, f.line - CODE_AROUND);
  const last = Math.min(lines.length, (f.end_line ?? f.line) + CODE_AROUND);
  return { text: lines.slice(first - 1, last).join('\n'), firstLine: first, language: languageOf(f.file) };
}

/** The findings in priority order: must fix first (the order the report gives within a priority is kept). */
export function byPriority(findings: AgentFinding[]): AgentFinding[] {
  return [...findings].sort((a, b) => PRIORITY_ORDER.indexOf(a.priority) - PRIORITY_ORDER.indexOf(b.priority));
}

/** One scope's key: the folder, the mode and what the scope names (a detected scope is keyed as what it resolved to). */
export function scopeKey(cwd: string, mode: 'staged' | 'lenses' | undefined, scope: ScopeSpec): string {
  const named = scope.kind === 'paths' ? { ...scope, paths: [...scope.paths].sort() } : scope;
  const id = JSON.stringify([resolve(cwd), mode ?? 'staged', named]);
  return createHash('sha256').update(id).digest('hex').slice(0, 24);
}

/**
 * The run's result as the agent review of its scope, compared with the last one and then kept as the last;
 * without a state folder, compared with nothing and not kept.
 */
export async function keepAgentReview(
  job: Pick<ReviewJob, 'cwd' | 'mode' | 'scope' | 'stateDir'>,
  result: ReviewResult,
  reportPath: string | null,
): Promise<AgentReview> {
  const key = scopeKey(job.cwd, job.mode, job.scope);
  const last = job.stateDir ? await lastReview(job.stateDir, key) : null;
  const review = agentReview(result, { cwd: job.cwd, scope: scopeLabel(job.scope), reportPath, last });
  // Kept for the next comparison and the replay; a state folder that cannot take it costs only that.
  if (job.stateDir) await recordReview(job.stateDir, key, review).catch(() => undefined);
  return review;
}

/** The scope in a few words, for the agent: "shop, lib/util.ts", "uncommitted changes", "PR #12". */
export function scopeLabel(scope: ScopeSpec): string {
  switch (scope.kind) {
    case 'paths':
      return scope.paths.join(', ') || '.';
    case 'changes':
      return 'uncommitted changes';
    case 'staged':
      return 'staged changes';
    case 'branch':
      return `changes since ${scope.base}`;
    case 'pr':
      return `PR #${scope.number}`;
  }
}

const reviewsDir = (stateDir: string) => join(stateDir, 'agent-reviews');
const reviewFile = (stateDir: string, key: string) => join(reviewsDir(stateDir), `${key}.json`);

/** The finding with this fingerprint in the latest kept review that has it, or null. */
export async function keptFinding(stateDir: string, fingerprint: string): Promise<AgentFinding | null> {
  const names = await readdir(reviewsDir(stateDir)).catch(() => [] as string[]);
  const reviews = await Promise.all(names.map((n) => lastReview(stateDir, n.replace(/\.json$/, ''))));
  const latest = reviews.filter((r) => r !== null).sort((a, b) => b.reviewed_at.localeCompare(a.reviewed_at));
  for (const r of latest) {
    const found = r.findings.find((f) => f.fingerprint === fingerprint);
    if (found) return found;
  }
  return null;
}

/** The last review of the scope, or null when there is none (or its record is unreadable). */
export async function lastReview(stateDir: string, key: string): Promise<AgentReview | null> {
  try {
    const text = await readOwnFile(reviewFile(stateDir, key), MAX_STATE_FILE_BYTES);
    const parsed = text === null ? null : AgentReview.safeParse(JSON.parse(text));
    return parsed?.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Keeps the review as its scope's last (a whole-file replace: a reader never sees half of it). */
export async function recordReview(stateDir: string, key: string, review: AgentReview): Promise<void> {
  const path = reviewFile(stateDir, key);
  await ensureFolder(reviewsDir(stateDir));
  await replaceFile(path, JSON.stringify(review, null, 2));
}
