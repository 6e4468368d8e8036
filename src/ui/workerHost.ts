/**
 * Runs one review in dist/worker.js over the typed protocol (src/app/protocol.ts). The extension host never
 * does review work itself; a worker that crashes, talks nonsense or stops answering is reported, never
 * waited on forever.
 */
import { Worker } from 'node:worker_threads';
// Types only: this module runs nothing of VS Code, so plain mocha can test it.
import type { Disposable } from 'vscode';
import { Connection } from '../app/connection';
import {
  CancelReview,
  CheckSetup,
  PlanReview,
  StartReview,
  type PlanAnswer,
  type CheckAnswer,
  type CheckParams,
  type ReviewOutcome,
  type StartParams,
} from '../app/protocol';

/** After a cancel, how long the worker gets to return what it finished before it is stopped. */
const CANCEL_GRACE_MS = 5000;

export type WorkerOutcome = ReviewOutcome | { kind: 'crashed'; message: string } | ({ kind: 'checked' } & CheckAnswer);

export class ReviewWorker implements Disposable {
  private readonly worker: Worker;
  private settled = false;
  private cancelTimer: NodeJS.Timeout | undefined;
  /** Register the handlers for the worker's requests and notifications here before `start`. */
  readonly connection: Connection;
  readonly done: Promise<WorkerOutcome>;
  private settle: (o: WorkerOutcome) => void = () => undefined;

  constructor(
    script: string,
    private readonly cancelGraceMs = CANCEL_GRACE_MS,
  ) {
    this.worker = new Worker(script);
    this.done = new Promise((resolve) => {
      this.settle = (o) => {
        if (this.settled) return;
        this.settled = true;
        clearTimeout(this.cancelTimer);
        this.connection.dispose(new Error('the review worker stopped'));
        resolve(o);
        void this.worker.terminate();
      };
    });
    this.connection = new Connection(
      (m) => {
        if (!this.settled) this.worker.postMessage(m);
      },
      (problem) => this.settle({ kind: 'crashed', message: `unexpected message from the worker: ${problem}` }),
    );
    this.worker.on('message', (raw: unknown) => this.connection.receive(raw));
    this.worker.on('error', (err) => this.settle({ kind: 'crashed', message: err.message }));
    this.worker.on('exit', (code) =>
      this.settle({ kind: 'crashed', message: `the review worker exited (code ${code}) before it finished` }),
    );
  }

  /** Starts the review; `done` settles with its answer. */
  start(params: StartParams): void {
    this.connection.sendRequest(StartReview, params).then(
      (outcome) => this.settle(outcome),
      (err: Error) => this.settle({ kind: 'crashed', message: err.message }),
    );
  }

  /** Checks the setup instead (Check Setup); `done` settles with the lines. */
  check(params: CheckParams): void {
    this.connection.sendRequest(CheckSetup, params).then(
      (answer) => this.settle({ kind: 'checked', ...answer }),
      (err: Error) => this.settle({ kind: 'crashed', message: err.message }),
    );
  }

  /** The estimate of a review instead (no model call); the worker is not otherwise used. */
  plan(params: StartParams): Promise<PlanAnswer> {
    return Promise.race([
      this.connection.sendRequest(PlanReview, params),
      this.done.then((o): PlanAnswer => ({
        kind: 'failed',
        code: 'fatal',
        message: 'message' in o ? o.message : o.kind,
      })),
    ]);
  }

  /** Asks the worker to stop; it returns what it finished, or is stopped after a grace period. */
  cancel(): void {
    if (this.settled) return;
    this.connection.sendNotification(CancelReview, {});
    this.cancelTimer ??= setTimeout(() => void this.worker.terminate(), this.cancelGraceMs);
  }

  dispose(): void {
    clearTimeout(this.cancelTimer);
    void this.worker.terminate();
  }
}
