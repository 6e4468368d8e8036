/**
 * The Martian Code Review Bench (withmartian/code-review-benchmark, MIT): one JSON file per project under
 * offline/golden_comments/, each an array of PR records with golden comments rated Low to Critical (and, in
 * newer data, a category); beside it offline/results/ holds the published per-PR results of each judge and
 * pr_labels.json, which records how many files each PR touches.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { parsePullUrl } from '../checkout';
import { DataError, inRecord, readRecords, type Benchmark } from '../data';
import { benchmarkJudge, JUDGE_FILE } from './judgePrompt';
import { publishedReference, RESULTS_FILE } from './results';

export const SEVERITIES = ['Critical', 'High', 'Medium', 'Low'] as const;

/**
 * The commit whose golden set (50 PRs, 137 comments) the published results of all three judges score: the
 * default data, so a run is compared with what the table measured.
 */
export const MARTIAN_PINNED = { ref: '012d68202e56280855b85abb956410086008a7b2', prs: 50, comments: 137 };

/** The judge model of the benchmark's headline table (it also publishes Sonnet 4.5's and GPT-5.2's). */
export const MARTIAN_JUDGE_MODEL = 'claude-opus-4-5-20251101';

/** One PR record; fields the evaluation does not use (original_url, az_comment, …) are allowed and ignored. */
export const MartianRecord = z.looseObject({
  pr_title: z.string(),
  url: z.string().min(1),
  comments: z.array(
    z.looseObject({
      comment: z.string().min(1),
      severity: z.enum(SEVERITIES),
      category: z.string().min(1).optional(),
    }),
  ),
});

const LABELS_FILE = 'results/pr_labels.json';
const PrLabels = z.record(
  z.string(),
  z.looseObject({ derived: z.looseObject({ num_files_touched: z.number().int().nonnegative().optional() }) }),
);

export const MARTIAN: Benchmark = {
  name: 'martian',
  title: 'Martian Code Review Bench',
  repo: 'https://github.com/withmartian/code-review-benchmark',
  folder: 'offline/golden_comments',
  alsoFetch: [
    `offline/${LABELS_FILE}`,
    `offline/results/*/${RESULTS_FILE}`,
    'offline/analysis/benchmark_dashboard.json',
    `offline/${JUDGE_FILE}`,
  ],
  pinned: MARTIAN_PINNED,
  groupBy: 'severity',
  groupOrder: SEVERITIES,
  matching: 'martian',
  judgeModel: MARTIAN_JUDGE_MODEL,
  published: {
    judge: (dataDir) => benchmarkJudge(join(dataDir, '..')),
    reference: (dataDir, ...rest) => publishedReference(join(dataDir, '..'), ...rest),
  },
  async load(dir) {
    const files = await filesTouched(join(dir, '..', LABELS_FILE));
    return (await readRecords(dir, MartianRecord)).map((at) => {
      const recorded = files.get(at.record.url);
      return {
        url: at.record.url,
        title: at.record.pr_title,
        pull: inRecord(at, () => parsePullUrl(at.record.url)),
        golden: at.record.comments.map((c) => ({
          text: c.comment,
          group: c.severity,
          ...(c.category ? { category: c.category } : {}),
        })),
        ...(recorded !== undefined ? { filesRecorded: recorded } : {}),
      };
    });
  },
};

/** PR URL → files touched, from pr_labels.json beside the data (none when the file is not there). */
async function filesTouched(path: string): Promise<Map<string, number>> {
  const text = await readFile(path, 'utf8').catch(() => null);
  if (text === null) return new Map();
  let parsed;
  try {
    parsed = PrLabels.safeParse(JSON.parse(text));
  } catch (err) {
    throw new DataError(`${LABELS_FILE}: not valid JSON (${(err as Error).message})`);
  }
  if (!parsed.success) throw new DataError(`${LABELS_FILE}: ${parsed.error.issues[0]!.message}`);
  return new Map(
    Object.entries(parsed.data).flatMap(([url, l]) =>
      l.derived.num_files_touched === undefined ? [] : [[url, l.derived.num_files_touched] as const],
    ),
  );
}
