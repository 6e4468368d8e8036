import assert from 'node:assert/strict';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DirCache } from '../../src/scope/dirCache';
import { put } from '../helpers/tree';

describe('scope/dirCache', () => {
  let root: string;
  let cwd: string;

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'skeptic-dircache-'));
    cwd = join(root, 'cwd');
    await put(cwd, 'top.ts');
    await put(cwd, 'a/b/deep.ts');
    await put(cwd, 'a/file.ts');
    await put(root, 'above.ts');
    await put(root, 'elsewhere/target.ts');
    await symlink(join(cwd, 'a/file.ts'), join(cwd, 'link-to-file.ts'));
    await symlink(join(cwd, 'a'), join(cwd, 'link-to-folder.ts'));
    await symlink(join(root, 'elsewhere'), join(cwd, 'linked'));
  });

  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('answers for files at any depth, relative or absolute, and for links to files', async () => {
    const dirs = new DirCache(cwd);
    for (const path of ['top.ts', 'a/file.ts', 'a/b/deep.ts', join(cwd, 'a/b/deep.ts'), 'link-to-file.ts'])
      assert.equal(await dirs.isFile(path), true, path);
    assert.equal(await dirs.isFile(join(root, 'above.ts')), true, 'above the cwd');
    assert.equal(await dirs.isFile('linked/target.ts'), true, 'through a linked folder');
  });

  it('misses folders that do not exist, a folder, a link to a folder, and a path through a file', async () => {
    const dirs = new DirCache(cwd);
    for (const path of ['a', 'link-to-folder.ts', 'tests/top.ts', 'a/tests/x/y.ts', 'top.ts/x.ts', 'a/missing.ts'])
      assert.equal(await dirs.isFile(path), false, path);
    // Asked first below a missing folder, then the real ones: each answer stands on its own.
    assert.equal(await dirs.isFile('a/b/deep.ts'), true);
  });
});
