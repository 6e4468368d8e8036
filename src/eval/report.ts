/**
 * An evaluation's outputs: the table a person reads (per PR, totals, recall per severity or category, published
 * scores beside ours when the run is comparable with them) and the JSON a person audits the judge with (every
 * judgement, with its reason, and what the run was: Skeptic's version, models, protocol, benchmark commit).
 */
import { z } from 'zod';
import { formatUsd } from '../model/pricing';
import { findingText } from './judge';
import type { Benchmark } from './data';
import type { PrOutcome } from './run';
import { sumCost } from './run';
import { groupRecall, MATCHINGS, missed, scores, sumTallies, type Matching, type Scores, type Tally } from './score';

const Ratio = z.number().min(0).max(1).nullable();
const Count = z.number().int();
const TallyRecord = z.object({ findings: Count, golden: Count, matched: Count });
const CountsRecord = z.object({ tp: Count, fp: Count, fn: Count });
const ScoresRecord = z.object({ precision: Ratio, recall: Ratio, f1: Ratio });
const Usd = z.number().nullable();

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
  reference: z
    .object({
      source: z.string(),
      scores: z.array(z.object({ tool: z.string(), precision: z.number(), recall: z.number(), f1: z.number() })),
    })
    .nullable(),
});
export type EvalJson = z.infer<typeof EvalJson>;

/** What the run was, for the headline and the JSON. */
export interface EvalMeta {
  mode: 'staged' | 'lenses';
  reviewModels: Record<string, string>;
  judgeModel: string;
  matching: Matching;
  version: string;
  benchmarkCommit: string | null;
  date: Date;
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
}

export function evalSummary(outcomes: PrOutcome[], bench: Benchmark): EvalSummary {
  const tally = sumTallies(outcomes.map((o) => o.tally ?? missed(o.case.golden.length)));
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
  };
}

const pct = (r: number | null) => (r === null ? '—' : `${(100 * r).toFixed(1)}%`);

const PROTOCOL_NAME: Record<Matching, string> = {
  martian: "the benchmark's own counting",
  'one-to-one': 'one-to-one matching, stricter than the published counting',
};

export function renderTable(outcomes: PrOutcome[], bench: Benchmark, meta: EvalMeta): string {
  const rows: string[][] = [['PR', 'findings', 'golden', 'matched', 'precision', 'recall', 'review', 'judge', 'time']];
  for (const o of outcomes) {
    const s = o.tally && scores(o.tally);
    const t = o.tally;
    rows.push([
      o.case.url,
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
  const sum = evalSummary(outcomes, bench);
  rows.push([
    'total',
    `${sum.tally.findings}`,
    `${sum.tally.golden}`,
    `${sum.tally.matched}`,
    pct(sum.scores.precision),
    pct(sum.scores.recall),
    formatUsd(sum.reviewUsd),
    formatUsd(sum.judgeUsd),
    `${outcomes.reduce((n, o) => n + o.seconds, 0).toFixed(0)}s`,
  ]);
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) =>
    r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
  const out = rows.map(line);
  out.splice(rows.length - 1, 0, widths.map((w) => '-'.repeat(w)).join('  '));
  for (const o of outcomes) if (o.error) out.push(`not scored: ${o.case.url}: ${o.error}`);
  for (const o of outcomes)
    if (o.checkout?.base.source === 'merge-base')
      out.push(`base: ${o.case.url}: the merge base with the default branch (${o.checkout.base.why ?? 'no PR base'})`);
  for (const o of outcomes)
    if (o.failedUnits)
      out.push(`incomplete review: ${o.case.url}: ${o.failedUnits} units failed (see ${o.reportPath})`);
  out.push('');
  const figures = `precision ${pct(sum.scores.precision)} · recall ${pct(sum.scores.recall)} · F1 ${pct(sum.scores.f1)}`;
  const how = `${PROTOCOL_NAME[meta.matching]}; judge ${meta.judgeModel}`;
  if (sum.complete) out.push(`Skeptic: ${figures} over ${sum.selected} scored PRs`);
  else {
    out.push(`incomplete: ${sum.scored} of ${sum.selected} PRs scored — not comparable`);
    out.push(`  Skeptic, the ${sum.failed} unscored counted as PRs without findings: ${figures}`);
  }
  out.push(`Counting: ${how}`);
  out.push(
    `Recall by golden ${bench.groupBy}: ${sum.byGroup.map((g) => `${g.group} ${g.matched}/${g.golden}`).join(' · ')}`,
  );
  out.push(`Cost: review ${formatUsd(sum.reviewUsd)} · judge ${formatUsd(sum.judgeUsd)}`);
  if (bench.reference && sum.complete) {
    const note = meta.matching === bench.matching ? '' : ` — counted their way, not ${meta.matching}`;
    out.push(`Published, for context (${bench.reference.source}${note}):`);
    for (const r of bench.reference.scores)
      out.push(
        `  ${r.tool.padEnd(16)} precision ${r.precision.toFixed(1)}% · recall ${r.recall.toFixed(1)}% · F1 ${r.f1.toFixed(1)}%`,
      );
  }
  return out.join('\n') + '\n';
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
    complete: sum.complete,
    prs: outcomes.map((o) => {
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
          reason: j.verdict?.reason ?? `judge call failed: ${j.error ?? 'unknown'}`,
        })),
      };
    }),
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
    reference: bench.reference,
  });
}
