import assert from 'node:assert/strict';
import { Connection } from '../../src/app/connection';
import { ConfirmRun, FindingMade, Prepared, RunEvent, StartReview } from '../../src/app/protocol';

const target = { cwd: '/w', scope: { kind: 'paths', paths: ['src'] } };
const diagnostic = {
  at: { file: 'a.ts', line: 0, endLine: 0 },
  severity: 'error',
  message: 'm',
  source: 'Skeptic',
  code: 'A1',
  related: [],
};

/** Two ends joined back to back, each message delivered on a later turn as a port would. */
function pair() {
  const problems: string[] = [];
  const wire: unknown[] = [];
  let host!: Connection;
  let worker!: Connection;
  const deliver = (to: () => Connection) => (m: unknown) => (wire.push(m), queueMicrotask(() => to().receive(m)));
  host = new Connection(
    deliver(() => worker),
    (p) => problems.push(`host: ${p}`),
  );
  worker = new Connection(
    deliver(() => host),
    (p) => problems.push(`worker: ${p}`),
  );
  return { host, worker, problems, wire };
}

describe('host ↔ worker protocol', () => {
  it('accepts a well-formed start, and settings junk reads as unset', () => {
    const m = StartReview.params.parse({
      choices: { ...target, maxConcurrency: 'lots', excludes: ['dist/**'], effort: 3 },
      severityMap: 'loud',
      apiKey: 'k',
    });
    assert.equal(m.choices.maxConcurrency, undefined);
    assert.equal(m.choices.effort, undefined);
    assert.deepEqual(m.choices.excludes, ['dist/**']);
    assert.equal(m.severityMap, undefined);
  });

  it('rejects malformed starts', () => {
    assert.ok(!StartReview.params.safeParse({ choices: target }).success, 'the key, even empty, is stated');
    assert.ok(
      !StartReview.params.safeParse({ choices: { ...target, scope: { kind: 'branch' } }, apiKey: 'k' }).success,
    );
    assert.ok(!StartReview.params.safeParse({ choices: {}, apiKey: 'k' }).success, 'the target is required');
  });

  it('checks what the worker tells by shape', () => {
    assert.ok(Prepared.params.safeParse({ files: 2, companions: 1, excluded: 0, paths: ['a', 'b'] }).success);
    assert.ok(!Prepared.params.safeParse({ files: 2.5, companions: 1, excluded: 0, paths: [] }).success);
    assert.ok(RunEvent.params.safeParse({ type: 'progress', step: 'review', done: 1, total: 2, message: 'x' }).success);
    assert.ok(!RunEvent.params.safeParse('progress').success);
    assert.ok(FindingMade.params.safeParse({ finding: { file: 'a.ts' }, diagnostic }).success);
    assert.ok(
      !FindingMade.params.safeParse({
        finding: { file: 'a.ts' },
        diagnostic: { ...diagnostic, at: { file: 'a.ts', line: -1, endLine: 0 } },
      }).success,
      'places arrive clamped',
    );
    assert.ok(!StartReview.result.safeParse({ kind: 'failed', message: 'x' }).success);
    assert.ok(
      StartReview.result.safeParse({
        kind: 'finished',
        summary: { findings: 1, calls: 3, costUsd: null, notReviewed: [], lines: [] },
      }).success,
    );
  });
});

describe('a typed connection', () => {
  const estimate = { calls: 400, inputTokens: 1, costUsd: null, threshold: 300 };

  it('answers each request by its id, and drops an answer to a question never asked', async () => {
    const { host, worker, problems, wire } = pair();
    let answer!: (yes: boolean) => void;
    host.onRequest(ConfirmRun, () => new Promise<boolean>((resolve) => (answer = resolve)));
    const asked = worker.sendRequest(ConfirmRun, estimate);
    let settled = false;
    void asked.then(() => (settled = true));
    const request = wire.find((m) => (m as { kind: string }).kind === 'request');
    // An answer to another id, and a second answer later, change nothing.
    worker.receive({ kind: 'response', id: (request as { id: number }).id + 1, result: true });
    await Promise.resolve();
    assert.equal(settled, false, 'the question is still open');
    answer(false);
    assert.equal(await asked, false);
    worker.receive({ kind: 'response', id: (request as { id: number }).id, result: true });
    assert.deepEqual(problems, []);
  });

  it('refuses params that break the declaration, and reports messages that fit no envelope', async () => {
    const { host, worker, problems } = pair();
    host.onRequest(ConfirmRun, () => true);
    await assert.rejects(worker.sendRequest(ConfirmRun, { ...estimate, calls: 'many' } as never), /confirm: calls/);
    worker.receive({ type: 'teapot' });
    assert.equal(problems.length, 1);
    await assert.rejects(
      worker.sendRequest(StartReview, { choices: target, apiKey: 'k' } as never),
      /unknown request start/,
    );
  });

  it('gives up on a request when its signal aborts, and fails open requests when the other side goes', async () => {
    const { host, worker } = pair();
    host.onRequest(ConfirmRun, () => new Promise<boolean>(() => undefined));
    const stop = new AbortController();
    const asked = worker.sendRequest(ConfirmRun, estimate, stop.signal);
    stop.abort(new Error('cancelled'));
    await assert.rejects(asked, /cancelled/);
    const open = worker.sendRequest(ConfirmRun, estimate);
    worker.dispose(new Error('the other side is gone'));
    await assert.rejects(open, /gone/);
  });
});
