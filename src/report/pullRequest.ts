/**
 * What `skeptic ci` writes on a pull request, as text: inline review comments, the review's body, the
 * one summary comment (also the job summary), a comment marked fixed, and workflow annotations for a
 * token that cannot write. Each finding carries its fingerprint in a hidden HTML comment, which is how a
 * later run knows what it posted. The findings' words come from a model that read untrusted code, so
 * they are neutralised: no HTML (no forged markers), no @-mentions.
 */
import type { Finding } from '../model/finding';
import type { ReviewResult } from '../model/events';
import { addedByChange, describeSuppressed, describeSuppression } from '../model/suppressed';
import { describeCost } from '../model/pricing';
import { plural } from '../model/plural';
import type { Priority } from '../model/records';
import { rulePageName, ruleLabel, RULES_HELP_URL } from '../model/rules';
import { terminalText } from '../model/terminalText';

export const SUMMARY_MARKER = '<!-- skeptic:summary -->';
const FIXED_MARKER = '<!-- skeptic:fixed -->';
const FINDING_MARKER = /<!-- skeptic:finding ([0-9a-f]{8,64}) -->/g;
/** GitHub refuses a comment, review or review comment body over 65,536 characters. */
export const MAX_BODY = 65_536;
/** A step's job summary may hold up to 1 MiB (GitHub's documented limit, in bytes; measured here in characters of at most 4 bytes). */
export const MAX_STEP_SUMMARY = Math.floor((1024 * 1024) / 4);
/** One finding listed in a body: a model's long rationale is cut, not the list. */
const MAX_ITEM = 1_000;

const PRIORITY: Record<Priority, string> = {
  must_fix: 'must fix',
  should_fix: 'should fix',
  nice_to_have: 'nice to have',
};
const ICON: Record<Priority, string> = { must_fix: '🔴', should_fix: '🟠', nice_to_have: '🔵' };

export function findingMarker(fingerprint: string): string {
  return `<!-- skeptic:finding ${fingerprint} -->`;
}

/** The fingerprints a comment or review body carries. */
export function markedFingerprints(body: string | null | undefined): string[] {
  return [...(body ?? '').matchAll(FINDING_MARKER)].map((m) => m[1]!);
}

export function isMarkedFixed(body: string): boolean {
  return body.includes(FIXED_MARKER);
}

/** Model text made inert for GitHub markdown: no tags or comments, no mentions that notify anyone, no control characters. */
export function inert(text: string): string {
  return terminalText(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/@(?=\w)/g, '@\u200b');
}

function ruleLink(f: Finding): string {
  return `[${inert(ruleLabel(f.rule_id))}](${RULES_HELP_URL}${rulePageName(f.rule_id)})`;
}

/**
 * `text` cut to at most `limit` characters, saying where and why it was cut; `tail` (a finding's marker)
 * always kept whole at the end.
 */
export function fitBody(text: string, limit = MAX_BODY, tail = ''): string {
  const room = limit - tail.length;
  if (text.length <= room) return text + tail;
  const note = `\n\n… (cut here: GitHub takes at most ${limit.toLocaleString('en-US')} characters; the report, the job summary and SARIF have it all)`;
  let cut = text.slice(0, Math.max(0, room - note.length));
  const line = cut.lastIndexOf('\n');
  if (line > cut.length / 2) cut = cut.slice(0, line);
  // Never half a surrogate pair.
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return cut + note + tail;
}

/** A model's text for one line of a list: a long one is cut, and says so. */
function clip(text: string, max = MAX_ITEM): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).replace(/[\ud800-\udbff]$/, '')}… (cut)`;
}

/** One inline review comment, within GitHub's limit (the text is cut, the marker kept). */
export function inlineComment(f: Finding): string {
  const text = [
    `${ICON[f.priority]} **${PRIORITY[f.priority]}** · ${ruleLink(f)} · ${f.confidence} confidence`,
    '',
    `**${inert(clip(f.action))}**`,
    '',
    inert(f.rationale),
    '',
    `<sub>Skeptic${f.verdict ? ` · survived the challenge: ${inert(clip(f.verdict))}` : ''}</sub>`,
  ].join('\n');
  return fitBody(text, MAX_BODY, `\n${findingMarker(f.fingerprint ?? '')}`);
}

/** One finding as a line of the review's body. */
export function bodyItem(f: Finding): string {
  return `${listItem(f)} ${findingMarker(f.fingerprint ?? '')}`;
}

/** The finding as a list item, without the marker that says it was posted. */
function listItem(f: Finding): string {
  const at = f.end_line && f.end_line > f.line ? `${f.file}:${f.line}-${f.end_line}` : `${f.file}:${f.line}`;
  return `- ${ICON[f.priority]} \`${inert(clip(at, 300))}\` **${PRIORITY[f.priority]}** ${ruleLink(f)}: ${inert(clip(f.action))} — ${inert(clip(f.rationale))}`;
}

/** A folded finding in one short line: where, how urgent, which rule, what to do. */
function briefItem(f: Finding): string {
  return `- ${ICON[f.priority]} \`${inert(clip(`${f.file}:${f.line}`, 300))}\` ${ruleLink(f)}: ${inert(clip(f.action, 200))}`;
}

export interface ReviewBodyParts {
  headSha: string;
  inline: number;
  offDiff: Finding[];
  preExisting: Finding[];
  overflow: Finding[];
  /** GitHub refused the inline places (422): every finding is listed here instead. */
  refusedInline?: string;
}

/**
 * The review's body: what is inline, and every finding that is not, as many as fit in GitHub's limit.
 * `left`: the findings that did not fit (they go to the summary, the job summary and SARIF).
 */
export function reviewBody(p: ReviewBodyParts): { body: string; left: Finding[] } {
  const listed = p.offDiff.length + p.preExisting.length + p.overflow.length;
  const out = [
    `**Skeptic** reviewed ${p.headSha.slice(0, 7)}: ${plural(p.inline + listed, 'new finding')}${p.inline ? `, ${p.inline} inline` : ''}.`,
  ];
  if (p.refusedInline)
    out.push(
      '',
      `GitHub refused the inline places (${inert(clip(p.refusedInline))}), so every finding is listed here.`,
    );
  const left: Finding[] = [];
  // Room kept for the line that says how many did not fit.
  let size = out.join('\n').length + 300;
  const section = (title: string, items: Finding[]) => {
    const fit: string[] = [];
    for (const f of items) {
      const item = bodyItem(f);
      const extra = item.length + 1 + (fit.length ? 0 : title.length + 10);
      if (left.length || size + extra > MAX_BODY) left.push(f);
      else {
        size += extra;
        fit.push(item);
      }
    }
    if (fit.length) out.push('', `**${title}**`, '', ...fit);
  };
  section('Not on a line of the diff', p.offDiff);
  section('Over the limit of inline comments', p.overflow);
  section('Pre-existing: on lines this change did not touch', p.preExisting);
  if (left.length)
    out.push(
      '',
      `${plural(left.length, 'more finding')} did not fit GitHub's limit of ${MAX_BODY.toLocaleString('en-US')} characters: the summary comment, the job summary and SARIF list them.`,
    );
  return { body: out.join('\n'), left };
}

/** A comment whose finding is gone, edited so the thread (which someone replied to) stays readable. */
export function fixedComment(original: string, headSha: string): string {
  const kept = original.replace(FINDING_MARKER, '').trim();
  const fps = markedFingerprints(original).map(findingMarker).join('');
  return fitBody(
    `✅ **Fixed** in ${headSha.slice(0, 7)}: Skeptic no longer finds this.\n\n<details><summary>The finding</summary>\n\n${kept}`,
    MAX_BODY,
    `\n\n</details>\n${fps}${FIXED_MARKER}`,
  );
}

/** A body line for a finding that is gone (the review's body, edited in place). */
export function fixedItem(line: string, headSha: string): string {
  const fps = markedFingerprints(line).map(findingMarker).join('');
  return `- ✅ ~~${line.replace(FINDING_MARKER, '').replace(/^- /, '').trim()}~~ fixed in ${headSha.slice(0, 7)} ${fps}${FIXED_MARKER}`;
}

export type CiOutcome =
  | {
      kind: 'reviewed';
      result: ReviewResult;
      posted: 'comments' | 'annotations';
      newFindings: number;
      fixed: number;
      /** Why the findings are annotations when the token could write (GitHub unreadable, the job stopped). */
      unposted?: string;
    }
  | { kind: 'skipped'; reason: string }
  | { kind: 'too-large'; estimatedCalls: number; ceiling: number };

export interface SummaryParts {
  outcome: CiOutcome;
  headSha: string;
  /** The run's page on GitHub, and the report it wrote. */
  runUrl?: string;
  reportName?: string;
  reportMarkdown?: string;
  /** Findings the review could not hold (GitHub's size limit): listed here instead. */
  unposted?: Finding[];
  /** Findings below the inline threshold (--min-priority): listed briefly here, never inline. */
  folded?: { min: Priority; findings: Finding[] };
}

/**
 * The summary comment (kept up to date in place) and the job summary: the same text, cut to `limit` (the
 * comment's is GitHub's body limit; the job summary holds more).
 */
export function summaryMarkdown(p: SummaryParts, limit = MAX_BODY): string {
  const out = [SUMMARY_MARKER, `### Skeptic review of ${p.headSha.slice(0, 7)}`, ''];
  const o = p.outcome;
  if (o.kind === 'skipped') out.push(`Not reviewed: ${inert(o.reason)}.`);
  else if (o.kind === 'too-large') {
    out.push(
      `**Not reviewed: too large for the budget.** The estimate is ${plural(o.estimatedCalls, 'model call')}, over the ceiling of ${o.ceiling}. Raise it (the action's \`max-calls\` input, or \`--max-calls\`) or split the pull request.`,
    );
  } else {
    const by = (p: Priority) => o.result.findings.filter((f) => f.priority === p).length;
    out.push(
      `| must fix | should fix | nice to have | new on this push | fixed on this push |`,
      `|---:|---:|---:|---:|---:|`,
      `| ${by('must_fix')} | ${by('should_fix')} | ${by('nice_to_have')} | ${o.newFindings} | ${o.fixed} |`,
      '',
      `${plural(o.result.usage.calls, 'model call')}, cost ${describeCost(o.result.usage.cost_usd)}.`,
    );
    if (o.posted === 'annotations') {
      const why = o.unposted ?? 'This token cannot write to the pull request (a fork, or read-only permissions)';
      out.push('', `${why}: the findings are workflow annotations and SARIF, not review comments.`);
    }
    const suppressed = describeSuppressed(o.result.suppressed);
    if (suppressed) out.push('', `Findings ${inert(suppressed)}.`);
    const hidden = addedByChange(o.result.suppressed);
    if (hidden.length)
      out.push(
        '',
        '**Hidden by suppressions this pull request adds** (review them as findings until the team agrees):',
        '',
        ...hidden.map((h) => `${listItem(h.finding)} — ${inert(describeSuppression(h))}`),
      );
    if (p.unposted?.length)
      out.push(
        '',
        `**Not in the review** (over GitHub's ${MAX_BODY.toLocaleString('en-US')}-character limit)`,
        '',
        ...p.unposted.map(listItem),
      );
    if (p.folded)
      out.push(
        '',
        `**Below ${PRIORITY[p.folded.min]}, not posted inline** (${plural(p.folded.findings.length, 'finding')}; \`--min-priority\` sets the threshold)`,
        '',
        ...p.folded.findings.map(briefItem),
      );
    const gaps = notReviewed(o.result);
    if (gaps.length) out.push('', '**Not reviewed**', '', ...gaps.map((g) => `- ${inert(clip(g))}`));
  }
  if (p.runUrl)
    out.push(
      '',
      `[This run](${p.runUrl})${p.reportName ? ` · report: \`${inert(p.reportName)}\` in the job's workspace` : ''}`,
    );
  return withReport(fitBody(out.join('\n'), limit), p.reportMarkdown, limit);
}

/** The report folded under the summary, cut to the room the limit leaves; left out when little room is left. */
function withReport(head: string, reportMarkdown: string | undefined, limit: number): string {
  const room = limit - head.length - 300;
  if (!reportMarkdown || room < 1000) return head;
  const report =
    reportMarkdown.length > room
      ? `${reportMarkdown.slice(0, room)}\n\n… (cut to fit GitHub's comment limit; the whole report is in the job's workspace)`
      : reportMarkdown;
  return fitBody(`${head}\n\n<details><summary>The report</summary>\n\n${fenced(report)}`, limit, '\n\n</details>');
}

/** Text shown as it is, in a fence longer than any run of backticks inside: no HTML, no mentions, no markdown. */
function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}markdown\n${text}\n${fence}`;
}

/** What the run did not cover, one line each. */
function notReviewed(result: ReviewResult): string[] {
  const out = result.failed.map((u) => `${u.file ?? 'the run'}: ${u.step} ${u.unit} failed (${u.reason})`);
  if (result.stop) out.push(`stopped early: ${result.stop.message}`);
  return out;
}

/** A workflow command for one finding (error, warning or notice by priority), as the runner parses it. */
export function annotation(f: Finding): string {
  const level = f.priority === 'must_fix' ? 'error' : f.priority === 'should_fix' ? 'warning' : 'notice';
  const props = [
    `file=${property(f.file)}`,
    `line=${f.line}`,
    ...(f.end_line && f.end_line > f.line ? [`endLine=${f.end_line}`] : []),
  ];
  props.push(`title=${property(`Skeptic ${ruleLabel(f.rule_id)} (${PRIORITY[f.priority]})`)}`);
  return `::${level} ${props.join(',')}::${data(terminalText(`${f.action} — ${f.rationale}`))}`;
}

/**
 * The runner's escapes: a command's data escapes %, CR and LF; a property also ':' and ','. The runner's
 * older `##[command]` form may appear anywhere in a line: its bracket is written escaped too.
 */
function data(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/##\[/g, '##%5B');
}

function property(s: string): string {
  return data(terminalText(s)).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
