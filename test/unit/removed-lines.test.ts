import assert from 'node:assert/strict';
import { sourceBlock, toSourceFile } from '../../src/engine/source';
import { REMOVED_CAPS } from '../../src/model/removed';

const file = (removed: Parameters<typeof sourceBlock>[0]['removed']) => ({
  ...toSourceFile('a.ts', 'const a = 1;\nconst b = 2;\n'),
  removed,
});

describe('removed lines in a source block', () => {
  it('follow the file in their own tagged block, numbered on the base side and marked removed', () => {
    const block = sourceBlock(file([{ base: 7, before: 2, lines: ['if (!ok) return;'], omitted: 0 }]), 'primary');
    const [code, removed] = block.split('\n\n');
    assert.match(code!, /role="primary"/);
    assert.match(removed!, /^<(untrusted_source_[0-9a-f]{8}) path="a\.ts" role="removed" runs="1">\n[\s\S]*<\/\1>$/);
    assert.match(removed!, /\(removed before line 2 of the new file: base lines 7-7\)\n {3}7- if \(!ok\) return;/);
    // Without removed lines (a review of files, a pure rename), the block is what it was.
    assert.equal(
      sourceBlock(file(undefined), 'primary'),
      sourceBlock(toSourceFile('a.ts', 'const a = 1;\nconst b = 2;\n'), 'primary'),
    );
  });

  it('a huge run is cut at the caps, which the block states, and what is over is counted', () => {
    const lines = Array.from({ length: REMOVED_CAPS.hunkLines }, (_, i) => `row ${i} ${'x'.repeat(1_000)}`);
    const runs = Array.from({ length: 8 }, (_, r) => ({ base: 1 + r * 500, before: 1, lines, omitted: 400 }));
    const block = sourceBlock(file(runs), 'primary');
    assert.match(
      block,
      /at most 80 lines a run, 400 lines and 24000 characters a file, each line cut at 400 characters/,
    );
    const shown = block.split('\n').filter((l) => /^\s*\d+- /.test(l));
    assert.ok(shown.length > 0 && shown.length <= REMOVED_CAPS.fileLines);
    assert.ok(
      shown.every((l) => l.length < REMOVED_CAPS.lineChars + 60),
      'long lines are cut',
    );
    assert.ok(shown.reduce((n, l) => n + l.length, 0) < REMOVED_CAPS.fileChars + shown.length * 60);
    assert.match(block, /\(480 more removed lines of this run not shown: over the cap\)/);
  });

  it('a binary-looking run is summarised, not sent', () => {
    const block = sourceBlock(
      file([{ base: 3, before: 3, lines: ['PNG\u0001\u0002\u0003', 'abc'], omitted: 5 }]),
      'primary',
    );
    assert.match(block, /\(7 removed lines of binary content, not shown\)/);
    assert.doesNotMatch(block, /\u0001/);
  });

  it('removed text cannot close its block early: the tag hashes the removed text', () => {
    const a = sourceBlock(file([{ base: 1, before: 1, lines: ['x'], omitted: 0 }]), 'primary');
    const b = sourceBlock(file([{ base: 1, before: 1, lines: ['y'], omitted: 0 }]), 'primary');
    const tag = (s: string) =>
      /role="removed"/.test(s) && /<(untrusted_source_\w+) path="a\.ts" role="removed"/.exec(s)![1];
    assert.notEqual(tag(a), tag(b));
  });
});
