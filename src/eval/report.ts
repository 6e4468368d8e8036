/**
 * An evaluation's outputs: the table a person reads (per PR, totals, recall per severity or category, published
 * scores beside ours when the run is comparable with them) and the JSON a person audits the judge with (every
 * judgement, with its reason, and what the run was: Skeptic's version, models, protocol, benchmark commit).
 */
import { z } from 'zod';
import { formatUsd } from '../model/pricing';
import { findingText } from './judge';
import type { Benchmark } from './data';
import type { Reference } from './martian/results';
import { PROFILE_NAMES, type ProfileName } from './martian/profiles';
import type { PrOutcome } from './run';
import { sumCost } from './run';
import { PRIORITY_CUTS, type PriorityCut } from './slices';
import { groupRecall, MATCHINGS, missed, scores, sumTallies, type Matching, type Scores, type Tally } from './score';

const Ratio = z.number().min(0).max(1).nullable();
const Count = z.number().int();
const TallyRecord = z.object({ findings: Count, golden: Count, matched: Count });
const CountsRecord = z.object({ tp: Count, fp: Count, fn: Count });
const ScoresRecord = z.object({ precision: Ratio, recall: Ratio, f1: Ratio });
const Usd = z.number().nullable();
const Figures = CountsRecord.extend(ScoresRecord.shape);

export const EvalJson = z.object({
  benchmark: z.string(),
  /** The benchmark repository's commit the golden comments come from (null: a --data folder outside it). */
  benchmark_commit: z.string().nullable(),
  date: z.string(),
  skeptic_version: z.string(),
  mode: z.enum(['staged', 'lenses']),
  /** Step (staged) or reviewer role (lenses) → model. */
  review_models: z.record(z.string(), z.string()),
  judge_model: z.string(),
  /** `martian`: the benchmark's own counting; `one-to-one`: Skeptic's stricter one (score.ts). */
  protocol: z.enum(MATCHINGS),
  /** The data's ref asked for (--data-ref, or the pinned commit); null for a --data folder. */
  data_ref: z.string().nullable(),
  /** Whose judge prompt the judge was sent: the benchmark's own (read from its repository) or Skeptic's. */
  judge_prompt: z.string(),
  /** The benchmark's profile (data with categories): which golden comments count. */
  profile: z.enum(PROFILE_NAMES).nullable(),
  /** What was scored: what the bot would post (main and pre-existing findings), or the main findings alone. */
  candidates: z.enum(['main_and_pre_existing', 'main']),
  /** Every selected PR fetched, reviewed and judged: only then do the totals compare with published scores. */
  complete: z.boolean(),
  prs: z.array(
    z.object({
      url: z.string(),
      title: z.string(),
      scored: z.boolean(),
      error: z.string().nullable(),
      /** Which base the review compared against, and why the PR's own base was not used if it was not. */
      base: z.object({ source: z.enum(['benchmark', 'github', 'merge-base']), why: z.string().nullable() }).nullable(),
      report_path: z.string().nullable(),
      /** Files the checked-out change touches, files the benchmark recorded; drift when both are known and differ. */
      files_changed: Count.nullable(),
      files_recorded: Count.nullable(),
      head_drift: z.boolean(),
      failed_units: Count,
      tally: TallyRecord.nullable(),
      counts: CountsRecord.nullable(),
      scores: ScoresRecord.nullable(),
      review_calls: Count,
      judge_calls: Count,
      cost_usd: Usd,
      review_cost_usd: Usd,
      judge_cost_usd: Usd,
      seconds: z.number(),
      golden: z.array(
        z.object({
          text: z.string(),
          group: z.string(),
          location: z.object({ path: z.string(), side: z.enum(['left', 'right']), from: Count, to: Count }).nullable(),
          matched_finding: z.string().nullable(),
        }),
      ),
      findings: z.array(z.object({ text: z.string(), matched_golden: z.string().nullable() })),
      judgements: z.array(
        z.object({
          golden: z.string(),
          finding: z.string(),
          match: z.boolean().nullable(),
          confidence: z.number().nullable(),
          reason: z.string(),
        }),
      ),
    }),
  ),
  totals: TallyRecord.extend(CountsRecord.shape)
    .extend(ScoresRecord.shape)
    .extend({
      prs_selected: Count,
      prs_scored: Count,
      prs_failed: Count,
      cost_usd: Usd,
      review_cost_usd: Usd,
      judge_cost_usd: Usd,
      group_by: z.enum(['severity', 'category']),
      recall_by_group: z.array(z.object({ group: z.string(), golden: Count, matched: Count })),
    }),
  /** The main findings alone, from the same judgements, over every selected PR (null: only they were scored). */
  main_only: Figures.nullable(),
  /** From the same judgements, the candidates at or above each priority; recall always over all golden comments. */
  slices: z.array(Figures.extend({ min_priority: z.enum(PRIORITY_CUTS) })),
  /** Published figures on exactly the PRs scored, judged by this run's judge model; null with the reason why not. */
  reference: z
    .object({
      source: z.string(),
      judge_model: z.string(),
      prs: Count,
      scores: z.array(z.object({ tool: z.string() }).extend(ScoresRecord.shape)),
    })
    .nullable(),
  reference_none: z.string().nullable(),
});
export type EvalJson = z.infer<typeof EvalJson>;

/** What the run was, for the headline and the JSON. */
export interface EvalMeta {
  mode: 'staged' | 'lenses';
  reviewModels: Record<string, string>;
  judgeModel: string;
  judgeSource: string;
  matching: Matching;
  profile: ProfileName | null;
  includePreExisting: boolean;
  version: string;
  dataRef: string | null;
  benchmarkCommit: string | null;
  date: Date;
  reference: Reference;
}

export interface EvalSummary {
  /** Over every selected PR: an unscored one counts as a PR with no candidates. */
  tally: Tally;
  scores: Scores;
  selected: number;
  scored: number;
  failed: number;
  complete: boolean;
  reviewUsd: number | null;
  judgeUsd: number | null;
  byGroup: ReturnType<typeof groupRecall>;
  /** Over the scored PRs only: what published figures on the same PRs compare with. */
  scoredTally: Tally;
  mainOnly: Tally | null;
  slices: Array<{ minPriority: PriorityCut; tally: Tally }>;
}

export function evalSummary(outcomes: PrOutcome[], bench: Benchmark): EvalSummary {
  const total = (pick: (o: PrOutcome) => Tally | null | undefined) =>
    sumTallies(outcomes.map((o) => (o.tally && pick(o)) || missed(o.counted)));
  const tally = total((o) => o.tally);
  const byGroup = groupRecall(
    outcomes.flatMap((o) => o.case.golden.map((g, i) => ({ group: g.group, matched: o.assignment.matches.has(i) }))),
    bench.groupOrder,
  );
  const scored = outcomes.filter((o) => o.tally).length;
  return {
    tally,
    scores: scores(tally),
    selected: outcomes.length,
    scored,
    failed: outcomes.length - scored,
    complete: scored === outcomes.length,
    reviewUsd: outcomes.reduce<number | null>((n, o) => sumCost(n, o.reviewCostUsd), 0),
    judgeUsd: outcomes.reduce<number | null>((n, o) => sumCost(n, o.judgeCostUsd), 0),
    byGroup,
    scoredTally: sumTallies(outcomes.flatMap((o) => o.tally ?? [])),
    mainOnly: outcomes.some((o) => o.mainOnly) ? total((o) => o.mainOnly) : null,
    slices: PRIORITY_CUTS.map((cut) => ({
      minPriority: cut,
      tally: total((o) => o.slices.find((s) => s.minPriority === cut)?.tally),
    })),
  };
}

const pct = (r: number | null) => (r === null ? '—' : `${(100 * r).toFixed(1)}%`);

const PROTOCOL_NAME: Record<Matching, string> = {
  martian: "the benchmark's own crediting",
  'one-to-one': 'one-to-one matching, stricter than the published counting',
};

const CUT_NAME: Record<PriorityCut, string> = {
  nice_to_have: 'all findings',
  should_fix: 'must-fix + should-fix',
  must_fix: 'must-fix',
};

/** Whether the checked-out change touches another number of files than the benchmark recorded for the PR. */
export const headDrift = (o: Pick<PrOutcome, 'filesChanged' | 'case'>) =>
  o.filesChanged !== null && o.case.filesRecorded !== undefined && o.filesChanged !== o.case.filesRecorded;

const figures = (t: Tally) => {
  const s = scores(t);
  return `precision ${pct(s.precision)} · recall ${pct(s.recall)} · F1 ${pct(s.f1)}`;
};

export function renderTable(outcomes: PrOutcome[], bench: Benchmark, meta: EvalMeta): string {
  const sum = evalSummary(outcomes, bench);
  const rows = tableRows(outcomes, sum);
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) =>
    r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
  const out = rows.map(line);
  out.splice(rows.length - 1, 0, widths.map((w) => '-'.repeat(w)).join('  '));
  out.push(...prNotes(outcomes));
  out.push('');
  const candidates = meta.includePreExisting ? 'main and pre-existing findings' : 'main findings';
  if (sum.complete) out.push(`Skeptic: ${figures(sum.tally)} over ${sum.selected} scored PRs (${candidates})`);
  else {
    out.push(`incomplete: ${sum.scored} of ${sum.selected} PRs scored — not comparable`);
    out.push(`  Skeptic, the ${sum.failed} unscored counted as PRs without findings: ${figures(sum.tally)}`);
  }
  if (sum.mainOnly) out.push(`  main findings only: ${figures(sum.mainOnly)}`);
  out.push(
    `By priority (the same judgements; recall over all ${sum.tally.golden} golden comments):`,
    ...sum.slices.map(
      (c) =>
        `  ${CUT_NAME[c.minPriority].padEnd(22)} ${figures(c.tally)} (tp ${c.tally.tp} · fp ${c.tally.fp} · fn ${c.tally.fn})`,
    ),
  );
  const profile = meta.profile ? `; profile ${meta.profile}` : '';
  out.push(`Counting: ${PROTOCOL_NAME[meta.matching]}; judge ${meta.judgeModel}, prompt ${meta.judgeSource}${profile}`);
  out.push(
    `Recall by golden ${bench.groupBy}: ${sum.byGroup.map((g) => `${g.group} ${g.matched}/${g.golden}`).join(' · ')}`,
  );
  out.push(`Cost: review ${formatUsd(sum.reviewUsd)} · judge ${formatUsd(sum.judgeUsd)}`);
  out.push(...referenceLines(meta, sum));
  return out.join('\n') + '\n';
}

/** The table's rows: the header, one per PR, and the totals. */
function tableRows(outcomes: PrOutcome[], sum: EvalSummary): string[][] {
  const rows: string[][] = [
    ['PR', 'files', 'findings', 'golden', 'matched', 'precision', 'recall', 'review', 'judge', 'time'],
  ];
  for (const o of outcomes) {
    const s = o.tally && scores(o.tally);
    const t = o.tally;
    rows.push([
      o.case.url,
      o.filesChanged === null ? '-' : `${o.filesChanged}${headDrift(o) ? ` ≠ ${o.case.filesRecorded}` : ''}`,
      t ? `${t.findings}` : '-',
      t ? `${t.golden}` : '-',
      t ? `${t.matched}` : '-',
      s ? pct(s.precision) : '-',
      s ? pct(s.recall) : '-',
      formatUsd(o.reviewCostUsd),
      formatUsd(o.judgeCostUsd),
      `${o.seconds.toFixed(0)}s`,
    ]);
  }
  rows.push([
    'total',
    '',
    `${sum.tally.findings}`,
    `${sum.tally.golden}`,
    `${sum.tally.matched}`,
    pct(sum.scores.precision),
    pct(sum.scores.recall),
    formatUsd(sum.reviewUsd),
    formatUsd(sum.judgeUsd),
    `${outcomes.reduce((n, o) => n + o.seconds, 0).toFixed(0)}s`,
  ]);
  return rows;
}

/** The lines under the table about single PRs: not scored, head drift, a merge-base base, units that failed. */
function prNotes(outcomes: PrOutcome[]): string[] {
  const notes: string[] = [];
  for (const o of outcomes) if (o.error) notes.push(`not scored: ${o.case.url}: ${o.error}`);
  for (const o of outcomes)
    if (headDrift(o))
      notes.push(
        `head drift: ${o.case.url}: the checkout touches ${o.filesChanged} files, the benchmark recorded ${o.case.filesRecorded}`,
      );
  for (const o of outcomes)
    if (o.checkout?.base.source === 'merge-base')
      notes.push(
        `base: ${o.case.url}: the merge base with the default branch (${o.checkout.base.why ?? 'no PR base'})`,
      );
  for (const o of outcomes)
    if (o.failedUnits)
      notes.push(`incomplete review: ${o.case.url}: ${o.failedUnits} units failed (see ${o.reportPath})`);
  return notes;
}

/** The published figures on the same PRs, or why there are none. */
function referenceLines(meta: EvalMeta, sum: EvalSummary): string[] {
  const ref = meta.reference;
  if ('none' in ref) return [`Published figures: none to compare with — ${ref.none}`];
  const note = meta.matching === 'martian' ? '' : ` — counted their way, not ${meta.matching}`;
  const out = [`Published on the same ${ref.prs} PRs, judge ${ref.judgeModel} (${ref.source}${note}):`];
  if (!sum.complete) out.push(`  ${'Skeptic'.padEnd(16)} ${figures(sum.scoredTally)}`);
  for (const r of ref.scores)
    out.push(`  ${r.tool.padEnd(16)} precision ${pct(r.precision)} · recall ${pct(r.recall)} · F1 ${pct(r.f1)}`);
  return out;
}

export function evalJson(outcomes: PrOutcome[], bench: Benchmark, meta: EvalMeta): EvalJson {
  const sum = evalSummary(outcomes, bench);
  return EvalJson.parse({
    benchmark: bench.name,
    benchmark_commit: meta.benchmarkCommit,
    date: meta.date.toISOString(),
    skeptic_version: meta.version,
    mode: meta.mode,
    review_models: meta.reviewModels,
    judge_model: meta.judgeModel,
    protocol: meta.matching,
    data_ref: meta.dataRef,
    judge_prompt: meta.judgeSource,
    profile: meta.profile,
    candidates: meta.includePreExisting ? 'main_and_pre_existing' : 'main',
    complete: sum.complete,
    prs: outcomes.map(prJson),
    totals: {
      ...sum.tally,
      ...sum.scores,
      prs_selected: sum.selected,
      prs_scored: sum.scored,
      prs_failed: sum.failed,
      cost_usd: sumCost(sum.reviewUsd, sum.judgeUsd),
      review_cost_usd: sum.reviewUsd,
      judge_cost_usd: sum.judgeUsd,
      group_by: bench.groupBy,
      recall_by_group: sum.byGroup,
    },
    main_only: sum.mainOnly && figuresRecord(sum.mainOnly),
    slices: sum.slices.map((c) => ({ min_priority: c.minPriority, ...figuresRecord(c.tally) })),
    reference:
      'none' in meta.reference
        ? null
        : {
            source: meta.reference.source,
            judge_model: meta.reference.judgeModel,
            prs: meta.reference.prs,
            scores: meta.reference.scores,
          },
    reference_none: 'none' in meta.reference ? meta.reference.none : null,
  });
}

/** One PR's record: its figures, and every judgement with the reason the judge gave. */
function prJson(o: PrOutcome): EvalJson['prs'][number] {
  const texts = o.findings.map(findingText);
  const { matches, credited } = o.assignment;
  const answered = (f: number) =>
    [...matches].find(([, m]) => m === f)?.[0] ??
    o.judgements.find((j) => j.finding === f && j.verdict?.match && j.verdict.confidence > 0)?.golden;
  return {
    url: o.case.url,
    title: o.case.title,
    scored: o.tally !== null,
    error: o.error ?? null,
    base: o.checkout ? { source: o.checkout.base.source, why: o.checkout.base.why ?? null } : null,
    report_path: o.reportPath ?? null,
    files_changed: o.filesChanged,
    files_recorded: o.case.filesRecorded ?? null,
    head_drift: headDrift(o),
    failed_units: o.failedUnits,
    tally: o.tally && { findings: o.tally.findings, golden: o.tally.golden, matched: o.tally.matched },
    counts: o.tally && { tp: o.tally.tp, fp: o.tally.fp, fn: o.tally.fn },
    scores: o.tally && scores(o.tally),
    review_calls: o.reviewCalls,
    judge_calls: o.judgeCalls,
    cost_usd: sumCost(o.reviewCostUsd, o.judgeCostUsd),
    review_cost_usd: o.reviewCostUsd,
    judge_cost_usd: o.judgeCostUsd,
    seconds: o.seconds,
    golden: o.case.golden.map((g, i) => ({
      text: g.text,
      group: g.group,
      location: g.location ?? null,
      matched_finding: matches.has(i) ? texts[matches.get(i)!]! : null,
    })),
    findings: texts.map((text, f) => {
      const g = credited.has(f) ? answered(f) : undefined;
      return { text, matched_golden: g === undefined ? null : o.case.golden[g]!.text };
    }),
    judgements: o.judgements.map((j) => ({
      golden: o.case.golden[j.golden]!.text,
      finding: texts[j.finding]!,
      match: j.verdict?.match ?? null,
      confidence: j.verdict?.confidence ?? null,
      reason: j.verdict?.reasoning ?? `judge call failed: ${j.error ?? 'unknown'}`,
    })),
  };
}

const figuresRecord = (t: Tally) => ({ tp: t.tp, fp: t.fp, fn: t.fn, ...scores(t) });
