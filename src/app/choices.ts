/**
 * What a user chose for one review, in the one shape every surface fills: the extension from its settings
 * (ui/settings.ts), the CLI from its flags (cli/args.ts), the evaluation for each checkout (eval/review.ts).
 * Fields are named as in CHOICES (app/contributions.ts). buildJob (app/buildJob.ts) turns it into the
 * ReviewJob runJob takes: the defaults, the ranges, the models per step and role, and the cache policy.
 *
 * zod/mini and model types only: the host sends it to the worker, which checks it on receipt. A value of
 * the wrong type (a hand-edited settings file) reads as unset, and buildJob's default applies.
 */
import * as z from 'zod/mini';
import { ScopeSpec } from '../model/scope';
import { Intent } from '../model/intent';

const chosen = <T extends z.core.SomeType>(type: T) => z.catch(z.optional(type), undefined);
const text = () => chosen(z.string());
const number = () => chosen(z.number());
const flag = () => chosen(z.boolean());
const list = () => chosen(z.array(z.string()));
const map = () => chosen(z.record(z.string(), z.unknown()));

/** A scope, or `auto`: detected where the review runs (app/autoScope.ts), before the job is built. */
export const TargetScope = z.union([ScopeSpec, z.object({ kind: z.literal('auto') })]);
export type TargetScope = z.infer<typeof TargetScope>;

/** What to review: the part of the choices a command or the positional arguments make. */
export const ReviewTarget = z.object({
  /** The folder the review runs in: the workspace folder, or the CLI's working directory. */
  cwd: z.string(),
  /** Absent: the staged review; 'lenses': the Quick Review. */
  mode: z.optional(z.enum(['staged', 'lenses'])),
  scope: TargetScope,
  /** What the change is for, in the user's words (--intent, or the review command's box); else the change's own. */
  intent: chosen(Intent),
});
export type ReviewTarget = z.infer<typeof ReviewTarget>;

export const ReviewChoices = z.extend(ReviewTarget, {
  /** One model for every step and role; the maps below override single ones (unknown names and empty ids are ignored). */
  model: text(),
  modelPerStep: map(),
  reviewerModels: map(),
  maxConcurrency: number(),
  /** Seconds per request attempt. */
  requestTimeout: number(),
  maxAttempts: number(),
  /** Empty or unknown: the model's default (lens mode: xhigh). */
  effort: text(),
  baseUrl: text(),
  /** Where the calls go (model/providers.ts resolves them with the environment): anthropic, bedrock, vertex, compatible, vscode-lm (the extension only). */
  provider: text(),
  region: text(),
  project: text(),
  profile: text(),
  excludes: list(),
  contextFiles: list(),
  /** Untracked files count as changes in the uncommitted scope (default true). */
  includeUntracked: flag(),
  /** Review even when the gate check says a change is not worth it. */
  force: flag(),
  /** false: no result cache at all. Otherwise `cacheDir`, or the repository's own under its state folder. */
  cacheResults: flag(),
  cacheDir: text(),
  /** Ask again the units the result cache kept as salvaged or failed. */
  refresh: flag(),
  /** Per-model price overrides (model/pricing.ts); a malformed entry is left out and the list price stands. */
  prices: map(),
  /** A run estimated above this many model calls asks first (when its surface can ask). */
  confirmThreshold: number(),
  /** Ceiling on the run's model requests (failed ones included); 0 or unset: none. */
  maxCalls: number(),
  /** Ceiling on the run's spend in US dollars; 0 or unset: none. */
  maxCostUsd: number(),
  /** must_fix, should_fix or nice_to_have: findings below it are not shown or written (counted apart); else all. */
  minPriority: text(),
  /** Through the Message Batches API; `batchTimeout`: seconds the whole batch run may take. */
  batch: flag(),
  batchTimeout: number(),
  /** Reports go to this folder of `cwd` ('': Skeptic's own, .skeptic/reports); unset: `cwd` itself. */
  reportFolder: text(),
  /** The report's path, and the machine outputs when wanted. */
  out: text(),
  json: text(),
  sarif: text(),
  events: text(),
  fullFanout: flag(),
  maxReviewers: number(),
  spec: text(),
  rubric: text(),
  /** Lens mode with a change scope: each path names a repository reviewed on its own changes (cwd-relative). */
  repositories: list(),
});
/** What a surface fills in (settings as read may hold anything). */
export type ReviewChoices = z.input<typeof ReviewChoices>;
