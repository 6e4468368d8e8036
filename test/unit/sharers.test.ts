/** Whether a prime pays, from the count of the calls planned on a prefix (engine/sharers.ts, engine/staged/startingFiles.ts). */
import assert from 'node:assert/strict';
import { PrefixSharers } from '../../src/engine/sharers';
import { StartingFiles } from '../../src/engine/staged/startingFiles';

/** The decision if it is taken by now (after pending callbacks), else 'open'. */
async function decided(shared: Promise<boolean>): Promise<boolean | 'open'> {
  return Promise.race([shared, new Promise<'open'>((resolve) => setImmediate(() => resolve('open')))]);
}

describe('prefix sharers', () => {
  it('shared once a second planned call misses the result cache, whatever came before', async () => {
    const group = new PrefixSharers(3);
    const [a, b, c] = [group.sharer(), group.sharer(), group.sharer()];
    const first = a.looked(true);
    assert.equal(await decided(first), 'open', 'one miss and two calls still to look');
    void b.looked(false);
    assert.equal(await decided(first), 'open');
    assert.equal(await c.looked(true), true);
    assert.equal(await first, true);
  });

  it('not shared once every planned call has looked or dropped and at most one missed', async () => {
    const group = new PrefixSharers(3);
    const [a, b, c] = [group.sharer(), group.sharer(), group.sharer()];
    const first = a.looked(true);
    void b.looked(false);
    c.drop();
    assert.equal(await first, false);
  });

  it('counts a call once: one rebuilt and run again does not make a second sharer', async () => {
    const group = new PrefixSharers(2);
    const [a, b] = [group.sharer(), group.sharer()];
    const first = a.looked(true);
    void a.looked(true);
    assert.equal(await decided(first), 'open');
    void b.looked(false);
    assert.equal(await first, false);
  });

  it('an open group decides nothing alone until it is closed', async () => {
    const group = new PrefixSharers(0, { open: true });
    const first = group.add().looked(true);
    assert.equal(await decided(first), 'open');
    group.close();
    assert.equal(await first, false);
  });
});

describe('the files a staged run starts with', () => {
  it('the first kept files up to the bound count; a later file waits for their decision', async () => {
    const starting = new StartingFiles(4, 2);
    starting.verdict(0, false);
    starting.verdict(1, true);
    starting.verdict(2, true);
    starting.verdict(3, true);
    const later = starting.of(3).looked(true);
    const first = starting.of(1).looked(true);
    assert.equal(await decided(first), 'open', 'file 3 is not among the starting files: its miss does not count');
    void starting.of(2).looked(true);
    assert.equal(await first, true);
    assert.equal(await later, true);
  });

  it('a file that ends before its Step 1 (it could not be read) does not call; the count is whole once Step 0 has judged all', async () => {
    const starting = new StartingFiles(3, 16);
    starting.verdict(0, true);
    starting.verdict(1, true);
    const first = starting.of(0).looked(true);
    starting.ended(1);
    assert.equal(await decided(first), 'open', 'a candidate is still to be judged');
    starting.verdict(2, false);
    assert.equal(await first, false);
  });
});
