/**
 * Published scores on the Martian Code Review Bench, for context beside ours: precision, recall and F1
 * summed over its 50 PRs (137 golden comments), worked out from the per-PR true/false positive counts in
 * the benchmark's own results (offline/analysis/benchmark_dashboard.json, judge Claude Opus 4.5, the file
 * as of 2026-02-24). Every tool the file holds is listed, best F1 first.
 */
export interface ReferenceScore {
  tool: string;
  precision: number;
  recall: number;
  f1: number;
}

export const MARTIAN_REFERENCE_SOURCE =
  'withmartian/code-review-benchmark, offline/analysis/benchmark_dashboard.json of 2026-02-24 (judge: Claude Opus 4.5; 50 PRs)';

/** The judge model the published figures were judged with: the default judge of `eval martian`. */
export const MARTIAN_JUDGE_MODEL = 'claude-opus-4-5-20251101';

export const MARTIAN_REFERENCE: ReferenceScore[] = [
  { tool: 'Augment', precision: 47.0, recall: 62.8, f1: 53.8 },
  { tool: 'Cursor Bugbot', precision: 46.2, recall: 43.8, f1: 44.9 },
  { tool: 'Propel', precision: 46.0, recall: 38.0, f1: 41.6 },
  { tool: 'Greptile', precision: 38.4, recall: 38.7, f1: 38.5 },
  { tool: 'Qodo', precision: 30.6, recall: 43.8, f1: 36.0 },
  { tool: 'GitHub Copilot', precision: 26.6, recall: 53.3, f1: 35.5 },
  { tool: 'Baz', precision: 44.0, recall: 29.2, f1: 35.1 },
  { tool: 'Claude Code', precision: 33.1, recall: 35.8, f1: 34.4 },
  { tool: 'Gemini', precision: 29.8, recall: 37.2, f1: 33.1 },
  { tool: 'CodeRabbit', precision: 23.9, recall: 39.4, f1: 29.8 },
  { tool: 'KG', precision: 46.9, recall: 16.8, f1: 24.7 },
  { tool: 'Graphite', precision: 75.0, recall: 8.8, f1: 15.7 },
];
