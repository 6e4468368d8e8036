import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FactStore, SHARD_BYTES, type ContentFacts } from '../../src/scope/facts';

const ID = 'ab'.padEnd(40, '0');
const facts: ContentFacts = { bytes: 10, chars: 10, lines: 1, binary: false, generated: false, mapped: false };

describe('the facts store writes a shard only for what changed', () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'skeptic-facts-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('a content judged again as it was is not written again; a change is', async () => {
    const store = new FactStore(dir);
    await store.add(ID, facts);
    await store.flush();
    assert.deepEqual(await readdir(dir), ['ab.facts']);
    await rm(join(dir, 'ab.facts'));

    const known = (await store.get(ID))!;
    await store.add(ID, { ...known });
    await store.flush();
    assert.deepEqual(await readdir(dir), [], 'the unchanged facts were written again');

    await store.add(ID, { ...known, secret: { rules: 'r', hit: null } });
    await store.flush();
    assert.equal((await new FactStore(dir).get(ID))?.secret?.rules, 'r');
  });

  it('over the cap, the oldest lines go and the newest stay', async () => {
    const store = new FactStore(dir);
    const ids = Array.from({ length: 3000 }, (_, i) => `ab${i.toString(16).padStart(38, '0')}`);
    for (const id of ids) await store.add(id, facts);
    await store.flush();
    const text = await readFile(join(dir, 'ab.facts'), 'utf8');
    assert.ok(Buffer.byteLength(text) <= SHARD_BYTES);
    const kept = text.trimEnd().split('\n');
    assert.ok(kept.length < ids.length, 'the shard was not over its cap: the test sizes it wrong');
    assert.deepEqual(
      kept.map((l) => l.slice(0, 40)),
      ids.slice(ids.length - kept.length),
    );
  });
});
