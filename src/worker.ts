/**
 * worker_threads entry: answers the host's StartReview by building the job from its choices (the target and
 * the settings as read), running it through runJob and telling the host what happens — findings with their
 * Problems-panel places already clamped, the report as written — and, as the answer, how it ended. Stops
 * in-flight model calls when the host cancels. The messages are in src/app/protocol.ts, the logic in src/app.
 */
import { parentPort } from 'node:worker_threads';
import { withAutoScope } from './app/autoScope';
import { buildJob, providerFromSettings } from './app/buildJob';
import { Connection } from './app/connection';
import { lineCounter, toDiagnostic } from './app/diagnosticMap';
import { editorModelsOver } from './app/editorBridge';
import {
  CancelReview,
  CheckSetup,
  ConfirmRun,
  FindingMade,
  Prepared,
  ReportWritten,
  RunEvent,
  ScopeChosen,
  PlanReview,
  StartReview,
  type PlanAnswer,
  type ReviewOutcome,
  type StartRequest,
} from './app/protocol';
import { checkProvider } from './app/jobChecks';
import { prepareJob } from './app/prepareJob';
import type { ReviewJob } from './app/job';
import { runJob } from './app/runJob';
import { isSetupError } from './model/setup';
import type { FailureCode } from './model/outcome';
import { repositoryStateDir } from './app/state';
import { summarize } from './app/summary';
import { redact } from './model/redact';

const port = parentPort;
if (!port) throw new Error('worker.js must run in a worker thread');
const controller = new AbortController();
const host = new Connection(
  (m) => port.postMessage(m),
  // Nothing to answer: a message the protocol does not know is the host's bug, said once in its log.
  (problem) => console.error(`skeptic worker: bad message from host: ${problem}`),
);
port.on('message', (raw: unknown) => host.receive(raw));
host.onNotification(CancelReview, () => controller.abort(new Error('cancelled')));
/** The host's language models, which a run on provider vscode-lm calls through the host. */
const editor = editorModelsOver(host, controller.signal);

/** What a review here would use, as skeptic doctor says it; a setting that cannot work is its one problem line. */
host.onRequest(CheckSetup, async ({ choices, apiKey, probe }) => {
  try {
    // Nothing is reviewed: the scope does not matter, and is not detected.
    const job = buildJob(
      { ...choices, scope: { kind: 'paths', paths: [] } },
      { apiKey, provider: providerFromSettings(choices, process.env), editor },
    );
    const { checkSetup } = await import('./app/doctor');
    const keyFix = 'run Skeptic: Set API Key, or choose Bedrock or Vertex AI in skeptic.provider';
    return await checkSetup(job, { keyFix, probe, signal: controller.signal });
  } catch (err) {
    if (!isSetupError(err)) throw err;
    return { lines: [`Problem:     ${redact(err.message)}`], ok: false };
  }
});

/** The job a start asks for, its auto scope detected first (and said). */
async function jobOf(start: StartRequest): Promise<ReviewJob> {
  const { target: choices, line } = await withAutoScope(start.choices);
  if (line) host.sendNotification(ScopeChosen, { scope: choices.scope, line });
  // The CLI's default too: one state folder (and result cache) per repository, shared by both.
  return buildJob(choices, {
    apiKey: start.apiKey,
    // Bedrock and Vertex AI find their credentials in the environment, which the worker shares with the host.
    provider: providerFromSettings(start.choices, process.env),
    editor,
    stateDir: await repositoryStateDir(start.choices.cwd),
    ...(start.dismissals ? { dismissals: start.dismissals } : {}),
  });
}

/** The estimate `skeptic plan` makes, for a review of these choices: no model call. */
host.onRequest(PlanReview, async (start): Promise<PlanAnswer> => {
  try {
    const job = await jobOf(start);
    checkProvider(job);
    const prepared = await prepareJob(job, { plan: true });
    const { estimateJob } = await import('./app/estimate');
    const { calls, inputTokens, costUsd, billing } = await estimateJob(job, prepared);
    const files = prepared.inventory.discovery.file_entries.length;
    return { kind: 'planned', files, calls, inputTokens, costUsd, ...(billing ? { billing } : {}) };
  } catch (err) {
    return { kind: 'failed', ...failure(err) };
  }
});

host.onRequest(StartReview, async (start): Promise<ReviewOutcome> => {
  try {
    const cwd = start.choices.cwd;
    const job = await jobOf(start);
    const lines = lineCounter(cwd);
    const severityMap = start.severityMap ?? {};
    const outcome = await runJob(job, {
      emit: (event) => {
        if (event.type === 'inventory')
          host.sendNotification(Prepared, {
            files: event.files.length,
            companions: event.companions,
            excluded: event.excluded,
            paths: event.files,
          });
        else if (event.type === 'finding')
          host.sendNotification(FindingMade, {
            finding: event.finding,
            diagnostic: toDiagnostic(event.finding, lines, severityMap),
          });
        else if (event.type !== 'done') host.sendNotification(RunEvent, event);
      },
      // A cancel while the host is asking declines the run.
      confirm: (estimate) =>
        host.sendRequest(ConfirmRun, estimate, controller.signal).catch((err: unknown) => {
          if (controller.signal.aborted) return false;
          throw err;
        }),
      signal: controller.signal,
    });
    if (outcome.kind === 'skipped') return { kind: 'skipped', reason: outcome.reason, why: outcome.why };
    if (outcome.kind === 'declined') return { kind: 'finished', summary: null };
    if (outcome.outputs)
      host.sendNotification(ReportWritten, { path: outcome.outputs.reportPath, markdown: outcome.outputs.markdown });
    return { kind: 'finished', summary: summarize(outcome.result) };
  } catch (err) {
    const failed = failure(err);
    return { kind: 'failed', ...failed, setup: failed.code === 'setup' };
  }
});

/** A request's failure as it crosses to the host: its code, and its one line without a secret. */
function failure(err: unknown): { code: FailureCode; message: string } {
  return {
    code: isSetupError(err) ? 'setup' : 'fatal',
    message: redact(err instanceof Error ? err.message : String(err)),
  };
}
