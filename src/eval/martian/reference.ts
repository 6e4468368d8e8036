/**
 * Published scores on the Martian Code Review Bench, for context beside ours: precision, recall and F1
 * summed over its 50 PRs, computed from the per-PR true/false positive counts in the benchmark's own
 * results (offline/analysis/benchmark_dashboard.json, judge Claude Opus 4.5, repository state of
 * 2026-02). Our judge prompt and model differ from theirs, so read a gap of a few points as noise.
 */
export interface ReferenceScore {
  tool: string;
  precision: number;
  recall: number;
  f1: number;
}

export const MARTIAN_REFERENCE_SOURCE =
  'withmartian/code-review-benchmark, offline/analysis/benchmark_dashboard.json (judge: Claude Opus 4.5; 50 PRs)';

export const MARTIAN_REFERENCE: ReferenceScore[] = [
  { tool: 'Augment', precision: 47.0, recall: 62.8, f1: 53.8 },
  { tool: 'Cursor Bugbot', precision: 46.2, recall: 43.8, f1: 44.9 },
  { tool: 'Greptile', precision: 38.4, recall: 38.7, f1: 38.5 },
  { tool: 'GitHub Copilot', precision: 26.6, recall: 53.3, f1: 35.5 },
  { tool: 'Claude Code', precision: 33.1, recall: 35.8, f1: 34.4 },
  { tool: 'CodeRabbit', precision: 23.9, recall: 39.4, f1: 29.8 },
];
