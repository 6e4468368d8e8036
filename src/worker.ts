/** worker_threads entry: runs one review job off the extension host's thread and posts its events. */
import { parentPort } from 'node:worker_threads';
import { assertReviewable, executeJob, prepareJob } from './app/job';
import { HostMessage, type WorkerMessage } from './app/protocol';
import { GitError } from './scope/git';
import { ScopeError } from './scope/inventory';

const port = parentPort;
if (!port) throw new Error('worker.js must run in a worker thread');
const controller = new AbortController();
const post = (m: WorkerMessage) => port.postMessage(m);

port.on('message', (raw: unknown) => {
  const parsed = HostMessage.safeParse(raw);
  if (!parsed.success) {
    post({ type: 'failed', message: `bad message from host: ${parsed.error.issues[0]?.message ?? 'invalid'}`, setup: true });
    return;
  }
  if (parsed.data.type === 'cancel') controller.abort(new Error('cancelled'));
  else void run(parsed.data.job);
});

async function run(job: Parameters<typeof executeJob>[0]): Promise<void> {
  try {
    const prepared = await prepareJob(job);
    post({ type: 'prepared', files: prepared.inventory.discovery.file_entries.length, companions: prepared.companions, excluded: prepared.inventory.excluded.length });
    if (prepared.scope.skip && !job.force) {
      post({ type: 'skipped', reason: prepared.scope.skip });
      return;
    }
    assertReviewable(prepared);
    await executeJob(job, prepared, (event) => post({ type: 'event', event }), controller.signal);
    post({ type: 'finished' });
  } catch (err) {
    const setup = err instanceof ScopeError || err instanceof GitError;
    post({ type: 'failed', message: err instanceof Error ? err.message : String(err), setup });
  }
}
