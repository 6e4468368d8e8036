/**
 * The Martian Code Review Bench (withmartian/code-review-benchmark, MIT): one JSON file per project under
 * offline/golden_comments/, each an array of PR records with golden comments rated Low to Critical.
 */
import { z } from 'zod';
import { parsePullUrl } from '../checkout';
import { inRecord, readRecords, type Benchmark } from '../data';
import { MARTIAN_JUDGE_MODEL, MARTIAN_REFERENCE, MARTIAN_REFERENCE_SOURCE } from './reference';

export const SEVERITIES = ['Critical', 'High', 'Medium', 'Low'] as const;

/** One PR record; fields the evaluation does not use (original_url, az_comment, …) are allowed and ignored. */
export const MartianRecord = z.looseObject({
  pr_title: z.string(),
  url: z.string().min(1),
  comments: z.array(z.looseObject({ comment: z.string().min(1), severity: z.enum(SEVERITIES) })),
});

export const MARTIAN: Benchmark = {
  name: 'martian',
  title: 'Martian Code Review Bench',
  repo: 'https://github.com/withmartian/code-review-benchmark',
  folder: 'offline/golden_comments',
  groupBy: 'severity',
  groupOrder: SEVERITIES,
  reference: { source: MARTIAN_REFERENCE_SOURCE, scores: MARTIAN_REFERENCE },
  matching: 'martian',
  judgeModel: MARTIAN_JUDGE_MODEL,
  async load(dir) {
    return (await readRecords(dir, MartianRecord)).map((at) => ({
      url: at.record.url,
      title: at.record.pr_title,
      pull: inRecord(at, () => parsePullUrl(at.record.url)),
      golden: at.record.comments.map((c) => ({ text: c.comment, group: c.severity })),
    }));
  },
};
