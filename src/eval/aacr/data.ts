/**
 * AACR-Bench (alibaba/aacr-bench, Apache-2.0): dataset/positive_samples.json holds, per PR, the repository's
 * PR URL, the two commits the review compares (source = base, target = the PR's head) and the verified
 * review comments, each at a path, a side of the diff and a line range. (dataset/negative_samples.json holds
 * comments judged not worth making; they are not issues to find, so they are not read.)
 *
 * Two choices differ from the benchmark's own evaluator on purpose: a comment without `side` is taken to be
 * on the PR's side (right) instead of never matching, and comments are told apart by their position in the
 * data, not by an id the data does not carry.
 */
import { z } from 'zod';
import { parsePullUrl } from '../checkout';
import { inRecord, readRecords, type Benchmark } from '../data';
import { OPUS } from '../../model/models';

const Sha = z.string().regex(/^[0-9a-f]{7,40}$/, 'a commit id');
export const AacrRecord = z.looseObject({
  githubPrUrl: z.string().min(1),
  source_commit: Sha,
  target_commit: Sha,
  category: z.string().optional(),
  comments: z.array(
    z.looseObject({
      note: z.string().min(1),
      path: z.string().min(1),
      side: z.enum(['left', 'right']).optional(),
      from_line: z.number().int().positive(),
      to_line: z.number().int().positive(),
      category: z.string().min(1).optional(),
    }),
  ),
});

export const AACR_FILE = 'positive_samples.json';

export const AACR: Benchmark = {
  name: 'aacr',
  title: 'AACR-Bench',
  repo: 'https://github.com/alibaba/aacr-bench',
  folder: 'dataset',
  alsoFetch: [],
  groupBy: 'category',
  groupOrder: ['Security Vulnerability', 'Code Defect', 'Performance', 'Maintainability and Readability'],
  // No published scores to stand beside: Skeptic's own stricter counting, and its deep model as the judge.
  matching: 'one-to-one',
  judgeModel: OPUS,
  async load(dir) {
    return (await readRecords(dir, AacrRecord, { what: AACR_FILE, file: (f) => f === AACR_FILE })).map((at) => ({
      url: at.record.githubPrUrl,
      title: at.record.category ?? '',
      pull: {
        ...inRecord(at, () => parsePullUrl(at.record.githubPrUrl)),
        baseSha: at.record.source_commit,
        headSha: at.record.target_commit,
      },
      golden: at.record.comments.map((c) => ({
        text: c.note.trim(),
        group: c.category ?? 'uncategorized',
        location: {
          path: c.path,
          side: c.side ?? 'right',
          from: Math.min(c.from_line, c.to_line),
          to: Math.max(c.from_line, c.to_line),
        },
      })),
    }));
  },
};
