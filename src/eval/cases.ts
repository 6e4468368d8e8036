/** What every benchmark adapter hands the evaluation: pull requests, each with the comments a reviewer should make. */

export interface PullRequestRef {
  /** Where git fetches the repository from (https://github.com/…; file://… for an offline copy only in data the user names with --data). */
  repoUrl: string;
  number: number;
  /** Commits the benchmark pins, when it does. */
  headSha?: string;
  baseSha?: string;
}

/** Where a golden comment sits, for benchmarks that say (AACR-Bench); `right` is the PR's side of the diff. */
export interface GoldenLocation {
  path: string;
  side: 'left' | 'right';
  from: number;
  to: number;
}

export interface GoldenComment {
  text: string;
  /** What results are broken down by: the severity (Martian) or the category (AACR-Bench). */
  group: string;
  /** The benchmark's category of the issue (bug, security, style, …), when its data has one: what profiles select. */
  category?: string;
  location?: GoldenLocation;
}

export interface EvalCase {
  /** The PR's URL as the benchmark gives it: the case's name in tables, JSON and --pr. */
  url: string;
  title: string;
  pull: PullRequestRef;
  golden: GoldenComment[];
  /** How many files the benchmark recorded the PR as touching, when it says: a checkout that differs has drifted. */
  filesRecorded?: number;
}
