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
});
