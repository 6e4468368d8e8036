/** The one finding type every surface is built from, and what the filters and failures record about it. */
import type { Filter } from './filter';
import type { Location } from './location';
import type { Category } from './categories';
import type { Confidence, Priority } from './records';

/** Where a finding came from: a staged rule set (file, function, cross-file), a lens reviewer, or the cross-repo check. */
export type FindingSource = 'file_rule' | 'function_rule' | 'cross_file' | 'lens' | 'cross_repo';

/** The one finding type every surface (diagnostics, JSON, reports) is built from. */
export interface Finding {
  /** Path relative to the working directory, forward slashes. */
  file: string;
  line: number;
  /** Last line of a range finding. */
  end_line?: number;
  /** A file-level finding about the whole file: it has no line of its own (`line` is 1). */
  file_wide?: boolean;
  /** Every place the finding is about (several for cross-file findings); the first is `file:line` itself. */
  locations: Location[];
  rule_id: string;
  priority: Priority;
  confidence: Confidence;
  function: string | null;
  action: string;
  rationale: string;
  source: FindingSource;
  /** What it is about, as the model labelled it (null: unlabelled); the noise filter removes some categories. */
  category?: Category | null;
  /** Set when the challenger could not run, so the finding was kept unchallenged. */
  unchallenged?: boolean;
  /** Diff review: a must_fix problem on lines the change did not touch. */
  pre_existing?: boolean;
  /** Multi-repo lens review: the repository (cwd-relative) the finding belongs to. */
  repository?: string;
  /** Staged review: why the challenger let it stand (its one-line ruling). */
  verdict?: string;
  /** What the finding is about, independent of its line number (see src/model/fingerprint.ts); set once the run is over. */
  fingerprint?: string;
}

/** A unit of work that did not produce a usable record, and why. */
export interface FailedUnit {
  step: string;
  file: string | null;
  unit: string;
  reason: string;
}

/** Something the deterministic filters removed, kept so the report can account for it. */
export interface FilteredFinding {
  finding: Finding;
  stage: 'challenge' | 'tiebreaker' | 'rule_scope' | 'diff_scope' | 'noise';
  reason: string;
}

/** A step of a staged file's filter chain (model/filter.ts). */
export type FindingFilter = Filter<Finding, FilteredFinding>;
