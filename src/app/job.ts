/**
 * A review job as plain data: what a run needs (ReviewJob, made by buildJob) and what Step 0 makes of it
 * (PreparedJob). The phases runJob strings together live beside it: prepareJob (Step 0, no model), the checks
 * and gates (jobChecks), the connection (jobConnection) and executeJob (the pipeline of the job's mode).
 */
import type { Intent } from '../model/intent';
import type { ContextFile, Priority } from '../model/records';
import type { Effort, LensModels, StepModels } from '../model/models';
import type { PriceOverrides } from '../model/pricing';
import type { ProviderConfig } from '../model/providers';
import type { EditorModels } from '../model/editorModels';
import type { ReviewAccess } from '../scope/access';
import type { Inventory } from '../scope/exclusions';
import type { Dismissal } from '../model/dismissals';
import type { ScopeSpec } from '../model/scope';
import type { FileStream } from '../model/fileStream';
import type { Callers } from './callers';
import type { ResolvedScope } from './resolveScope';

/** A lens run's options, every default applied by buildJob. */
export interface LensOptions {
  fullFanout: boolean;
  /** 3 unless chosen, or every reviewer with full fan-out. */
  maxReviewers: number;
  /** Spec or acceptance file for the spec-compliance reviewer (and shared context). */
  spec?: string;
  /** Rubric whose criteria assigned to the code reviewer get marked PASS or FAIL. */
  rubric?: string;
  /** Model per role, every role named. */
  models: LensModels;
  /** What each call is sent: the chosen effort, else lens mode's own default. */
  effort: Effort;
  /** With a change scope: each path names a repository reviewed on its own changes (cwd-relative). */
  repositories: string[];
}

/** Everything a run needs, made from the user's ReviewChoices by buildJob (src/app/buildJob.ts): defaults applied, ranges checked. */
export interface ReviewJob {
  cwd: string;
  scope: ScopeSpec;
  /** What the change is for, as the user stated it; without it, a pull request's or a range's own (scope/changes.ts). */
  intent?: Intent;
  /** Absent: staged. */
  mode?: 'staged' | 'lenses';
  lens?: LensOptions;
  excludes: string[];
  /** Untracked files count as changes in the uncommitted scope. */
  includeUntracked: boolean;
  /** Review even when the gate check says a change is not worth it. */
  force: boolean;
  contextFiles: string[];
  models: StepModels;
  maxConcurrency: number;
  /** Seconds per request attempt. */
  requestTimeout: number;
  maxAttempts: number;
  effort?: Effort;
  /** The Anthropic API key ('' where the provider signs with its cloud's credentials). */
  apiKey: string;
  /** The extension host's language models, where the run is in the editor (provider vscode-lm). */
  editor?: EditorModels;
  /** Where the calls go: the provider, its region, project or profile, and endpoint (src/model/providers.ts). */
  provider: ProviderConfig;
  /** Keep finished units here and reuse them for unchanged input (see src/engine/resultCache.ts). */
  cacheDir?: string;
  /** This repository's state folder (src/app/state.ts): the outputs recorded there are never reviewed. */
  stateDir?: string;
  /** Per-model price overrides for the cost figures (src/model/pricing.ts). */
  prices?: PriceOverrides;
  /** The user's own dismissals (the extension keeps them); the team's come from the working folder's file. */
  dismissals?: Dismissal[];
  /** A run estimated above this many model calls asks first (when its surface can ask). */
  confirmThreshold: number;
  /** Where the report goes (default: code-review-{scope}.md in cwd), and the machine outputs if wanted. */
  outputs: {
    out?: string;
    reportFolder?: string;
    json?: string;
    sarif?: string;
    /** The event log (its surface writes it). */ events?: string;
  };
  /** --min-priority: findings below it are left out of what the run shows and writes, and counted apart. */
  minPriority?: Priority;
  /** Ceiling on the run's model requests (failed ones included); past it the run stops with a partial report. */
  maxCalls?: number;
  /** Ceiling on the run's spend in dollars: it stops before the call that would pass it, with a partial report. */
  maxCostUsd?: number;
  /** Ask again the units the result cache keeps as salvaged or failed (see engine/unitCache.ts). */
  refresh?: boolean;
  /** Through the Message Batches API at half price, in rounds; the whole run may take `batchTimeout` seconds. */
  batch?: { batchTimeout: number };
}

/** One repository of a multi-repo lens run, its scope resolved with cwd-relative paths. */
export interface PreparedRepository {
  path: string;
  scope: ResolvedScope;
  /** The repository's own context files (CLAUDE.md, …), beyond the shared ones. */
  context: ContextFile[];
}

export interface PreparedJob {
  /** For a multi-repo run: the repositories merged (files, changed lines, a skip only when all skip). */
  scope: ResolvedScope;
  inventory: Inventory;
  /** Shared project context, with the spec and rubric files last when given. */
  context: ContextFile[];
  companions: number;
  repositories?: PreparedRepository[];
  spec: ContextFile | null;
  rubric: ContextFile | null;
  /**
   * What the run may read: Step 0's rule over the review roots, for the engine's prompts and tools; its
   * `facts` are what Step 0 learnt about each file's content (the estimate and the parser use them).
   */
  access: ReviewAccess;
  /** What Step 0 left out and the run should say (a context file that is not sent, and why). */
  warnings: string[];
  /** A change's unchanged callers and implementers of the functions it altered or removed (app/callers.ts). */
  callers?: Callers;
}

/**
 * What a staged run needs before Step 0 has judged every file of a paths scope: the files as they are judged,
 * and what a PreparedJob says besides the finished inventory.
 */
export interface EarlyJob extends Omit<PreparedJob, 'scope' | 'inventory' | 'companions'> {
  scope: Pick<ResolvedScope, 'changedRanges' | 'removedLines' | 'changes' | 'description'>;
  files: FileStream;
}
