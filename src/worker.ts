/**
 * worker_threads entry: runs one review job off the extension host's thread, posts its events, writes the
 * report, and stops in-flight model calls when the host cancels. The logic is in src/app; this is the wrapper.
 */
import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { estimateJob } from './app/estimate';
import { assertReviewable, executeJob, prepareJob, type ReviewJob } from './app/job';
import { writeOutputs } from './app/output';
import { HostMessage, type WorkerMessage } from './app/protocol';
import { GitError } from './scope/git';
import { ScopeError } from './scope/inventory';

const port = parentPort;
if (!port) throw new Error('worker.js must run in a worker thread');
const controller = new AbortController();
let proceed: (() => void) | undefined;
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
    proceed?.();
  } else if (m.type === 'proceed') proceed?.();
  else void run(m.job, m.confirmOver, m.reportDir);
});

async function run(job: ReviewJob, confirmOver: number | null, reportDir: string | undefined): Promise<void> {
  try {
    const prepared = await prepareJob(job);
    const entries = prepared.inventory.discovery.file_entries;
    post({ type: 'prepared', files: entries.length, companions: prepared.companions, excluded: prepared.inventory.excluded.length, paths: entries.map((e) => e.path) });
    if (prepared.scope.skip && !job.force) return post({ type: 'skipped', reason: prepared.scope.skip });
    assertReviewable(prepared);
    if (confirmOver !== null) {
      const estimate = await estimateJob(job, prepared);
      if (estimate.calls > confirmOver) {
        await new Promise<void>((resolve) => {
          proceed = resolve;
          post({ type: 'confirm', calls: estimate.calls, inputTokens: estimate.inputTokens });
        });
        if (controller.signal.aborted) return post({ type: 'finished' });
      }
    }
    const result = await executeJob(job, prepared, (event) => post({ type: 'event', event }), controller.signal);
    // A run that finished nothing has no report; its reason came with the result.
    if (!result.stopped || result.files.some((f) => f.status !== 'failed')) {
      const written = await writeOutputs(result, { cwd: job.cwd, ...(reportDir ? { reportDir } : {}) });
      post({ type: 'report', path: written.reportPath, markdown: await readFile(written.reportPath, 'utf8') });
    }
    post({ type: 'finished' });
  } catch (err) {
    const setup = err instanceof ScopeError || err instanceof GitError;
    post({ type: 'failed', message: err instanceof Error ? err.message : String(err), setup });
  }
}
