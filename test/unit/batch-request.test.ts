import assert from 'node:assert/strict';
import type Anthropic from '@anthropic-ai/sdk';
import { BatchRequest, NEXT, type RequestState } from '../../src/engine/batchRequest';

const params = { model: 'claude-test', max_tokens: 10, messages: [{ role: 'user' as const, content: 'hi' }] };
const message = { id: 'msg_1', content: [] } as unknown as Anthropic.Messages.Message;

/** A request with one waiter, and what the waiter got. */
function request() {
  const r = new BatchRequest('unit-1', 'h', params, 100);
  const got: { message?: unknown; error?: unknown } = {};
  r.waiters.push({ resolve: (m) => (got.message = m), reject: (e) => (got.error = e) });
  return { r, got };
}

const walk = (r: BatchRequest, states: RequestState[]) => states.forEach((s) => r.move(s));

describe('a batch request: one state, moved only along its edges', () => {
  it('walks a round, a wait for the create, a paused create, a 413 half and a batch to its message', () => {
    const { r, got } = request();
    assert.deepEqual(r.state, { at: 'queued' });
    walk(r, [
      { at: 'waiting' },
      { at: 'creating' },
      { at: 'pausing' },
      { at: 'waiting' },
      { at: 'creating' },
      { at: 'waiting' },
      { at: 'creating' },
      { at: 'submitted', batch: 'msgbatch_1' },
    ]);
    r.settle(message);
    assert.deepEqual(r.state, { at: 'done' });
    assert.equal(got.message, message);
  });

  it('is taken from an earlier run’s batch straight from the round, and fails with the error it is given', () => {
    const { r, got } = request();
    r.move({ at: 'submitted', batch: 'msgbatch_earlier' });
    const gone = new Error('batch msgbatch_earlier disappeared');
    r.settle(gone);
    assert.deepEqual(r.state, { at: 'failed' });
    assert.equal(got.error, gone);
  });

  it('refuses a move its state has no edge for, and stays where it was', () => {
    const { r } = request();
    assert.throws(() => r.settle(message), /unit-1: no way from queued to done/);
    assert.deepEqual(r.state, { at: 'queued' });
    walk(r, [{ at: 'waiting' }]);
    assert.throws(() => r.move({ at: 'submitted', batch: 'b' }), /no way from waiting to submitted/);
    assert.throws(() => r.move({ at: 'pausing' }), /no way from waiting to pausing/);
  });

  it('is settled once: done and failed are final, and a second answer reaches no waiter', () => {
    const { r, got } = request();
    walk(r, [{ at: 'waiting' }, { at: 'failed' }]);
    for (const at of Object.keys(NEXT) as RequestState['at'][])
      assert.throws(() => r.move({ at, batch: 'b' } as RequestState), /no way from failed/);
    assert.throws(() => r.settle(message));
    assert.equal(got.message, undefined);
    assert.deepEqual(NEXT.done, []);
  });

  it('every state is reachable from queued and can end', () => {
    const seen = new Set<string>(['queued']);
    for (let grew = true; grew;) {
      grew = false;
      for (const at of [...seen])
        for (const next of NEXT[at as RequestState['at']]) if (!seen.has(next)) grew = !!seen.add(next);
    }
    assert.deepEqual([...seen].sort(), Object.keys(NEXT).sort());
    for (const [at, next] of Object.entries(NEXT))
      assert.ok(at === 'done' || at === 'failed' || next.includes('failed'), `${at} can fail`);
  });
});
