/**
 * worker_threads entry: runs one review job off the extension host's thread through runJob and posts what
 * happens; stops in-flight model calls when the host cancels. The logic is in src/app; this is the adapter.
 */
import { parentPort } from 'node:worker_threads';
import type { ReviewJob } from './app/job';
import { HostMessage, type WorkerMessage } from './app/protocol';
import { runJob } from './app/runJob';
import { GitError } from './scope/git';
import { ScopeError } from './scope/inventory';

const port = parentPort;
if (!port) throw new Error('worker.js must run in a worker thread');
const controller = new AbortController();
let proceed: ((yes: boolean) => void) | undefined;
const post = (m: WorkerMessage) => port.postMessage(m);

port.on('message', (raw: unknown) => {
  const parsed = HostMessage.safeParse(raw);
  if (!parsed.success) {
    post({ type: 'failed', message: `bad message from host: ${parsed.error.issues[0]?.message ?? 'invalid'}`, setup: true });
    return;
  }
  const m = parsed.data;
  if (m.type === 'cancel') {
    controller.abort(new Error('cancelled'));
    proceed?.(false);
  } else if (m.type === 'proceed') proceed?.(true);
  else void run({ ...m.job, confirmOver: m.confirmOver ?? m.job.confirmOver, outputs: { ...m.job.outputs, ...(m.reportDir ? { reportDir: m.reportDir } : {}) } }, m.confirmOver !== null);
});

async function run(job: ReviewJob, ask: boolean): Promise<void> {
  try {
    const outcome = await runJob(job, {
      emit: (event) => {
        if (event.type === 'inventory') post({ type: 'prepared', files: event.files.length, companions: event.companions, excluded: event.excluded, paths: event.files });
        else post({ type: 'event', event });
      },
      ...(ask ? { confirm: (estimate) => new Promise<boolean>((resolve) => {
        proceed = resolve;
        post({ type: 'confirm', calls: estimate.calls, inputTokens: estimate.inputTokens });
      }) } : {}),
      signal: controller.signal,
    });
    if (outcome.kind === 'skipped') return post({ type: 'skipped', reason: outcome.reason });
    if (outcome.kind === 'ran' && outcome.outputs) post({ type: 'report', path: outcome.outputs.reportPath, markdown: outcome.outputs.markdown });
    post({ type: 'finished' });
  } catch (err) {
    const setup = err instanceof ScopeError || err instanceof GitError;
    post({ type: 'failed', message: err instanceof Error ? err.message : String(err), setup });
  }
}
