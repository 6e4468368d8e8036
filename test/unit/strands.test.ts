import assert from 'node:assert/strict';
import { Strands } from '../../src/engine/strands';

describe('strands: what a batch round waits for', () => {
  it('is idle only once every strand waits on a result or on units of its own, or has ended', async () => {
    let idle = 0;
    const strands = new Strands(() => idle++);
    const chain = strands.begin();
    // The chain waits on two units of its own; each is counted from its start, and waits on the batcher.
    const results: (() => void)[] = [];
    const unit = () => {
      const u = strands.begin();
      const back = strands.park();
      return new Promise<void>((resolve) => results.push(() => (back(), resolve()))).then(() => u.end());
    };
    const both = chain.away(() => Promise.all([unit(), unit()]));
    assert.equal(idle, 1, 'the chain and both units wait');
    assert.equal(strands.busy, false);

    results[0]!();
    await Promise.resolve();
    assert.equal(strands.busy, false, 'one unit is done, the other still waits');
    results[1]!();
    await both;
    assert.equal(strands.busy, true, 'the chain goes on between its units');
    const before = idle;
    chain.end();
    assert.equal(strands.busy, false);
    assert.equal(idle, before + 1);
  });

  it('counts work inside the strand it was started from, found by its async context, not handed down', async () => {
    let idle = 0;
    const strands = new Strands(() => idle++);
    const results: (() => void)[] = [];
    // A unit: counted from its start, waiting on the batcher once it asks.
    const unit = () =>
      strands.count(async () => {
        const back = strands.park();
        await new Promise<void>((resolve) => results.push(() => (back(), resolve())));
      });
    // A chain of units with work between them; its second unit starts another inside itself (rebuilt smaller).
    const chain = strands.count(async () => {
      await unit();
      await new Promise((resolve) => setImmediate(resolve));
      await strands.count(async () => {
        await Promise.resolve();
        await unit();
      });
    });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(strands.busy, false, 'the chain waits on its unit, the unit on its result');
    assert.equal(idle, 1);
    const before = idle;
    results[0]!();
    for (let i = 0; i < 5 && results.length < 2; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(results.length, 2);
    assert.equal(strands.busy, false, 'the outer unit waits on the one inside it without counting');
    assert.ok(idle > before);
    results[1]!();
    await chain;
    assert.equal(strands.busy, false, 'the chain ended');
  });

  it('counts nothing for a request sent from outside any strand', () => {
    const strands = new Strands(() => assert.fail('idle without a strand'));
    const back = strands.park();
    back();
    assert.equal(strands.busy, false);
  });
});
