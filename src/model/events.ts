/** The stream a review emits, in either mode: progress, findings as they survive, and the final result. */
import type { MergedFinding } from './lens';
import type { RubricResult } from './lens';
import type { RoutingDecision } from './lens';
import type { ValidationSummary } from './lens';
import type { FileAnalysis, Step1Record, SynthesisResult } from './records';
import type { FailedUnit, FilteredFinding, Finding } from './finding';
import type { Usage } from './usage';
import type { SuppressedFinding } from './suppressed';
import type { BelowMinPriority } from './order';
import type { BatchRun } from './pricing';
import type { Stop } from './outcome';

export type FileStatus = 'reviewed' | 'skipped' | 'failed';

export interface FileOutcome {
  path: string;
  companion_path: string | null;
  status: FileStatus;
  functions_reviewed: number;
  reason?: string;
  step1?: Step1Record;
  analysis?: FileAnalysis;
  /** Step 2's function list against the parser's: names added (left out by the model), rejected (not in the file), corrected. */
  reconciled?: { added: string[]; rejected: string[]; corrected: string[] };
  /** Its findings went to the challenge (answered by the model or by the result cache). */
  challenged?: true;
}

/** What every run counts, in either mode. */
export interface RunAccounting {
  usage: Usage;
  usageByStep: Record<string, Usage>;
  retries: number;
  /** HTTP attempts that got no usable answer; `usage.calls` counts only answered calls. */
  failedAttempts: number;
  repairs: number;
  /** Units answered from the result cache (no call made). */
  cacheHits: number;
  /**
   * A run through the Message Batches API: its rounds, the batches it created, and the requests it collected
   * from batches an earlier run left running (instead of paying for them again).
   */
  batch?: BatchRun;
  /** --min-priority: the floor, and the findings below it left out of `findings` (absent: no floor). */
  belowMinPriority?: BelowMinPriority;
}

export interface StagedResult extends RunAccounting {
  mode: 'staged';
  models: Record<string, string>;
  /** The effort each step's requests sent; null: none sent (the model's default). */
  effort: Record<string, string | null>;
  reviewRoots: string[];
  files: FileOutcome[];
  /** Survivors of every filter, in report order. */
  findings: Finding[];
  filtered: FilteredFinding[];
  failed: FailedUnit[];
  synthesis: SynthesisResult | null;
  /** Functions the completeness check found unanswered and re-ran solo. */
  recovered: number;
  /** What a salvaged reply left out, for the report's notes. */
  notes: string[];
  /** Set when the run stopped early: cancelled, a limit of its own, or the API refused the run as a whole. */
  stop?: Stop;
  /** Findings a suppression hid (a skeptic-ignore comment, the team file, the user's list); absent: none. */
  suppressed?: SuppressedFinding[];
}

/** One reviewed scope of a lens run: the whole scope, or one repository of a multi-repo run. */
export interface LensTargetOutcome {
  /** The repository's path relative to cwd; null for a single scope. */
  repository: string | null;
  description: string;
  files: string[];
  /** Why each reviewer was (or was not) routed to this scope. */
  routing: RoutingDecision[];
  reviewers: string[];
  /** Reviewers that failed after their retries and repairs (on at least one part of the scope). */
  missingReviewers: string[];
  /** Parts the scope was split into under the token budget. */
  parts: number;
}

export interface LensResult extends RunAccounting {
  mode: 'lenses';
  /** The review target, as the scope describes it. */
  scope: string;
  reviewRoots: string[];
  /** Per file: reviewed, or failed (unreadable, or every reviewer failed on its part); the same shape as staged mode's. */
  files: FileOutcome[];
  /** Model per role that ran (reviewers, validator, cross-repo). */
  models: Record<string, string>;
  effort: string | null;
  targets: LensTargetOutcome[];
  /** Every reviewer that ran, and those of them that went missing, across targets. */
  reviewers: string[];
  missingReviewers: string[];
  /** The lens records behind `findings`, merged and in report order (cross-repo ones apart). */
  lensFindings: MergedFinding[];
  crossRepo: MergedFinding[];
  /** The same findings as the shared type, for diagnostics. */
  findings: Finding[];
  /** Findings the confidence floor removed (self-critique), per reviewer. */
  lowConfidence: Record<string, number>;
  /** Findings removed for a category that is never a finding (prompts/noise.md), per category. */
  noiseDropped?: Record<string, number>;
  /** Change scopes: findings below HIGH that were not on a changed line. */
  outsideChange: number;
  validation: ValidationSummary;
  gateCheck: { passed: boolean; reason: string | null };
  skippedRepositories: Array<{ repository: string; reason: string }>;
  /** Where the spec came from ("spec.md", "PR #12 description"), if there was one. */
  spec: string | null;
  rubric: RubricResult | null;
  failed: FailedUnit[];
  stop?: Stop;
  /** Findings a suppression hid (a skeptic-ignore comment, the team file, the user's list); absent: none. */
  suppressed?: SuppressedFinding[];
}

export type ReviewResult = StagedResult | LensResult;

export type ProgressStep = 'curate' | 'analyze' | 'review' | 'challenge' | 'synthesize';
export type LensProgressStep = 'reviewers' | 'validators' | 'cross-repo';

export type ReviewEvent =
  /** Before anything else: where the calls will go (provider, region, models), as one line. */
  | { type: 'setup'; message: string }
  /** Step 0 is done: the files under review (cwd-relative), before any model call. */
  | { type: 'inventory'; files: string[]; companions: number; excluded: number }
  | { type: 'progress'; step: ProgressStep | LensProgressStep; done: number; total: number; message: string }
  | { type: 'finding'; finding: Finding }
  | { type: 'retry'; label: string; attempt: number; delayMs: number; reason: string }
  /** One answered model call: its usage and the run's running totals (calls, tokens, cost so far). */
  | { type: 'call'; label: string; step: string; file?: string; model: string; usage: Usage; totals: Usage; ms: number }
  | { type: 'warning'; message: string }
  /** A batch run's state changed: its rounds so far, batches not yet ended, requests waiting, the newest news. */
  | { type: 'batch'; rounds: number; running: number; waiting: number; message: string }
  | { type: 'done'; result: ReviewResult };

export type EmitFn = (event: ReviewEvent) => void;
