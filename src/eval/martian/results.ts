/**
 * Published scores to stand beside ours, worked out at run time from the benchmark's per-PR results
 * (offline/results/<judge>/evaluations.json, one set per judge model) over exactly the PRs this run scored:
 * each tool's true positives, false positives and misses summed over those PRs, then divided. Never a
 * figure measured on other PRs, with another judge, or against another golden set: when the run's judge has
 * no published results, a PR has none, or a PR's published golden comments are not the ones the run scored
 * against, there is no reference and the reason says which. Under a profile, a tool's true positives and
 * misses count only the golden comments of the profile's categories, and its false positives all count.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { EvalCase } from '../cases';
import { scores, sumTallies, type Tally } from '../score';
import { inProfile, type ProfileName } from './profiles';

export const RESULTS_FILE = 'evaluations.json';
const DASHBOARD_FILE = 'analysis/benchmark_dashboard.json';

export interface ReferenceScore {
  tool: string;
  precision: number | null;
  recall: number | null;
  f1: number | null;
}

export type Reference =
  { source: string; judgeModel: string; prs: number; scores: ReferenceScore[] } | { none: string };

const Golden = z.looseObject({ golden_comment: z.string() });
const Evaluation = z.looseObject({
  skipped: z.boolean().optional(),
  tp: z.number().int().nonnegative().optional(),
  fp: z.number().int().nonnegative().optional(),
  fn: z.number().int().nonnegative().optional(),
  true_positives: z.array(Golden).default([]),
  false_negatives: z.array(Golden).default([]),
});
type Evaluation = z.infer<typeof Evaluation>;
const Evaluations = z.record(z.string(), z.record(z.string(), Evaluation));
const Dashboard = z.looseObject({ tool_display_names: z.record(z.string(), z.string()).optional() });

/** The published results folder of a judge model: `<provider>_<model>`, as the benchmark names them. */
async function judgeFolder(resultsDir: string, model: string): Promise<string | { none: string }> {
  const dirs = (await readdir(resultsDir, { withFileTypes: true }).catch(() => []))
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  if (!dirs.length) return { none: `the benchmark data has no published results beside it (${resultsDir})` };
  return (
    dirs.find((d) => d === model || d.endsWith(`_${model}`)) ?? {
      none: `the benchmark publishes no results judged by ${model} (judges with results: ${dirs.join(', ')})`,
    }
  );
}

/** The published figures over `cases` (the PRs scored), for `judgeModel`, under `profile`. */
export async function publishedReference(
  offlineDir: string,
  judgeModel: string,
  cases: EvalCase[],
  profile: ProfileName | null,
  commit: string | null,
): Promise<Reference> {
  if (!cases.length) return { none: 'no PR was scored' };
  const resultsDir = join(offlineDir, 'results');
  const folder = await judgeFolder(resultsDir, judgeModel);
  if (typeof folder !== 'string') return folder;
  const file = join('offline', 'results', folder, RESULTS_FILE);
  let all;
  try {
    all = Evaluations.safeParse(JSON.parse(await readFile(join(resultsDir, folder, RESULTS_FILE), 'utf8')));
  } catch (err) {
    return { none: `${file} could not be read (${(err as Error).message})` };
  }
  if (!all.success) return { none: `${file} is not in the expected shape (${all.error.issues[0]!.message})` };
  const perTool = new Map<string, Tally[]>();
  for (const c of cases) {
    const published = all.data[c.url];
    if (!published) return { none: `${file} has no results for ${c.url}` };
    const category = new Map(c.golden.map((g) => [g.text, g.category]));
    for (const [tool, e] of Object.entries(published)) {
      if (e.skipped) continue;
      const mismatch = goldenMismatch(e, c);
      if (mismatch) return { none: `${file} judged ${c.url} against other golden comments (${mismatch})` };
      const counts = (list: Evaluation['true_positives']) =>
        list.filter((g) => inProfile(profile, category.get(g.golden_comment))).length;
      const tp = profile ? counts(e.true_positives) : (e.tp ?? e.true_positives.length);
      const fn = profile ? counts(e.false_negatives) : (e.fn ?? e.false_negatives.length);
      const tally = { findings: 0, golden: tp + fn, matched: tp, tp, fp: e.fp ?? 0, fn };
      perTool.set(tool, [...(perTool.get(tool) ?? []), tally]);
    }
  }
  const names = await displayNames(offlineDir);
  const complete = [...perTool].filter(([, t]) => t.length === cases.length);
  const rows = complete
    .map(([tool, tallies]) => ({ tool: names[tool] ?? tool, ...scores(sumTallies(tallies)) }))
    .sort((a, b) => (b.f1 ?? -1) - (a.f1 ?? -1) || a.tool.localeCompare(b.tool));
  const at = commit ? ` at ${commit.slice(0, 7)}` : '';
  const left = perTool.size - complete.length;
  return {
    source: `withmartian/code-review-benchmark${at}, ${file}${left ? `; ${left} tools without results on every one of these PRs left out` : ''}`,
    judgeModel,
    prs: cases.length,
    scores: rows,
  };
}

/** Why a published result was judged against other golden comments than the run's, or null when the same. */
function goldenMismatch(e: Evaluation, c: EvalCase): string | null {
  const theirs = [...e.true_positives, ...e.false_negatives].map((g) => g.golden_comment).sort();
  const ours = c.golden.map((g) => g.text).sort();
  if (theirs.length !== ours.length) return `${theirs.length} there, ${ours.length} here`;
  return theirs.every((t, i) => t === ours[i]) ? null : 'the texts differ';
}

/** The benchmark's display names of its tools (its dashboard's), else the keys its results use. */
async function displayNames(offlineDir: string): Promise<Record<string, string>> {
  try {
    const parsed = Dashboard.safeParse(JSON.parse(await readFile(join(offlineDir, DASHBOARD_FILE), 'utf8')));
    return parsed.success ? (parsed.data.tool_display_names ?? {}) : {};
  } catch {
    return {};
  }
}
