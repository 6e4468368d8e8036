import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { HostMessage } from '../../src/app/protocol';
import type { WorkerMessage } from '../../src/app/protocol';
import { useFakeServer } from '../helpers/fakeServer';
import { fixtureWorkspace, REPO } from '../helpers/cli';

/** Runs dist/worker.js as the extension does and collects what it posts, until it finishes or fails. */
function runWorker(
  start: HostMessage,
  onMessage: (m: WorkerMessage, worker: Worker) => void = () => undefined,
): Promise<WorkerMessage[]> {
  const worker = new Worker(join(REPO, 'dist/worker.js'));
  const seen: WorkerMessage[] = [];
  return new Promise((resolve, reject) => {
    worker.on('message', (m: WorkerMessage) => {
      seen.push(m);
      onMessage(m, worker);
      if (m.type === 'finished' || m.type === 'failed' || m.type === 'skipped')
        void worker.terminate().then(() => resolve(seen));
    });
    worker.on('error', reject);
    worker.postMessage(start);
  });
}

describe('the review worker thread', function () {
  this.timeout(60_000);
  const fake = useFakeServer();

  const start = (cwd: string, confirmThreshold = 1_000_000): HostMessage => ({
    type: 'start',
    choices: {
      cwd,
      scope: { kind: 'paths', paths: ['shop'] },
      reportFolder: '',
      maxConcurrency: 4,
      requestTimeout: 30,
      maxAttempts: 3,
      baseUrl: fake.server.url,
      confirmThreshold,
      cacheResults: false,
    },
    severityMap: {},
    apiKey: 'worker-key',
  });

  it('posts prepared, progress, findings, the report and finished, in that order', async () => {
    const cwd = await fixtureWorkspace('shop');
    const seen = await runWorker(start(cwd));
    const kinds = seen.map((m) => (m.type === 'event' ? `event:${m.event.type}` : m.type));
    assert.equal(kinds[0], 'prepared');
    assert.deepEqual(kinds.slice(-2), ['report', 'finished']);
    assert.ok(kinds.includes('event:progress'));
    const findings = seen.flatMap((m) => (m.type === 'finding' ? [m] : []));
    assert.equal(findings.length, 7);
    const finished = seen.at(-1)!;
    assert.ok(finished.type === 'finished' && finished.summary);
    assert.equal(finished.summary.findings, 7);
    assert.ok(finished.summary.calls > 0);
    // Places come clamped, 0-based, for the Problems panel: the host reads no source file.
    for (const { finding, diagnostic } of findings) assert.equal(diagnostic.at.line, finding.line - 1);
    const report = seen.find((m) => m.type === 'report');
    assert.ok(report && report.type === 'report');
    // The extension's reports go to Skeptic's own folder, which keeps them out of git.
    assert.equal(report.path, join(cwd, '.skeptic/reports/code-review-shop.md'));
    assert.match(readFileSync(join(cwd, '.skeptic/.gitignore'), 'utf8'), /^\*$/m);
    assert.match(report.markdown, /^# Code Review: shop/);
  });

  it('asks before a run over the threshold, and runs nothing when the host says cancel', async () => {
    const cwd = await fixtureWorkspace('shop');
    const seen = await runWorker(start(cwd, 1), (m, w) => {
      if (m.type === 'confirm') w.postMessage({ type: 'cancel' } satisfies HostMessage);
    });
    const confirm = seen.find((m) => m.type === 'confirm');
    assert.ok(confirm && confirm.type === 'confirm' && confirm.calls > 1);
    assert.equal(confirm.threshold, 1);
    assert.deepEqual(seen.at(-1), { type: 'finished', summary: null });
    assert.equal(fake.server.requests.length, 0);
  });

  it('runs only on a proceed that answers the question asked (by its id)', async () => {
    const cwd = await fixtureWorkspace('shop');
    let callsAfterWrongId = -1;
    const seen = await runWorker(start(cwd, 1), (m, w) => {
      if (m.type !== 'confirm') return;
      w.postMessage({ type: 'proceed', id: 'some other question' } satisfies HostMessage);
      setTimeout(() => {
        callsAfterWrongId = fake.server.requests.length;
        w.postMessage({ type: 'proceed', id: m.id } satisfies HostMessage);
      }, 300);
    });
    assert.equal(callsAfterWrongId, 0, 'a proceed with another id starts nothing');
    assert.equal(seen.at(-1)!.type, 'finished');
    assert.ok(fake.server.requests.length > 0);
  });

  it('cancels in-flight calls and keeps the findings already made', async () => {
    const cwd = await fixtureWorkspace('shop');
    // price.ts finishes quickly; cart.ts's calls hang long enough to be cancelled.
    fake.server.setScenario({
      ...fake.scenario,
      faults: [{ kind: 'slow', ms: 20_000, times: -1, match: { file: 'shop/cart.ts', record: 'PerFunctionReview' } }],
    });
    let cancelled = false;
    const seen = await runWorker(start(cwd), (m, w) => {
      const priceDone = m.type === 'finding' && m.finding.file === 'shop/price.ts';
      if (priceDone && !cancelled) {
        cancelled = true;
        w.postMessage({ type: 'cancel' } satisfies HostMessage);
      }
    });
    fake.server.setScenario(fake.scenario);
    assert.ok(cancelled);
    const finished = seen.at(-1)!;
    assert.ok(finished.type === 'finished' && finished.summary);
    assert.equal(finished.summary.stopped, 'cancelled');
    const findings = seen.flatMap((m) => (m.type === 'finding' ? [m.finding] : []));
    assert.ok(
      findings.some((f) => f.file === 'shop/price.ts'),
      'findings made before the cancel are kept',
    );
    assert.ok(!findings.some((f) => f.file === 'shop/cart.ts' && f.source !== 'cross_file'));
    assert.ok(
      finished.summary.notReviewed.some((line) => line.startsWith('shop/cart.ts ')),
      'cart.ts is listed as not reviewed',
    );
    assert.ok(
      seen.some((m) => m.type === 'report'),
      'a partial report is written',
    );
    assert.ok(
      fake.server.requests.some((r) => r.record === 'PerFunctionReview' && r.status === null),
      'the hanging calls were aborted, not awaited',
    );
  });
});
