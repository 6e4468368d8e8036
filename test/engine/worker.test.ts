import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { HostMessage } from '../../src/app/protocol';
import type { WorkerMessage } from '../../src/app/workerMessages';
import { resolveStepModels } from '../../src/model/models';
import { useFakeServer } from '../helpers/fakeServer';
import { fixtureWorkspace, REPO } from '../helpers/cli';

/** Runs dist/worker.js as the extension does and collects what it posts, until it finishes or fails. */
function runWorker(start: HostMessage, onMessage: (m: WorkerMessage, worker: Worker) => void = () => undefined): Promise<WorkerMessage[]> {
  const worker = new Worker(join(REPO, 'dist/worker.js'));
  const seen: WorkerMessage[] = [];
  return new Promise((resolve, reject) => {
    worker.on('message', (m: WorkerMessage) => {
      seen.push(m);
      onMessage(m, worker);
      if (m.type === 'finished' || m.type === 'failed' || m.type === 'skipped') void worker.terminate().then(() => resolve(seen));
    });
    worker.on('error', reject);
    worker.postMessage(start);
  });
}

describe('the review worker thread', function () {
  this.timeout(60_000);
  const fake = useFakeServer();

  const start = (cwd: string, confirmOver: number | null = null): HostMessage => ({
    type: 'start',
    job: {
      cwd,
      scope: { kind: 'paths', paths: ['shop'] },
      excludes: [],
      contextFiles: [],
      includeUntracked: true,
      force: false,
      models: resolveStepModels(),
      concurrency: 4,
      timeoutMs: 30_000,
      maxAttempts: 3,
      apiKey: 'worker-key',
      baseURL: fake.server.url,
    },
    confirmOver,
  });

  it('posts prepared, progress, findings, the report and finished, in that order', async () => {
    const cwd = await fixtureWorkspace('shop');
    const seen = await runWorker(start(cwd));
    const kinds = seen.map((m) => (m.type === 'event' ? `event:${m.event.type}` : m.type));
    assert.equal(kinds[0], 'prepared');
    assert.deepEqual(kinds.slice(-3), ['event:done', 'report', 'finished']);
    const findings = seen.flatMap((m) => (m.type === 'event' && m.event.type === 'finding' ? [m.event.finding] : []));
    assert.equal(findings.length, 7);
    const report = seen.find((m) => m.type === 'report');
    assert.ok(report && report.type === 'report');
    assert.equal(report.path, join(cwd, 'code-review-shop.md'));
    assert.match(report.markdown, /^# Code Review: shop/);
  });

  it('asks before a run over the threshold, and runs nothing when the host says cancel', async () => {
    const cwd = await fixtureWorkspace('shop');
    const seen = await runWorker(start(cwd, 1), (m, w) => {
      if (m.type === 'confirm') w.postMessage({ type: 'cancel' } satisfies HostMessage);
    });
    const confirm = seen.find((m) => m.type === 'confirm');
    assert.ok(confirm && confirm.type === 'confirm' && confirm.calls > 1);
    assert.equal(seen.at(-1)!.type, 'finished');
    assert.equal(fake.server.requests.length, 0);
  });

  it('cancels in-flight calls and keeps the findings already made', async () => {
    const cwd = await fixtureWorkspace('shop');
    // price.ts finishes quickly; cart.ts's calls hang long enough to be cancelled.
    fake.server.setScenario({ ...fake.scenario, faults: [{ kind: 'slow', ms: 20_000, times: -1, match: { file: 'shop/cart.ts', record: 'PerFunctionReview' } }] });
    let cancelled = false;
    const seen = await runWorker(start(cwd), (m, w) => {
      const priceDone = m.type === 'event' && m.event.type === 'finding' && m.event.finding.file === 'shop/price.ts';
      if (priceDone && !cancelled) {
        cancelled = true;
        w.postMessage({ type: 'cancel' } satisfies HostMessage);
      }
    });
    fake.server.setScenario(fake.scenario);
    assert.ok(cancelled);
    const done = seen.find((m) => m.type === 'event' && m.event.type === 'done');
    assert.ok(done && done.type === 'event' && done.event.type === 'done');
    const result = done.event.result;
    assert.equal(result.stopped, 'cancelled');
    assert.ok(result.findings.some((f) => f.file === 'shop/price.ts'), 'findings made before the cancel are kept');
    assert.ok(!result.findings.some((f) => f.file === 'shop/cart.ts' && f.source !== 'cross_file'));
    assert.equal(result.files.find((f) => f.path === 'shop/cart.ts')!.status, 'failed');
    assert.ok(seen.some((m) => m.type === 'report'), 'a partial report is written');
    assert.ok(fake.server.requests.some((r) => r.record === 'PerFunctionReview' && r.status === null), 'the hanging calls were aborted, not awaited');
  });
});
