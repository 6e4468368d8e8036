/**
 * The host ↔ worker protocol, declared once for both sides and checked on receipt (a malformed message is
 * reported, never acted on). zod/mini and model types only: this is the one module of app/ that the
 * extension host bundles, so the engine never comes along.
 *
 * The host sends what the user asked for and the settings as read; the worker builds the job
 * (src/app/buildJob.ts), runs it, and sends back progress, findings with their Problems-panel places
 * already clamped to the files, the report it wrote, and a summary.
 */
import * as z from 'zod/mini';
import type { ReviewEvent } from '../model/events';
import type { Finding } from '../model/finding';
import { Dismissal } from '../model/dismissals';
import { ScopeSpec } from '../model/scope';

/** What the user asked to review: enough to run it again from the report (also after a reload). */
export const ReviewRequest = z.object({
  /** The workspace folder the review runs in. */
  folder: z.string(),
  /** Absent: the staged review; 'lenses': the Quick Review. */
  mode: z.optional(z.literal('lenses')),
  scope: ScopeSpec,
});
export type ReviewRequest = z.infer<typeof ReviewRequest>;

/** A setting as read. Junk (a hand-edited settings file) counts as unset, and the job builder's default applies. */
const setting = <T extends z.core.SomeType>(type: T) => z.catch(z.optional(type), undefined);
const map = () => setting(z.record(z.string(), z.unknown()));

/** The `skeptic.*` settings, by their names in src/app/contributions.ts (SETTINGS). */
export const Settings = z.object({
  model: setting(z.string()),
  modelPerStep: map(),
  maxConcurrency: setting(z.number()),
  requestTimeout: setting(z.number()),
  maxAttempts: setting(z.number()),
  effort: setting(z.string()),
  baseUrl: setting(z.string()),
  excludes: setting(z.array(z.string())),
  contextFiles: setting(z.array(z.string())),
  reportFolder: setting(z.string()),
  confirmThreshold: setting(z.number()),
  maxCalls: setting(z.number()),
  batch: setting(z.boolean()),
  batchTimeout: setting(z.number()),
  severityMap: map(),
  includeUntracked: setting(z.boolean()),
  cacheResults: setting(z.boolean()),
  prices: map(),
  fullFanout: setting(z.boolean()),
  reviewerModels: map(),
});
export type Settings = z.infer<typeof Settings>;

export const HostMessage = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('start'),
    request: ReviewRequest,
    settings: Settings,
    apiKey: z.string().check(z.minLength(1)),
    /** The user's own dismissals (kept in the workspace state); the team's file the worker reads itself. */
    dismissals: z.optional(z.array(Dismissal)),
  }),
  /** The user agreed to the run the `confirm` message with this id asked about. */
  z.object({ type: z.literal('proceed'), id: z.string() }),
  z.object({ type: z.literal('cancel') }),
]);
/** What a sender writes (settings as read, unchecked). */
export type HostMessage = z.input<typeof HostMessage>;
export type StartMessage = Extract<z.infer<typeof HostMessage>, { type: 'start' }>;

/** A Problems-panel place: 0-based lines, already clamped to the file (the host reads no source file). */
const Place = z.object({ file: z.string(), line: z.int().check(z.minimum(0)), endLine: z.int().check(z.minimum(0)) });
export type Place = z.infer<typeof Place>;

export const SEVERITIES = ['error', 'warning', 'information', 'hint'] as const;
export type SeverityName = (typeof SEVERITIES)[number];

export const PlainDiagnostic = z.object({
  at: Place,
  severity: z.enum(SEVERITIES),
  message: z.string(),
  source: z.literal('Skeptic'),
  code: z.string(),
  related: z.array(z.object({ at: Place, message: z.string() })),
});
export type PlainDiagnostic = z.infer<typeof PlainDiagnostic>;

/** The run's outcome in figures, instead of the whole result. */
export const RunSummary = z.object({
  findings: z.int(),
  calls: z.int(),
  /** Null when a model has no known price. */
  costUsd: z.nullable(z.number()),
  /** Units that could not be reviewed, one line each (the report lists them). */
  notReviewed: z.array(z.string()),
  /** Why the run stopped early: cancelled, or the API refused it as a whole. */
  stopped: z.optional(z.string()),
  /** Findings left out because they were dismissed before (team file, the user's own, inline comments). */
  dismissed: z.optional(z.int()),
});
export type RunSummary = z.infer<typeof RunSummary>;

/** Events relayed as they are (progress, retries, warnings, calls); findings and the result travel in their own messages. */
export type RelayedEvent = Exclude<ReviewEvent, { type: 'finding' | 'done' | 'inventory' }>;
// Our own code sends these, so their payloads are checked by type tag only.
const Event = z.custom<RelayedEvent>(
  (v) => typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string',
);
const AFinding = z.custom<Finding>(
  (v) => typeof v === 'object' && v !== null && typeof (v as { file?: unknown }).file === 'string',
);

export const WorkerMessage = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('prepared'),
    files: z.int(),
    companions: z.int(),
    excluded: z.int(),
    paths: z.array(z.string()),
  }),
  /** `costUsd`: the estimate in dollars; null when a model has no price (or in lens mode). */
  z.object({
    type: z.literal('confirm'),
    id: z.string(),
    calls: z.int(),
    inputTokens: z.int(),
    costUsd: z.nullable(z.number()),
    threshold: z.int(),
  }),
  z.object({ type: z.literal('skipped'), reason: z.string() }),
  z.object({ type: z.literal('event'), event: Event }),
  z.object({ type: z.literal('finding'), finding: AFinding, diagnostic: PlainDiagnostic }),
  z.object({ type: z.literal('report'), path: z.string(), markdown: z.string() }),
  /** `setup`: a problem with the request or the environment, not a crash. */
  z.object({ type: z.literal('failed'), message: z.string(), setup: z.boolean() }),
  /** Null summary: nothing ran (declined at the confirmation). */
  z.object({ type: z.literal('finished'), summary: z.nullable(RunSummary) }),
]);
export type WorkerMessage = z.infer<typeof WorkerMessage>;
