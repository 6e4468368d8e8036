import assert from 'node:assert/strict';
import { HostMessage, WorkerMessage } from '../../src/app/protocol';

const job = {
  cwd: '/w',
  scope: { kind: 'paths', paths: ['src'] },
  models: { curate: 'm', analyze: 'm', review: 'm', challenge: 'm', synthesize: 'm' },
  concurrency: 8,
  timeoutMs: 60_000,
  maxAttempts: 6,
  apiKey: 'k',
};

describe('host ↔ worker protocol', () => {
  it('accepts a well-formed start and fills job defaults', () => {
    const m = HostMessage.parse({ type: 'start', job, confirmOver: 300 });
    assert.equal(m.type, 'start');
    if (m.type === 'start') {
      assert.deepEqual(m.job.excludes, []);
      assert.equal(m.job.includeUntracked, true);
      assert.equal(m.job.force, false);
    }
  });

  it('rejects malformed host messages', () => {
    assert.ok(!HostMessage.safeParse({ type: 'start', job: { ...job, apiKey: '' }, confirmOver: null }).success);
    assert.ok(!HostMessage.safeParse({ type: 'start', job: { ...job, concurrency: 0 }, confirmOver: null }).success);
    assert.ok(!HostMessage.safeParse({ type: 'start', job: { ...job, scope: { kind: 'branch' } }, confirmOver: null }).success);
    assert.ok(!HostMessage.safeParse({ type: 'start', job }).success, 'confirmOver is required (null to never ask)');
    assert.ok(!HostMessage.safeParse({ type: 'explode' }).success);
    assert.ok(HostMessage.safeParse({ type: 'cancel' }).success);
  });

  it('checks worker messages by shape', () => {
    assert.ok(WorkerMessage.safeParse({ type: 'prepared', files: 2, companions: 1, excluded: 0, paths: ['a', 'b'] }).success);
    assert.ok(!WorkerMessage.safeParse({ type: 'prepared', files: 2.5, companions: 1, excluded: 0, paths: [] }).success);
    assert.ok(WorkerMessage.safeParse({ type: 'event', event: { type: 'progress', step: 'review', done: 1, total: 2, message: 'x' } }).success);
    assert.ok(!WorkerMessage.safeParse({ type: 'event', event: 'progress' }).success);
    assert.ok(!WorkerMessage.safeParse({ type: 'failed', message: 'x' }).success);
  });
});
