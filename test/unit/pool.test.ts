import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { mapLimit } from '../../src/model/pool';

describe('model/pool: mapLimit', () => {
  it('keeps the items in order and never has more than the limit in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const out = await mapLimit([5, 1, 4, 2, 3, 0, 6], 3, async (n, i) => {
      most = Math.max(most, ++inFlight);
      await sleep(n);
      inFlight--;
      return `${i}:${n}`;
    });
    assert.deepEqual(out, ['0:5', '1:1', '2:4', '3:2', '4:3', '5:0', '6:6']);
    assert.equal(most, 3);
    assert.deepEqual(await mapLimit([], 4, async () => 1), []);
  });

  it('rejects with the first failure', async () => {
    await assert.rejects(
      mapLimit([1, 2, 3], 2, async (n) => (n === 2 ? Promise.reject(new Error('two')) : n)),
      /two/,
    );
  });
});
