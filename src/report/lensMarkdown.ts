/**
 * The lens-mode report, in the seed's structure: summary by severity, findings grouped by severity,
 * per-file summary, recommendations; plus validation counts, missing reviewers, the rubric, and for a
 * multi-repo run a section per repository and one for cross-repo issues. Pure: same result, same text.
 */
import { describeCost } from '../model/pricing';
import type { LensResult } from '../model/events';
import {
  isSevere,
  severityCounts,
  SEVERITY_RANK,
  sortLensFindings as sortFindings,
  type MergedFinding,
} from '../model/lens';
import { SEVERITIES, type Severity } from '../model/lensRecords';
import { CROSS_REPO } from '../model/reviewers';
import type { ReportMeta } from './markdown';
import { suppressedByChange } from './suppressedSection';
import { describeSuppressed, describeSuppression } from '../model/suppressed';
import { belowMinPriorityNote } from './belowMinPriority';
import { codeSpan, inlineText, paragraph } from './mdText';

const GROUPS: Array<{ title: string; severities: Severity[] }> = [
  { title: 'Critical Findings', severities: ['CRITICAL'] },
  { title: 'High-Priority Findings', severities: ['HIGH'] },
  { title: 'Medium & Low Findings', severities: ['MEDIUM', 'LOW'] },
  { title: 'Informational', severities: ['INFO'] },
];
const MAX_RECOMMENDATIONS = 10;

export function renderLensReport(result: LensResult, meta: ReportMeta): string {
  const multi = result.targets.length > 1;
  const every = sortFindings([...result.lensFindings, ...result.crossRepo]);
  // Pre-existing findings (off the change) are listed apart and left out of every count.
  const all = every.filter((f) => !f.preExisting);
  const preExisting = every.filter((f) => f.preExisting);
  const out = lensHeader(result, meta, all);
  out.push('', ...renderValidation(result));

  let n = 0;
  const numbered = (f: MergedFinding) => renderFinding(++n, f);
  out.push(...(multi ? repositorySections(result, numbered) : severitySections(all, numbered)));

  if (preExisting.length)
    out.push(
      '## Pre-existing Findings',
      '',
      'CRITICAL and HIGH problems on lines the change did not touch: kept for the record, not counted above.',
      '',
      ...preExisting.flatMap(numbered),
    );
  out.push(
    ...suppressedByChange(result.suppressed, (s) =>
      s.lens ? [...numbered(s.lens).slice(0, -1), `- **Suppressed**: ${inlineText(describeSuppression(s))}`, ''] : [],
    ),
  );
  out.push('## Per-File Summary', '', ...renderPerFile(all), '');
  out.push('## Recommendations', '', ...renderRecommendations(all), '');
  if (result.rubric) out.push(...renderRubric(result));
  out.push('## Review Notes', '', ...renderNotes(result), '');
  return (
    out
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd() + '\n'
  );
}

/** The title, what ran, whether it stopped early, and the count by severity of the findings on the change. */
function lensHeader(result: LensResult, meta: ReportMeta, all: MergedFinding[]): string[] {
  const out: string[] = [result.targets.length > 1 ? '# Cross-Repo Code Review Report' : '# Code Review Report', ''];
  out.push(
    `**Scope**: ${result.scope}  `,
    `**Date**: ${meta.date}  `,
    `**Reviewers**: ${result.reviewers.join(', ') || 'none'}  `,
  );
  if (result.missingReviewers.length)
    out.push(
      `**Missing reviewers**: ${result.missingReviewers.join(', ')} — their part of the review did not run (see Review Notes)  `,
    );
  out.push('');
  if (result.stop)
    out.push(`> **Partial review** — the run stopped early (${result.stop.message}). What finished is below.`, '');

  out.push('## Summary', '', '| Severity | Count |', '|----------|-------|');
  const counts = severityCounts(all);
  for (const s of SEVERITIES) out.push(`| ${s} | ${counts[s.toLowerCase() as Lowercase<Severity>]} |`);
  return out;
}

/** A review of several repositories: each one's findings under its name, then those across them. */
function repositorySections(result: LensResult, numbered: (f: MergedFinding) => string[]): string[] {
  const out: string[] = [];
  for (const t of result.targets) {
    out.push(
      `## Repository: ${inlineText(t.repository ?? '')}`,
      '',
      `${t.description} · ${t.files.length} files · reviewers: ${t.reviewers.join(', ')}`,
      '',
    );
    const mine = result.lensFindings.filter((f) => f.repository === t.repository && !f.preExisting);
    if (mine.length === 0) out.push('No findings.', '');
    for (const g of GROUPS) {
      const group = mine.filter((f) => g.severities.includes(f.severity));
      if (group.length) out.push(`### ${g.title}`, '', ...group.flatMap(numbered));
    }
  }
  for (const s of result.skippedRepositories)
    out.push(`## Repository: ${inlineText(s.repository)}`, '', `Not reviewed: ${inlineText(s.reason)}.`, '');
  out.push(
    '## Cross-Repo Issues',
    '',
    ...(result.crossRepo.length ? result.crossRepo.flatMap(numbered) : [crossRepoNone(result), '']),
  );
  return out;
}

/** A review of one repository: the findings by severity group; Informational only when there is one. */
function severitySections(all: MergedFinding[], numbered: (f: MergedFinding) => string[]): string[] {
  const out: string[] = [];
  for (const g of GROUPS) {
    const group = all.filter((f) => g.severities.includes(f.severity));
    if (group.length || g.severities[0] !== 'INFO')
      out.push(`## ${g.title}`, '', ...(group.length ? group.flatMap(numbered) : ['None.', '']));
  }
  return out;
}

function renderValidation(result: LensResult): string[] {
  const v = result.validation;
  if (!v.performed)
    return ['Findings were self-critiqued by their reviewers; no independent validators ran (full fan-out only).', ''];
  return [
    'Independent validators re-checked the CRITICAL and HIGH findings (at most ten):',
    '',
    '| | CRITICAL | HIGH |',
    '|---|---|---|',
    `| Before validation | ${v.preValidation.critical} | ${v.preValidation.high} |`,
    `| After validation | ${v.postValidation.critical} | ${v.postValidation.high} |`,
    '',
    `${v.rejected} rejected (downgraded to INFO), ${v.timeouts} not validated (the validator failed; severity kept).`,
    '',
  ];
}

function renderFinding(n: number, f: MergedFinding): string[] {
  const facts = [
    `**Severity**: ${f.severity}`,
    `**Confidence**: ${f.confidence}/5`,
    `**Reviewers**: ${f.reviewers.join(', ')}`,
  ];
  const lines = [`### ${n}. ${codeSpan(`${f.file}:${f.line}`)} — ${paragraph(f.title)}`, '', `- ${facts.join(' · ')}`];
  const validation = validationLine(f);
  if (validation) lines.push(`- **Validation**: ${validation}`);
  if (f.preExisting) lines.push('- **Pre-existing**: not on a changed line');
  lines.push(`- **Evidence**: ${paragraph(f.evidence)}`, `- **Recommendation**: ${paragraph(f.recommendation)}`, '');
  return lines;
}

function validationLine(f: MergedFinding): string | null {
  const why = f.validationReason ? ` (${paragraph(f.validationReason)})` : '';
  if (f.validated === true) return `validated${why}`;
  if (f.validated === false) return `rejected${why}; was ${f.originalSeverity}`;
  if (f.validated === 'timeout') return `not validated: the validator failed${why}`;
  return null;
}

function renderPerFile(findings: MergedFinding[]): string[] {
  if (findings.length === 0) return ['No findings in any file.'];
  const byFile = new Map<string, MergedFinding[]>();
  for (const f of findings) byFile.set(f.file, [...(byFile.get(f.file) ?? []), f]);
  const rows = [...byFile].map(([file, fs]) => ({
    file,
    count: fs.length,
    top: fs.reduce((a, b) => (SEVERITY_RANK[b.severity] > SEVERITY_RANK[a.severity] ? b : a)).severity,
  }));
  rows.sort((a, b) => SEVERITY_RANK[b.top] - SEVERITY_RANK[a.top] || b.count - a.count || a.file.localeCompare(b.file));
  return [
    '| File | Issues | Top Severity |',
    '|------|--------|-------------|',
    ...rows.map((r) => `| ${codeSpan(r.file).replace(/\|/g, '\\|')} | ${r.count} | ${r.top} |`),
  ];
}

function renderRecommendations(findings: MergedFinding[]): string[] {
  const actionable = findings.filter((f) => isSevere(f.severity) || f.severity === 'MEDIUM');
  if (actionable.length === 0) return ['Nothing at MEDIUM or above: no change is needed before merging.'];
  const lines = actionable
    .slice(0, MAX_RECOMMENDATIONS)
    .map((f, i) => `${i + 1}. ${codeSpan(`${f.file}:${f.line}`)} — ${paragraph(f.recommendation)}`);
  if (actionable.length > MAX_RECOMMENDATIONS)
    lines.push('', `… and ${actionable.length - MAX_RECOMMENDATIONS} more in the findings above.`);
  return lines;
}

function renderRubric(result: LensResult): string[] {
  const r = result.rubric!;
  const head = `## Rubric`;
  if (r.criteria.length === 0)
    return [
      head,
      '',
      `No criterion in ${codeSpan(r.path)} is assigned to the code reviewer (\`Evaluator: skeptic\`).`,
      '',
    ];
  return [
    head,
    '',
    `${codeSpan(r.path)}: ${r.passed} passed, ${r.failed} failed.`,
    '',
    ...r.criteria.map((c) => c.marked.trim()),
    '',
  ];
}

function renderNotes(result: LensResult): string[] {
  const notes: string[] = [];
  for (const t of result.targets) {
    const where = t.repository ? `${t.repository}: ` : '';
    const routed = t.routing.filter((d) => d.routed).map((d) => `${d.reviewer} (${d.reason})`);
    const left = t.routing.filter((d) => !d.routed).map((d) => `${d.reviewer} (${d.reason})`);
    notes.push(
      `- ${where}${t.files.length} files in ${t.parts} part${t.parts === 1 ? '' : 's'}; reviewers: ${routed.join(', ')}${left.length ? `; not routed: ${left.join(', ')}` : ''}.`,
    );
  }
  const dropped = Object.entries(result.lowConfidence);
  const total = dropped.reduce((n, [, k]) => n + k, 0);
  notes.push(
    `- Self-critique: ${total} findings below confidence 3 dropped${total ? ` (${dropped.map(([r, k]) => `${r} ${k}`).join(', ')})` : ''}.`,
  );
  const noise = Object.entries(result.noiseDropped ?? {});
  if (noise.length)
    notes.push(
      `- Noise filter: ${noise.reduce((n, [, k]) => n + k, 0)} findings in a category that is never a finding removed (${noise.map(([c, k]) => `${c} ${k}`).join(', ')}).`,
    );
  if (result.outsideChange)
    notes.push(`- ${result.outsideChange} findings below HIGH were not on a changed line and were dropped.`);
  const suppressed = describeSuppressed(result.suppressed);
  if (suppressed) notes.push(`- Findings ${suppressed}; --json and SARIF list them.`);
  notes.push(...belowMinPriorityNote(result));
  if (result.spec) notes.push(`- Spec: ${result.spec}.`);
  if (result.gateCheck.reason) notes.push(`- Gate check: ${result.gateCheck.reason}.`);
  for (const u of result.failed) notes.push(`- Not reviewed: ${u.unit} — ${u.reason}`);
  const unread = result.files.filter((f) => f.status === 'failed');
  if (unread.length)
    notes.push(`- Files no reviewer read: ${unread.map((f) => `${codeSpan(f.path)} (${f.reason})`).join(', ')}.`);
  const u = result.usage;
  const prompt = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
  notes.push(
    `- ${u.calls} model calls (${Object.entries(result.models)
      .map(([role, model]) => `${role}: ${model}`)
      .join(
        ', ',
      )}${result.effort ? `; effort ${result.effort}` : ''}); ${result.repairs} replies repaired; ${result.retries} API retries${result.cacheHits ? `; ${result.cacheHits} units answered from the result cache` : ''}.`,
    `- Tokens: ${u.input_tokens} input, ${u.output_tokens} output, ${u.cache_read_input_tokens} cache read (${prompt ? Math.round((100 * u.cache_read_input_tokens) / prompt) : 0}% of the prompt), ${u.cache_creation_input_tokens} cache write; cost ${describeCost(u.cost_usd, result.batch, u.billing)}.`,
  );
  return notes;
}

function crossRepoNone(result: LensResult): string {
  return result.failed.some((u) => u.step === CROSS_REPO)
    ? 'The cross-repo check did not run (see Review Notes).'
    : 'None found.';
}
