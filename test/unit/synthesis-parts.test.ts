import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { groupPaths } from '../../src/engine/staged/synthesisParts';

/** At most `n` paths a group. */
const atMost = (n: number) => (paths: string[]) => paths.length <= n;

/**
 * A wide tree as git lists it: folders of every size at several depths, files beside folders, one flat
 * folder too large for a group and one long chain of single folders.
 */
function wideTree(): string[] {
  const paths: string[] = [];
  for (let top = 0; top < 12; top++) {
    for (let f = 0; f < (top * 7) % 5; f++) paths.push(`t${top}/file${f}.ts`);
    for (let sub = 0; sub < 1 + ((top * 5) % 9); sub++)
      for (let f = 0; f < 3 + ((top * 31 + sub * 17) % 60); f++) paths.push(`t${top}/s${sub}/m${f}.ts`);
  }
  for (let f = 0; f < 450; f++) paths.push(`flat/f${f}.py`);
  for (let f = 0; f < 250; f++) paths.push(`a/b/c/d/n${f}.c`);
  for (let f = 0; f < 3; f++) paths.push(`root${f}.md`);
  return paths.sort();
}

const fingerprint = (groups: string[][]) => createHash('sha256').update(JSON.stringify(groups)).digest('hex');

describe('synthesis parts', () => {
  it('keeps a folder whole when it fits, splits one that does not, halves a flat run and packs neighbours', () => {
    const paths = ['a/1', 'a/2', 'b/2', 'b/x/1', 'b/x/2', 'b/y/1', 'c/1', 'c/2', 'c/3', 'c/4', 'c/5', 'top'];
    assert.deepEqual(groupPaths(paths, atMost(3)), [
      ['a/1', 'a/2', 'b/2'],
      ['b/x/1', 'b/x/2', 'b/y/1'],
      ['c/1', 'c/2', 'c/3'],
      ['c/4', 'c/5', 'top'],
    ]);
  });

  // The fingerprints are of the groups as they were before the grouping was made linear (issue 18): a part's
  // folders are in its key, so regrouping would miss the result cache and change the plan's count of calls.
  it('groups a wide tree as it always has: the same parts, so the same keys and the same calls', () => {
    const paths = wideTree();
    const byCount = groupPaths(paths, atMost(100));
    // Each path in exactly one group, in the tree's order.
    assert.deepEqual(byCount.flat(), paths);
    assert.ok(byCount.every((g) => g.length <= 100));
    assert.equal(byCount.length, 35);
    assert.equal(fingerprint(byCount), 'c3eccb3a7ab7a6ba70116d472483791cdec092fec68911d319f38292fd2f0c7b');
    // A size check that reads the paths themselves, as a part's request does.
    const bySize = groupPaths(paths, (group) => group.join('\n').length <= 1500);
    assert.deepEqual(bySize.flat(), paths);
    assert.equal(bySize.length, 26);
    assert.equal(fingerprint(bySize), '7498793243d09f0c968b9847bb3bbf9b63806d814a5c6dfb1a05d8885e1757f7');
  });
});
