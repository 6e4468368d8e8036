/** What every benchmark adapter hands the evaluation: pull requests, each with the comments a reviewer should make. */
import type { PullRequestRef } from './checkout';

export const SEVERITIES = ['Critical', 'High', 'Medium', 'Low'] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface GoldenComment {
  text: string;
  severity: Severity;
}

export interface EvalCase {
  /** The PR's URL as the benchmark gives it: the case's name in tables, JSON and --pr. */
  url: string;
  title: string;
  pull: PullRequestRef;
  golden: GoldenComment[];
}
