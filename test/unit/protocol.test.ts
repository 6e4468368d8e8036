import assert from 'node:assert/strict';
import { HostMessage, WorkerMessage } from '../../src/app/protocol';

const target = { cwd: '/w', scope: { kind: 'paths', paths: ['src'] } };
const diagnostic = {
  at: { file: 'a.ts', line: 0, endLine: 0 },
  severity: 'error',
  message: 'm',
  source: 'Skeptic',
  code: 'A1',
  related: [],
};

describe('host ↔ worker protocol', () => {
  it('accepts a well-formed start, and settings junk reads as unset', () => {
    const m = HostMessage.parse({
      type: 'start',
      choices: { ...target, maxConcurrency: 'lots', excludes: ['dist/**'], effort: 3 },
      severityMap: 'loud',
      apiKey: 'k',
    });
    assert.equal(m.type, 'start');
    if (m.type === 'start') {
      assert.equal(m.choices.maxConcurrency, undefined);
      assert.equal(m.choices.effort, undefined);
      assert.deepEqual(m.choices.excludes, ['dist/**']);
      assert.equal(m.severityMap, undefined);
    }
  });

  it('rejects malformed host messages', () => {
    assert.ok(!HostMessage.safeParse({ type: 'start', choices: target, apiKey: '' }).success);
    assert.ok(
      !HostMessage.safeParse({
        type: 'start',
        choices: { ...target, scope: { kind: 'branch' } },
        apiKey: 'k',
      }).success,
    );
    assert.ok(!HostMessage.safeParse({ type: 'start', choices: {}, apiKey: 'k' }).success, 'the target is required');
    assert.ok(!HostMessage.safeParse({ type: 'proceed' }).success, 'a proceed names the question it answers');
    assert.ok(!HostMessage.safeParse({ type: 'explode' }).success);
    assert.ok(HostMessage.safeParse({ type: 'cancel' }).success);
  });

  it('checks worker messages by shape', () => {
    assert.ok(
      WorkerMessage.safeParse({ type: 'prepared', files: 2, companions: 1, excluded: 0, paths: ['a', 'b'] }).success,
    );
    assert.ok(
      !WorkerMessage.safeParse({ type: 'prepared', files: 2.5, companions: 1, excluded: 0, paths: [] }).success,
    );
    assert.ok(
      WorkerMessage.safeParse({
        type: 'event',
        event: { type: 'progress', step: 'review', done: 1, total: 2, message: 'x' },
      }).success,
    );
    assert.ok(!WorkerMessage.safeParse({ type: 'event', event: 'progress' }).success);
    assert.ok(!WorkerMessage.safeParse({ type: 'failed', message: 'x' }).success);
    assert.ok(WorkerMessage.safeParse({ type: 'finding', finding: { file: 'a.ts' }, diagnostic }).success);
    assert.ok(
      !WorkerMessage.safeParse({
        type: 'finding',
        finding: { file: 'a.ts' },
        diagnostic: { ...diagnostic, at: { file: 'a.ts', line: -1, endLine: 0 } },
      }).success,
      'places arrive clamped',
    );
    assert.ok(
      !WorkerMessage.safeParse({ type: 'confirm', calls: 400, inputTokens: 1, threshold: 300 }).success,
      'a question carries an id',
    );
    assert.ok(
      WorkerMessage.safeParse({
        type: 'finished',
        summary: { findings: 1, calls: 3, costUsd: null, notReviewed: [], lines: [] },
      }).success,
    );
  });
});
