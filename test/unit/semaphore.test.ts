import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { Semaphore } from '../../src/model/semaphore';

/** A semaphore of one slot, held until `free` is called. */
function held(): { semaphore: Semaphore; free: () => void } {
  const semaphore = new Semaphore(1);
  let free!: () => void;
  const gate = new Promise<void>((resolve) => (free = resolve));
  void semaphore.run(() => gate);
  return { semaphore, free };
}

describe('Semaphore: waiters and their abort signal', () => {
  it('listens once per signal, however many wait on it, and stops listening when none is left', async () => {
    const { semaphore, free } = held();
    const controller = new AbortController();
    const done: string[] = [];
    const waiting = Array.from({ length: 500 }, (_, i) =>
      semaphore.run(async () => void done.push(`w${i}`), controller.signal, i % 2 ? { rank: i, order: 0 } : undefined),
    );
    // A listener per waiter made a large tree's files, all waiting at once, cost seconds (EventTarget checks every
    // listener it has as one is added).
    assert.equal(getEventListeners(controller.signal, 'abort').length, 1);
    free();
    await Promise.all(waiting);
    assert.equal(done.length, 500);
    assert.equal(getEventListeners(controller.signal, 'abort').length, 0);
  });

  it('an abort rejects every waiter on that signal with its reason and leaves the others their turn', async () => {
    const { semaphore, free } = held();
    const stopped = new AbortController();
    const kept = new AbortController();
    const aborted = Array.from({ length: 50 }, (_, i) =>
      semaphore.run(async () => 'ran', stopped.signal, i % 2 ? { rank: 1, order: i } : undefined),
    );
    const others = [
      semaphore.run(async () => 'ranked', kept.signal, { rank: 5, order: 0 }),
      semaphore.run(async () => 'in order', kept.signal),
    ];
    stopped.abort(new Error('stop'));
    for (const a of await Promise.allSettled(aborted)) {
      assert.equal(a.status, 'rejected');
      assert.equal((a as PromiseRejectedResult).reason.message, 'stop');
    }
    free();
    assert.deepEqual(await Promise.all(others), ['ranked', 'in order']);
    assert.equal(getEventListeners(kept.signal, 'abort').length, 0);
  });

  it('a waiter already aborted is refused at once', async () => {
    const { semaphore } = held();
    await assert.rejects(
      semaphore.run(async () => 1, AbortSignal.abort(new Error('gone'))),
      /gone/,
    );
  });
});
