/**
 * Records several runs share: the state folder's list of outputs (two runs finishing at once must both be
 * recorded, or a later run reviews a `--json` file as source) and result-cache entries (one answers only for
 * the key it was written under, so an entry copied or planted under another name is a miss).
 */
import assert from 'node:assert/strict';
import { copyFileSync, readdirSync, symlinkSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { knownOutputs, recordOutputs } from '../../src/app/state';
import { ResultCache } from '../../src/engine/resultCache';

describe('state and cache records under concurrent and hostile use', () => {
  it('twenty runs recording their outputs at once lose none of them', async () => {
    const state = await mkdtemp(join(tmpdir(), 'skeptic-state-'));
    const paths = Array.from({ length: 20 }, (_, i) => `/work/out-${i}.json`);
    await Promise.all(paths.map((p) => recordOutputs(state, [p])));
    assert.deepEqual(await knownOutputs(state), [...paths].sort());
    assert.deepEqual(readdirSync(state), ['outputs.json'], 'no lock or temp file is left behind');
  });

  it('a cache entry copied under another key is a miss; its own key still answers', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skeptic-cache-'));
    const cache = new ResultCache(dir);
    const [a, b] = [ResultCache.key({ unit: 'a' }), ResultCache.key({ unit: 'b' })];
    await cache.put(a, { answer: 'for a' });
    const at = (k: string) => join(dir, k.slice(0, 2), `${k}.json`);
    await cache.put(b, { answer: 'for b' });
    copyFileSync(at(a), at(b));
    assert.deepEqual(await cache.get(a), { answer: 'for a' });
    assert.equal(await cache.get(b), undefined);
  });

  it('a cache shard that links out of the cache folder is never written through', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skeptic-cache-'));
    const outside = await mkdtemp(join(tmpdir(), 'skeptic-outside-'));
    const key = ResultCache.key({ unit: 'c' });
    symlinkSync(outside, join(dir, key.slice(0, 2)));
    await new ResultCache(dir).put(key, { answer: 'c' });
    assert.deepEqual(readdirSync(outside), []);
    await assert.rejects(readFile(join(outside, `${key}.json`)));
  });
});
