/**
 * The host ↔ worker protocol: each request with its answer and each notification declared once for both
 * sides (app/connection.ts numbers the requests, matches the answers and checks everything on receipt; a
 * malformed message is reported, never acted on). zod/mini and model types only: with app/choices.ts and
 * app/connection.ts, the part of app/ that the extension host bundles, so the engine never comes along.
 *
 * The host sends what the user chose (app/choices.ts: the target and the settings as read); the worker
 * builds the job (src/app/buildJob.ts), runs it, and sends back progress, findings with their Problems-panel places
 * already clamped to the files, the report it wrote, and a summary.
 */
import * as z from 'zod/mini';
import type { ReviewEvent } from '../model/events';
import type { Finding } from '../model/finding';
import { Dismissal } from '../model/dismissals';
import { EditorChatAnswer, EditorChatParams, EditorModelsAnswer, EditorModelsParams } from '../model/editorModels';
import { ScopeSpec } from '../model/scope';
import { FAILURE_CODES, Stop } from '../model/outcome';
import { ReviewChoices } from './choices';
import { notificationType, requestType } from './connection';

/** A host-side setting as read: junk (a hand-edited settings file) counts as unset. */
const SeverityMap = z.catch(z.optional(z.record(z.string(), z.unknown())), undefined);

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
  /** Null when a model has no known price, or when the editor's plan bills the calls (`billing`). */
  costUsd: z.nullable(z.number()),
  /** `editor`: the calls were billed by the editor's plan (provider vscode-lm), not priced in dollars. */
  billing: z.optional(z.literal('editor')),
  /** Units that could not be reviewed, one line each (the report lists them). */
  notReviewed: z.array(z.string()),
  /** Why the run stopped early, in words: `stop.message`. */
  stopped: z.optional(z.string()),
  /** How the run stopped early (cancelled, a ceiling, refused…): what the host decides on. */
  stop: z.optional(Stop),
  /**
   * What the run's suppressions hid, in model/suppressed.ts's words: "2 suppressed (1 by skeptic-ignore
   * comments, 1 by the team file .skeptic/dismissed.json, 0 by your own list)". Absent: none.
   */
  suppressed: z.optional(z.string()),
  /** The summary in words, as the CLI prints it and the host logs it (app/summary.ts). */
  lines: z.array(z.string()),
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

// Host → worker.

/** Runs one review; the answer is how it ended. */
export const StartReview = requestType(
  'start',
  z.object({
    /** The target and the settings as read, by the names in CHOICES (app/contributions.ts). */
    choices: ReviewChoices,
    /** skeptic.severityMap: how findings show in the Problems panel. */
    severityMap: SeverityMap,
    /** Empty where the provider signs with its cloud's credentials (Bedrock, Vertex AI) or needs no key. */
    apiKey: z.string(),
    /** The user's own dismissals (kept in the workspace state); the team's file the worker reads itself. */
    dismissals: z.optional(z.array(Dismissal)),
  }),
  z.discriminatedUnion('kind', [
    /** Null summary: nothing ran (declined at the confirmation). */
    z.object({ kind: z.literal('finished'), summary: z.nullable(RunSummary) }),
    /** `reason` as the outputs say it ("SKIP: PR is draft"), `why` without the label ("PR is draft"). */
    z.object({ kind: z.literal('skipped'), reason: z.string(), why: z.string() }),
    /** `code` setup: a problem with the request or the environment (a SetupError), not a crash; `setup` says the same. */
    z.object({ kind: z.literal('failed'), code: z.enum(FAILURE_CODES), message: z.string(), setup: z.boolean() }),
  ]),
);
export type StartParams = z.input<typeof StartReview.params>;
/** A start as checked on arrival. */
export type StartRequest = z.infer<typeof StartReview.params>;
export type ReviewOutcome = z.infer<typeof StartReview.result>;

/**
 * What a review would use, as `skeptic doctor` prints it (app/doctor.ts); `probe`: also one paid minimal call
 * per model, which the host asks the user about first. The answer: the lines, and whether a review can start
 * (and every probe passed).
 */
export const CheckSetup = requestType(
  'checkSetup',
  z.object({ choices: ReviewChoices, apiKey: z.string(), probe: z.boolean() }),
  z.object({ lines: z.array(z.string()), ok: z.boolean() }),
);
export type CheckParams = z.input<typeof CheckSetup.params>;
export type CheckAnswer = z.infer<typeof CheckSetup.result>;

/**
 * What a review of the same choices would cost, made no call (the language-model tool shows it before asking):
 * the files under review and the estimate, with what the result cache answers left out.
 */
export const PlanReview = requestType(
  'plan',
  StartReview.params,
  z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('planned'),
      files: z.int(),
      calls: z.int(),
      inputTokens: z.int(),
      costUsd: z.nullable(z.number()),
      billing: z.optional(z.literal('editor')),
    }),
    z.object({ kind: z.literal('failed'), code: z.enum(FAILURE_CODES), message: z.string() }),
  ]),
);
export type PlanAnswer = z.infer<typeof PlanReview.result>;

/** Stops the run: calls in flight are aborted, an open confirmation is declined, what finished is kept. */
export const CancelReview = notificationType('cancel', z.object({}));

// Worker → host.

/** A run over the threshold asks first; `costUsd` is null when a model has no price or the editor's plan bills the calls (in lens mode, an upper bound). The answer: run it. */
export const ConfirmRun = requestType(
  'confirm',
  z.object({
    calls: z.int(),
    inputTokens: z.int(),
    costUsd: z.nullable(z.number()),
    billing: z.optional(z.literal('editor')),
    threshold: z.int(),
  }),
  z.boolean(),
);

/** An `auto` scope was detected: which, and why (app/autoScope.ts), before anything else happens. */
export const ScopeChosen = notificationType('scope', z.object({ scope: ScopeSpec, line: z.string() }));
/** Step 0 is done: what will be reviewed. */
export const Prepared = notificationType(
  'prepared',
  z.object({ files: z.int(), companions: z.int(), excluded: z.int(), paths: z.array(z.string()) }),
);
export const RunEvent = notificationType('event', Event);
export const FindingMade = notificationType('finding', z.object({ finding: AFinding, diagnostic: PlainDiagnostic }));
export const ReportWritten = notificationType('report', z.object({ path: z.string(), markdown: z.string() }));

// Worker → host: the editor's language models (provider vscode-lm), which only the extension host can call.

/** Before the first call: an editor model for each of the run's models, found or chosen by the user. */
export const ResolveEditorModels = requestType('editorModels', EditorModelsParams, EditorModelsAnswer);
/** One model call; the answer is the reply with its token counts, or the editor's refusal. */
export const EditorChat = requestType('editorChat', EditorChatParams, EditorChatAnswer);
/** The call stops: the run was cancelled or the attempt timed out. */
export const CancelEditorChat = notificationType('editorCancel', z.object({ callId: z.string() }));
