import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkerMessage } from '../../src/app/protocol';
import { ReviewWorker } from '../../src/ui/workerHost';

/** A worker script with the given body; `port` is its parentPort. */
async function script(body: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'skeptic-worker-'));
  const path = join(dir, 'w.js');
  await writeFile(path, `const { parentPort: port } = require('node:worker_threads');\n${body}\n`);
  return path;
}

describe('worker host', () => {
  it('relays messages and settles on finished', async () => {
    const seen: WorkerMessage[] = [];
    const body = `port.postMessage({ type: 'prepared', files: 1, companions: 0, excluded: 0, paths: ['a'] }); port.postMessage({ type: 'finished', summary: { findings: 2, calls: 5, costUsd: 0.25, notReviewed: [], lines: [] } });`;
    const w = new ReviewWorker(await script(body), (m) => seen.push(m));
    assert.deepEqual(await w.done, {
      kind: 'finished',
      summary: { findings: 2, calls: 5, costUsd: 0.25, notReviewed: [], lines: [] },
    });
    assert.deepEqual(
      seen.map((m) => m.type),
      ['prepared'],
    );
  });

  it('reports a worker that throws, exits, or talks nonsense, instead of hanging', async () => {
    const thrown = await new ReviewWorker(await script(`throw new Error('boom in worker');`), () => undefined).done;
    assert.deepEqual(thrown, { kind: 'crashed', message: 'boom in worker' });
    const exited = await new ReviewWorker(await script(`process.exit(3);`), () => undefined).done;
    assert.equal(exited.kind, 'crashed');
    assert.match((exited as { message: string }).message, /exited \(code 3\) before it finished/);
    const nonsense = await new ReviewWorker(await script(`port.postMessage({ type: 'teapot' });`), () => undefined)
      .done;
    assert.equal(nonsense.kind, 'crashed');
    assert.match((nonsense as { message: string }).message, /unexpected message from the worker/);
  });

  it('stops a worker that ignores cancel after the grace period', async () => {
    const w = new ReviewWorker(
      await script(`port.on('message', () => {}); setInterval(() => {}, 1000);`),
      () => undefined,
      100,
    );
    w.cancel();
    const outcome = await w.done;
    assert.equal(outcome.kind, 'crashed');
  });
});
