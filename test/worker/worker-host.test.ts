import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Prepared } from '../../src/app/protocol';
import { ReviewWorker } from '../../src/ui/workerHost';

/** A worker script with the given body; `port` is its parentPort. */
async function script(body: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'skeptic-worker-'));
  const path = join(dir, 'w.js');
  await writeFile(path, `const { parentPort: port } = require('node:worker_threads');\n${body}\n`);
  return path;
}

const summary = { findings: 2, calls: 5, costUsd: 0.25, notReviewed: [], lines: [] };
const params = {
  choices: { cwd: '/w', scope: { kind: 'paths' as const, paths: ['a'] } },
  severityMap: {},
  apiKey: 'k',
};

describe('worker host', () => {
  it('relays notifications and settles on the answer to its start', async () => {
    const seen: string[][] = [];
    const body = `port.on('message', (m) => {
      if (m.kind !== 'request' || m.method !== 'start') return;
      port.postMessage({ kind: 'notification', method: 'prepared', params: { files: 1, companions: 0, excluded: 0, paths: ['a'] } });
      port.postMessage({ kind: 'response', id: m.id, result: { kind: 'finished', summary: ${JSON.stringify(summary)} } });
    });`;
    const w = new ReviewWorker(await script(body));
    w.connection.onNotification(Prepared, (m) => seen.push(m.paths));
    w.start(params);
    assert.deepEqual(await w.done, { kind: 'finished', summary });
    assert.deepEqual(seen, [['a']]);
  });

  it('reports a worker that throws, exits, talks nonsense or answers nonsense, instead of hanging', async () => {
    const outcome = async (body: string) => {
      const w = new ReviewWorker(await script(body));
      w.start(params);
      return (await w.done) as { kind: string; message: string };
    };
    assert.deepEqual(await outcome(`throw new Error('boom in worker');`), {
      kind: 'crashed',
      message: 'boom in worker',
    });
    const exited = await outcome(`process.exit(3);`);
    assert.equal(exited.kind, 'crashed');
    assert.match(exited.message, /exited \(code 3\) before it finished/);
    const nonsense = await outcome(`port.postMessage({ type: 'teapot' }); setInterval(() => {}, 1000);`);
    assert.equal(nonsense.kind, 'crashed');
    assert.match(nonsense.message, /unexpected message from the worker/);
    const badAnswer = await outcome(
      `port.on('message', (m) => port.postMessage({ kind: 'response', id: m.id, result: { kind: 'finished' } })); setInterval(() => {}, 1000);`,
    );
    assert.equal(badAnswer.kind, 'crashed');
    assert.match(badAnswer.message, /malformed answer/);
  });

  it('stops a worker that ignores cancel after the grace period', async () => {
    const w = new ReviewWorker(await script(`port.on('message', () => {}); setInterval(() => {}, 1000);`), 100);
    w.start(params);
    w.cancel();
    const outcome = await w.done;
    assert.equal(outcome.kind, 'crashed');
  });
});
