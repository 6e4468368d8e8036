import assert from 'node:assert/strict';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ResultCache } from '../../src/engine/resultCache';

describe('result cache', () => {
  it('keys by every ingredient', () => {
    const base = { model: 'm', system: 's', content: [{ text: 'a' }] };
    assert.equal(ResultCache.key(base), ResultCache.key({ ...base }));
    assert.notEqual(ResultCache.key(base), ResultCache.key({ ...base, model: 'n' }));
    assert.notEqual(ResultCache.key(base), ResultCache.key({ ...base, content: [{ text: 'b' }] }));
  });

  it('returns what was put, misses what was not, and shrugs off a corrupt entry', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skeptic-cache-'));
    const cache = new ResultCache(dir);
    const key = ResultCache.key({ x: 1 });
    assert.equal(await cache.get(key), undefined);
    await cache.put(key, { answer: 42 });
    assert.deepEqual(await cache.get(key), { answer: 42 });
    await writeFile(join(dir, key.slice(0, 2), `${key}.json`), '{"answ');
    assert.equal(await cache.get(key), undefined);
    assert.deepEqual(
      (await readdir(join(dir, key.slice(0, 2)))).filter((f) => f.endsWith('.tmp')),
      [],
      'no temp files left behind',
    );
  });

  it('a snapshot reader sees the entries each shard held when it first looked there, and opens no entry it lacks', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skeptic-cache-'));
    const writer = new ResultCache(dir);
    const before = ResultCache.key({ n: 'before' });
    await writer.put(before, 'kept');
    const snapshot = new ResultCache(dir, undefined, true);
    assert.equal(await snapshot.get(before), 'kept');
    // A key of the same shard, and one of a shard folder that did not exist, both written after the first look.
    let later = ResultCache.key({ n: 0 });
    for (let n = 1; later.slice(0, 2) !== before.slice(0, 2); n++) later = ResultCache.key({ n });
    let elsewhere = ResultCache.key({ m: 0 });
    for (let m = 1; (await readdir(dir)).includes(elsewhere.slice(0, 2)); m++) elsewhere = ResultCache.key({ m });
    assert.equal(await snapshot.get(elsewhere), undefined);
    await writer.put(later, 'new');
    await writer.put(elsewhere, 'new');
    assert.equal(await snapshot.get(later), undefined);
    assert.equal(await snapshot.get(elsewhere), undefined);
    assert.equal(await new ResultCache(dir).get(later), 'new', 'an ordinary reader opens the entry');
    assert.equal(await new ResultCache(dir, undefined, true).get(elsewhere), 'new', 'so does a new snapshot');
  });
});
