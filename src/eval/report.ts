/**
 * An evaluation's outputs: the table a person reads (per PR, totals, recall per severity or category, published scores
 * beside ours) and the JSON a person audits the judge with (every judgement, with its reason).
 */
import { z } from 'zod';
import { formatUsd } from '../model/pricing';
import { findingText } from './judge';
import type { Benchmark } from './data';
import type { PrOutcome } from './run';
import { groupRecall, scores, sumTallies, type Scores, type Tally } from './score';
import { sumCost } from './run';

const Ratio = z.number().min(0).max(1).nullable();
const TallyRecord = z.object({ findings: z.number().int(), golden: z.number().int(), matched: z.number().int() });
const ScoresRecord = z.object({ precision: Ratio, recall: Ratio, f1: Ratio });

export const EvalJson = z.object({
  benchmark: z.string(),
  date: z.string(),
  mode: z.enum(['staged', 'lenses']),
  judge_model: z.string(),
  prs: z.array(
    z.object({
      url: z.string(),
      title: z.string(),
      scored: z.boolean(),
      error: z.string().nullable(),
      report_path: z.string().nullable(),
      failed_units: z.number().int(),
      tally: TallyRecord.nullable(),
      scores: ScoresRecord.nullable(),
      review_calls: z.number().int(),
      judge_calls: z.number().int(),
      cost_usd: z.number().nullable(),
      seconds: z.number(),
      golden: z.array(
        z.object({
          text: z.string(),
          group: z.string(),
          location: z
            .object({ path: z.string(), side: z.enum(['left', 'right']), from: z.number().int(), to: z.number().int() })
            .nullable(),
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
  totals: TallyRecord.extend(ScoresRecord.shape).extend({
    prs_scored: z.number().int(),
    prs_failed: z.number().int(),
    cost_usd: z.number().nullable(),
    group_by: z.enum(['severity', 'category']),
    recall_by_group: z.array(z.object({ group: z.string(), golden: z.number().int(), matched: z.number().int() })),
  }),
  reference: z
    .object({
      source: z.string(),
      scores: z.array(z.object({ tool: z.string(), precision: z.number(), recall: z.number(), f1: z.number() })),
    })
    .nullable(),
});
export type EvalJson = z.infer<typeof EvalJson>;

export interface EvalSummary {
  tally: Tally;
  scores: Scores;
  scored: number;
  failed: number;
  costUsd: number | null;
  byGroup: ReturnType<typeof groupRecall>;
}

export function summarize(outcomes: PrOutcome[], bench: Benchmark): EvalSummary {
  const scored = outcomes.filter((o) => o.tally);
  const tally = sumTallies(scored.map((o) => o.tally!));
  const byGroup = groupRecall(
    scored.flatMap((o) => o.case.golden.map((g, i) => ({ group: g.group, matched: o.matches.has(i) }))),
    bench.groupOrder,
  );
  return {
    tally,
    scores: scores(tally),
    scored: scored.length,
    failed: outcomes.length - scored.length,
    costUsd: outcomes.reduce<number | null>((n, o) => sumCost(n, o.costUsd), 0),
    byGroup,
  };
}

const pct = (r: number | null) => (r === null ? '—' : `${(100 * r).toFixed(1)}%`);

export function renderTable(outcomes: PrOutcome[], bench: Benchmark): string {
  const rows: string[][] = [['PR', 'findings', 'golden', 'matched', 'precision', 'recall', 'cost', 'time']];
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
      formatUsd(o.costUsd),
      `${o.seconds.toFixed(0)}s`,
    ]);
  }
  const sum = summarize(outcomes, bench);
  rows.push([
    'total',
    `${sum.tally.findings}`,
    `${sum.tally.golden}`,
    `${sum.tally.matched}`,
    pct(sum.scores.precision),
    pct(sum.scores.recall),
    formatUsd(sum.costUsd),
    `${outcomes.reduce((n, o) => n + o.seconds, 0).toFixed(0)}s`,
  ]);
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) =>
    r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
  const out = rows.map(line);
  out.splice(rows.length - 1, 0, widths.map((w) => '-'.repeat(w)).join('  '));
  for (const o of outcomes) if (o.error) out.push(`not scored: ${o.case.url}: ${o.error}`);
  for (const o of outcomes) {
    const failed = o.judgements.filter((j) => !j.verdict).length;
    if (failed)
      out.push(
        `judge failed: ${o.case.url}: ${failed} of ${o.judgements.length} judgements (counted as no match; reasons in --json)`,
      );
  }
  for (const o of outcomes)
    if (o.failedUnits)
      out.push(`incomplete review: ${o.case.url}: ${o.failedUnits} units failed (see ${o.reportPath})`);
  out.push('');
  out.push(
    `Skeptic: precision ${pct(sum.scores.precision)} · recall ${pct(sum.scores.recall)} · F1 ${pct(sum.scores.f1)} over ${sum.scored} scored PRs${sum.failed ? ` (${sum.failed} not scored)` : ''}`,
  );
  out.push(
    `Recall by golden ${bench.groupBy}: ${sum.byGroup.map((g) => `${g.group} ${g.matched}/${g.golden}`).join(' · ')}`,
  );
  if (bench.reference) out.push(`Published, for context (${bench.reference.source}):`);
  for (const r of bench.reference?.scores ?? [])
    out.push(
      `  ${r.tool.padEnd(16)} precision ${r.precision.toFixed(1)}% · recall ${r.recall.toFixed(1)}% · F1 ${r.f1.toFixed(1)}%`,
    );
  return out.join('\n') + '\n';
}

export function evalJson(
  outcomes: PrOutcome[],
  bench: Benchmark,
  meta: { mode: 'staged' | 'lenses'; judgeModel: string; date: Date },
): EvalJson {
  const sum = summarize(outcomes, bench);
  return EvalJson.parse({
    benchmark: bench.name,
    date: meta.date.toISOString(),
    mode: meta.mode,
    judge_model: meta.judgeModel,
    prs: outcomes.map((o) => {
      const texts = o.findings.map(findingText);
      const matchedBy = new Map([...o.matches].map(([g, f]) => [f, g]));
      return {
        url: o.case.url,
        title: o.case.title,
        scored: o.tally !== null,
        error: o.error ?? null,
        report_path: o.reportPath ?? null,
        failed_units: o.failedUnits,
        tally: o.tally,
        scores: o.tally && scores(o.tally),
        review_calls: o.reviewCalls,
        judge_calls: o.judgeCalls,
        cost_usd: o.costUsd,
        seconds: o.seconds,
        golden: o.case.golden.map((g, i) => ({
          text: g.text,
          group: g.group,
          location: g.location ?? null,
          matched_finding: o.matches.has(i) ? texts[o.matches.get(i)!]! : null,
        })),
        findings: texts.map((text, f) => ({
          text,
          matched_golden: matchedBy.has(f) ? o.case.golden[matchedBy.get(f)!]!.text : null,
        })),
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
      prs_scored: sum.scored,
      prs_failed: sum.failed,
      cost_usd: sum.costUsd,
      group_by: bench.groupBy,
      recall_by_group: sum.byGroup,
    },
    reference: bench.reference,
  });
}
