/** The engine's public shapes: what goes in (ReviewRequest), what comes out (ReviewEvent, ReviewResult). */
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
  /** Every `file:line` the finding is about (several for cross-file findings); the first is `file:line` itself. */
  locations: string[];
  rule_id: string;
  priority: Priority;
  confidence: Confidence;
  function: string | null;
  action: string;
  rationale: string;
  source: FindingSource;
  /** Set when the challenger could not run, so the finding was kept unchallenged. */
  unchallenged?: boolean;
  /** Diff review: a must_fix problem on lines the change did not touch. */
  pre_existing?: boolean;
  /** Multi-repo lens review: the repository (cwd-relative) the finding belongs to. */
  repository?: string;
}

export interface Usage {
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  /** Dollars at the price table's rates (src/model/pricing.ts); null once any call ran on a model without a price. */
  cost_usd: number | null;
}

export function emptyUsage(): Usage {
  return { calls: 0, input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, cost_usd: 0 };
}

export function addUsage(into: Usage, more: Partial<Usage>): void {
  into.calls += more.calls ?? 0;
  into.input_tokens += more.input_tokens ?? 0;
  into.output_tokens += more.output_tokens ?? 0;
  into.cache_read_input_tokens += more.cache_read_input_tokens ?? 0;
  into.cache_creation_input_tokens += more.cache_creation_input_tokens ?? 0;
  if (more.cost_usd !== undefined) into.cost_usd = into.cost_usd === null || more.cost_usd === null ? null : into.cost_usd + more.cost_usd;
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
  stage: 'challenge' | 'tiebreaker' | 'rule_scope' | 'diff_scope';
  reason: string;
}
