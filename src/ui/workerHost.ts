/**
 * Runs one review in dist/worker.js and relays its messages. The extension host never does review work
 * itself; a worker that crashes or stops answering is reported, never waited on forever.
 */
import { Worker } from 'node:worker_threads';
// Types only: this module runs nothing of VS Code, so plain mocha can test it.
import type { Disposable } from 'vscode';
import { WorkerMessage, type HostMessage, type RunSummary } from '../app/protocol';

/** After a cancel, how long the worker gets to return what it finished before it is stopped. */
const CANCEL_GRACE_MS = 5000;

export type WorkerOutcome =
  | { kind: 'finished'; summary: RunSummary | null }
  | { kind: 'skipped'; reason: string }
  | { kind: 'failed'; message: string; setup: boolean }
  | { kind: 'crashed'; message: string };

export class ReviewWorker implements Disposable {
  private readonly worker: Worker;
  private settled = false;
  private cancelTimer: NodeJS.Timeout | undefined;
  readonly done: Promise<WorkerOutcome>;

  constructor(
    script: string,
    onMessage: (m: WorkerMessage) => void,
    private readonly cancelGraceMs = CANCEL_GRACE_MS,
  ) {
    this.worker = new Worker(script);
    this.done = new Promise((resolve) => {
      const settle = (o: WorkerOutcome) => {
        if (this.settled) return;
        this.settled = true;
        clearTimeout(this.cancelTimer);
        resolve(o);
        void this.worker.terminate();
      };
      this.worker.on('message', (raw: unknown) => {
        const parsed = WorkerMessage.safeParse(raw);
        if (!parsed.success)
          return settle({
            kind: 'crashed',
            message: `unexpected message from the worker: ${parsed.error.issues[0]?.message}`,
          });
        const m = parsed.data;
        if (m.type === 'finished') settle({ kind: 'finished', summary: m.summary });
        else if (m.type === 'skipped') settle({ kind: 'skipped', reason: m.reason });
        else if (m.type === 'failed') settle({ kind: 'failed', message: m.message, setup: m.setup });
        else onMessage(m);
      });
      this.worker.on('error', (err) => settle({ kind: 'crashed', message: err.message }));
      this.worker.on('exit', (code) =>
        settle({ kind: 'crashed', message: `the review worker exited (code ${code}) before it finished` }),
      );
    });
  }

  send(message: HostMessage): void {
    if (!this.settled) this.worker.postMessage(message);
  }

  /** Asks the worker to stop; it returns what it finished, or is stopped after a grace period. */
  cancel(): void {
    if (this.settled) return;
    this.send({ type: 'cancel' });
    this.cancelTimer ??= setTimeout(() => void this.worker.terminate(), this.cancelGraceMs);
  }

  dispose(): void {
    clearTimeout(this.cancelTimer);
    void this.worker.terminate();
  }
}
