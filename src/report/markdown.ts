/** The staged report (Step 6), in the spec's structure. Pure: same result in, same text out. */
import { describeCost } from '../model/pricing';
import type { StagedResult } from '../model/events';
import type { Priority } from '../model/records';
import { PRIORITY_ORDER } from '../model/order';
import type { Finding } from '../model/finding';
import { formatLocation } from '../model/location';
import { describeSuppressed, describeSuppression } from '../model/suppressed';
import { belowMinPriorityNote } from './belowMinPriority';
import { suppressedByChange } from './suppressedSection';
import { plural } from '../model/plural';
import { ruleLabel } from '../model/rules';
import { codeSpan, inlineText, paragraph } from './mdText';

export interface ReportMeta {
  /** The scope's display name, for the title. */
  name: string;
  /** YYYY-MM-DD */
  date: string;
}

const PRIORITY_HEADINGS: Record<Priority, string> = {
  must_fix: 'Must fix',
  should_fix: 'Should fix',
  nice_to_have: 'Nice to have',
};
/** Below this many files, grouping adds nothing (the spec's "2-3 files"). */
const MIN_FILES_FOR_GROUPS = 4;

export function renderStagedReport(result: StagedResult, meta: ReportMeta): string {
  const out: string[] = [`# Code Review: ${inlineText(meta.name)}`, ''];
  out.push(
    `- **Date:** ${meta.date}`,
    `- **Model:** ${describeModels(result.models)}`,
    `- **Scope:** ${result.reviewRoots.map(code).join(', ')}`,
    '',
  );
  if (result.stop)
    out.push(
      `> **Partial review** — the run stopped early (${result.stop.message}). What finished is below; see Not Reviewed.`,
      '',
    );

  const s = result.synthesis;
  out.push(
    s
      ? s.verdict_one_line
      : `Synthesis did not run${synthesisFailure(result)}; the findings below are complete for the files reviewed.`,
    '',
  );
  out.push('## Executive Summary', '', s?.executive_summary ?? 'No summary: synthesis did not run.', '');

  out.push(...codebaseProfile(result));

  out.push('## Cross-cutting Analysis', '', s?.cross_cutting_analysis || 'None.', '');
  const preExisting = result.findings.filter((f) => f.pre_existing);
  out.push('## Findings', '', ...renderFindings(result.findings.filter((f) => !f.pre_existing)), '');
  if (preExisting.length)
    out.push(
      '## Pre-existing Findings',
      '',
      'Must-fix problems on lines the change did not touch: kept for the record, not counted above.',
      '',
      ...preExisting.map((f, i) => `${i + 1}. ${findingLine(f)}\n`),
      '',
    );
  out.push(
    ...suppressedByChange(result.suppressed, (s, i) => [
      `${i + 1}. ${findingLine(s.finding)} — ${inlineText(describeSuppression(s))}`,
      '',
    ]),
  );
  out.push(cleanLine(result), '');

  const notReviewed = renderNotReviewed(result);
  if (notReviewed.length) out.push('## Not Reviewed', '', ...notReviewed, '');
  out.push('## Review Notes', '', ...renderNotes(result), '');
  return (
    out
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd() + '\n'
  );
}

/** The files reviewed, each with its profile; in synthesis's groups when there are enough files to group. */
function codebaseProfile(result: StagedResult): string[] {
  const s = result.synthesis;
  const out: string[] = ['## Codebase Profile', ''];
  // Files that reached analysis; the rest are listed under Not Reviewed.
  const reviewedFiles = result.files.filter((f) => f.analysis);
  if (s && reviewedFiles.length >= MIN_FILES_FOR_GROUPS) {
    for (const g of s.file_groups) {
      out.push(
        `### ${inlineText(g.group_name)}`,
        '',
        paragraph(g.group_description),
        '',
        ...g.file_paths.map((p) => `- ${code(p)}`),
        '',
      );
    }
  }
  const profiles = new Map(s?.file_profiles.map((p) => [p.file_path, p.profile]) ?? []);
  for (const f of reviewedFiles) {
    out.push(`### ${inlineText(f.path)}`, '', paragraph(profiles.get(f.path) ?? f.analysis!.brutal_one_line), '');
  }
  return out;
}

function renderFindings(findings: Finding[]): string[] {
  if (findings.length === 0) return ['No findings. The reviewed code is clean.'];
  const out: string[] = [];
  let n = 0;
  for (const priority of PRIORITY_ORDER) {
    const group = findings.filter((f) => f.priority === priority);
    if (group.length === 0) continue;
    out.push(`### ${PRIORITY_HEADINGS[priority]}`, '');
    for (const f of group) out.push(`${++n}. ${findingLine(f)}`, '');
  }
  return out;
}

/** `file:line` - action (rationale) [rule]: report line, human to-do and machine to-do at once. */
export function findingLine(f: Finding): string {
  const where = f.locations.map((l) => code(formatLocation(l))).join(', ');
  const notes =
    ` [${ruleLabel(f.rule_id)}]` +
    (f.pre_existing ? ' [pre-existing: not on a changed line]' : '') +
    (f.unchallenged ? ' [not challenged: the challenger failed]' : '');
  return `${where} - ${inlineText(trimStop(f.action))} (${inlineText(trimStop(f.rationale))})${notes}`;
}

function cleanLine(result: StagedResult): string {
  const flaggedFiles = new Set(result.findings.map((f) => f.file));
  const flaggedFunctions = new Set(result.findings.filter((f) => f.function).map((f) => `${f.file}\0${f.function}`));
  const reviewed = result.files.filter((f) => f.analysis);
  const cleanFiles = reviewed.filter((f) => !flaggedFiles.has(f.path)).length;
  const functions = reviewed.reduce((n, f) => n + f.functions_reviewed, 0);
  const cleanFunctions = Math.max(0, functions - flaggedFunctions.size);
  if (cleanFiles === 0 && cleanFunctions === 0) return 'No file or function was reviewed clean.';
  return `${plural(cleanFiles, 'file')} / ${plural(cleanFunctions, 'function')} reviewed clean.`;
}

function renderNotReviewed(result: StagedResult): string[] {
  const failed = result.failed.map((u) =>
    `- ${u.file ? code(u.file) : 'synthesis'} — ${u.step} ${u.unit === u.file ? '' : `${u.unit} `}failed: ${u.reason}`.replace(
      / {2,}/g,
      ' ',
    ),
  );
  const skipped = result.files
    .filter((f) => f.status === 'skipped')
    .map((f) => `- ${code(f.path)} — skipped: ${f.reason}`);
  return [...failed, ...skipped];
}

function renderNotes(result: StagedResult): string[] {
  const count = (stage: string) => result.filtered.filter((f) => f.stage === stage).length;
  const u = result.usage;
  return [
    `- Filtered out: ${count('challenge')} disqualified by the challenger, ${count('tiebreaker')} by the confidence tiebreaker, ${count('rule_scope')} out of rule scope, ${count('diff_scope')} outside the change, ${count('noise')} in a category that is never a finding.`,
    `- ${result.recovered} functions re-run solo by the completeness check; ${result.repairs} replies repaired; ${result.retries} API retries${result.cacheHits ? `; ${result.cacheHits} units answered from the result cache` : ''}.`,
    ...[describeSuppressed(result.suppressed)].flatMap((d) =>
      d ? [`- Findings ${d}; --json and SARIF list them.`] : [],
    ),
    ...belowMinPriorityNote(result),
    `- ${u.calls} model calls; tokens: ${u.input_tokens} input, ${u.output_tokens} output, ${u.cache_read_input_tokens} cache read, ${u.cache_creation_input_tokens} cache write; cost ${describeCost(u.cost_usd, result.batch, u.billing)}.`,
    ...result.notes.map((n) => `- ${n}`),
  ];
}

function describeModels(models: Record<string, string>): string {
  const byModel = new Map<string, string[]>();
  for (const [step, model] of Object.entries(models)) byModel.set(model, [...(byModel.get(model) ?? []), step]);
  if (byModel.size === 1) return [...byModel.keys()][0]!;
  return [...byModel].map(([model, steps]) => `${model} (${steps.join(', ')})`).join('; ');
}

function synthesisFailure(result: StagedResult): string {
  const unit = result.failed.find((u) => u.step === 'synthesize');
  return unit ? ` (${unit.reason})` : '';
}

const code = codeSpan;
const trimStop = (s: string) => s.trim().replace(/\.$/, '');
