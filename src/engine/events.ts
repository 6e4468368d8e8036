/** The stream a review emits: progress, findings as they survive, and the final result. */
import type { FileAnalysis, Step1Record, SynthesisResult } from './records';
import type { FailedUnit, FilteredFinding, Finding, Usage } from './types';

export type FileStatus = 'reviewed' | 'skipped' | 'failed';

export interface FileOutcome {
  path: string;
  companion_path: string | null;
  status: FileStatus;
  functions_reviewed: number;
  reason?: string;
  step1?: Step1Record;
  analysis?: FileAnalysis;
}

export interface StagedResult {
  mode: 'staged';
  models: Record<string, string>;
  reviewRoots: string[];
  files: FileOutcome[];
  /** Survivors of every filter, in report order. */
  findings: Finding[];
  filtered: FilteredFinding[];
  failed: FailedUnit[];
  synthesis: SynthesisResult | null;
  usage: Usage;
  usageByStep: Record<string, Usage>;
  retries: number;
  repairs: number;
  /** Functions the completeness check found unanswered and re-ran solo. */
  recovered: number;
  /** Set when the run stopped early: cancelled, or the API refused the run as a whole. */
  stopped?: string;
}

export type ProgressStep = 'curate' | 'analyze' | 'review' | 'challenge' | 'synthesize';

export type ReviewEvent =
  | { type: 'inventory'; files: number; companions: number }
  | { type: 'progress'; step: ProgressStep; done: number; total: number; message: string }
  | { type: 'finding'; finding: Finding }
  | { type: 'file'; outcome: FileOutcome }
  | { type: 'retry'; label: string; attempt: number; delayMs: number; reason: string }
  | { type: 'warning'; message: string }
  | { type: 'done'; result: StagedResult };

export type EmitFn = (event: ReviewEvent) => void;
