/**
 * worker_threads entry: builds the job from the host's choices (the target and the settings as read), runs it through runJob and
 * posts what happens — findings with their Problems-panel places already clamped, the report as written,
 * a summary at the end. Stops in-flight model calls when the host cancels. The logic is in src/app.
 */
import { randomUUID } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { buildJob } from './app/buildJob';
import { repositoryStateDir } from './app/state';
import { lineCounter, toDiagnostic } from './app/diagnosticMap';
import { HostMessage, type StartMessage, type WorkerMessage } from './app/protocol';
import { isSetupError, runJob } from './app/runJob';
import { summarize } from './app/summary';

const port = parentPort;
if (!port) throw new Error('worker.js must run in a worker thread');
const controller = new AbortController();
/** The open question, if any: its id and how to answer it. */
let pending: { id: string; answer: (yes: boolean) => void } | undefined;
const post = (m: WorkerMessage) => port.postMessage(m);

port.on('message', (raw: unknown) => {
  const parsed = HostMessage.safeParse(raw);
  if (!parsed.success) {
    post({
      type: 'failed',
      message: `bad message from host: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
      setup: true,
    });
    return;
  }
  const m = parsed.data;
  if (m.type === 'cancel') {
    controller.abort(new Error('cancelled'));
    pending?.answer(false);
  } else if (m.type === 'proceed') {
    if (pending?.id === m.id) pending.answer(true);
  } else void run(m);
});

async function run(start: StartMessage): Promise<void> {
  try {
    // The CLI's default too: one state folder (and result cache) per repository, shared by both.
    const job = buildJob(start.choices, {
      apiKey: start.apiKey,
      stateDir: await repositoryStateDir(start.choices.cwd),
      ...(start.dismissals ? { dismissals: start.dismissals } : {}),
    });
    const lines = lineCounter(job.cwd);
    const severityMap = start.severityMap ?? {};
    const outcome = await runJob(job, {
      emit: (event) => {
        if (event.type === 'inventory')
          post({
            type: 'prepared',
            files: event.files.length,
            companions: event.companions,
            excluded: event.excluded,
            paths: event.files,
          });
        else if (event.type === 'finding')
          post({
            type: 'finding',
            finding: event.finding,
            diagnostic: toDiagnostic(event.finding, lines, severityMap),
          });
        else if (event.type !== 'done') post({ type: 'event', event });
      },
      confirm: ({ calls, inputTokens, costUsd, threshold }) =>
        new Promise<boolean>((resolve) => {
          const id = randomUUID();
          pending = { id, answer: (yes) => ((pending = undefined), resolve(yes)) };
          post({ type: 'confirm', id, calls, inputTokens, costUsd, threshold });
        }),
      signal: controller.signal,
    });
    if (outcome.kind === 'skipped') return post({ type: 'skipped', reason: outcome.reason });
    if (outcome.kind === 'declined') return post({ type: 'finished', summary: null });
    if (outcome.outputs) post({ type: 'report', path: outcome.outputs.reportPath, markdown: outcome.outputs.markdown });
    post({ type: 'finished', summary: summarize(outcome.result) });
  } catch (err) {
    post({ type: 'failed', message: err instanceof Error ? err.message : String(err), setup: isSetupError(err) });
  }
}
