import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { collectChanges, gateCheck, prSkipReason, type ChangeSet, type ChangedFile } from '../../src/scope/changes';
import { ScopeError } from '../../src/scope/inventory';
import { numbered, TempRepo } from '../helpers/git-repo';

const byPath = (set: ChangeSet) => Object.fromEntries(set.files.map((f) => [f.path, f]));
const skips = (set: ChangeSet) => Object.fromEntries(set.skipped.map((s) => [s.path, s.reason]));
const file = (set: ChangeSet, path: string): ChangedFile => {
  const f = set.files.find((x) => x.path === path);
  assert.ok(f, `${path} not among ${set.files.map((x) => x.path).join(', ')}`);
  return f;
};

describe('scope/changes', () => {
  const repos: TempRepo[] = [];
  const repo = (init = true) => {
    const r = new TempRepo({ init });
    repos.push(r);
    return r;
  };
  let ceiling: string | undefined;
  before(() => {
    ceiling = process.env.GIT_CEILING_DIRECTORIES;
    process.env.GIT_CEILING_DIRECTORIES = tmpdir(); // a temp folder that is not a repository stays one
  });
  after(() => {
    if (ceiling === undefined) delete process.env.GIT_CEILING_DIRECTORIES;
    else process.env.GIT_CEILING_DIRECTORIES = ceiling;
    for (const r of repos) r.remove();
  });

  describe('uncommitted changes', () => {
    let r: TempRepo;
    let set: ChangeSet;
    before(async () => {
      r = repo()
        .write('src/edit.ts', numbered(10))
        .write('src/old.ts', numbered(20, 'keep'))
        .write('gone.ts', numbered(3, 'gone'))
        .write('img.bin', Buffer.from([1, 2, 0, 3]))
        .write('dir with space/ünï cødé.ts', numbered(4))
        .commit('base');
      // a 2-line edit in the middle and a 2-line insertion at the top
      const lines = numbered(10).split('\n');
      lines[4] = 'changed 5';
      lines[5] = 'changed 6';
      r.write('src/edit.ts', 'top 1\ntop 2\n' + lines.join('\n'));
      r.write('src/staged-new.ts', numbered(3)).git('add', 'src/staged-new.ts');
      r.write('notes/untracked.md', numbered(7));
      r.write('untracked.bin', Buffer.concat([Buffer.from('abc'), Buffer.alloc(1), Buffer.from('def\n')]));
      r.git('mv', 'src/old.ts', 'src/renamed.ts');
      r.write('src/renamed.ts', numbered(20, 'keep').replace('keep 3\n', 'edited 3\n'));
      r.git('rm', '-q', 'gone.ts');
      r.write('img.bin', Buffer.from([1, 2, 0, 4]));
      r.write('dir with space/ünï cødé.ts', numbered(4).replace('line 2', 'LINE 2'));
      r.write('nouveau fichier é.py', 'x = 1\ny = 2');
      r.write('.gitignore', 'ignored.log\n').write('ignored.log', 'noise\n');
      set = await collectChanges({ kind: 'changes' }, { cwd: r.dir });
    });

    it('names the scope and the root', () => {
      assert.equal(set.description, 'uncommitted changes');
      assert.equal(set.root, '.');
    });

    it('modified file: exact ranges for a middle edit and a top insertion', () => {
      assert.deepEqual(file(set, 'src/edit.ts'), {
        path: 'src/edit.ts',
        status: 'modified',
        ranges: [
          [1, 2],
          [7, 8],
        ],
        added: 4,
        removed: 2,
        // Base lines 5-6, which sat before new line 7 (two lines were added at the top).
        removedLines: [{ base: 5, before: 7, lines: ['line 5', 'line 6'], omitted: 0 }],
      });
    });

    it('staged new file is added, every line changed', () => {
      assert.deepEqual(file(set, 'src/staged-new.ts'), {
        path: 'src/staged-new.ts',
        status: 'added',
        ranges: [[1, 3]],
        added: 3,
        removed: 0,
        removedLines: [],
      });
    });

    it('untracked file: one range over the whole file; ignored files are not listed', () => {
      assert.deepEqual(file(set, 'notes/untracked.md'), {
        path: 'notes/untracked.md',
        status: 'added',
        ranges: [[1, 7]],
        added: 7,
        removed: 0,
        removedLines: [],
      });
      assert.equal(file(set, '.gitignore').ranges[0]![1], 1);
      assert.ok(!byPath(set)['ignored.log']);
    });

    it('renamed file: the new path with the ranges of the edit after the rename', () => {
      assert.deepEqual(file(set, 'src/renamed.ts'), {
        path: 'src/renamed.ts',
        status: 'renamed',
        ranges: [[3, 3]],
        added: 1,
        removed: 1,
        // The rename itself removes nothing: only the edited line.
        removedLines: [{ base: 3, before: 3, lines: ['keep 3'], omitted: 0 }],
      });
      assert.ok(!byPath(set)['src/old.ts']);
    });

    it('deleted and binary files are skipped with their reason', () => {
      assert.deepEqual(skips(set), { 'gone.ts': 'deleted', 'img.bin': 'binary', 'untracked.bin': 'binary' });
      assert.ok(!byPath(set)['gone.ts'] && !byPath(set)['img.bin'] && !byPath(set)['untracked.bin']);
    });

    it('paths with spaces and unicode, tracked and untracked (last line without newline counts)', () => {
      assert.deepEqual(file(set, 'dir with space/ünï cødé.ts').ranges, [[2, 2]]);
      assert.deepEqual(file(set, 'nouveau fichier é.py').ranges, [[1, 2]]);
    });

    it('changedLines adds every text change, deletions included', () => {
      // edit 6, staged-new 3, untracked.md 7, renamed 2, gone 3, unicode 2, nouveau 2, .gitignore 1
      assert.equal(set.changedLines, 26);
    });

    it('includeUntracked: false leaves untracked files out', async () => {
      const tracked = await collectChanges({ kind: 'changes' }, { cwd: r.dir, includeUntracked: false });
      assert.deepEqual(
        tracked.files.map((f) => f.path),
        ['dir with space/ünï cødé.ts', 'src/edit.ts', 'src/renamed.ts', 'src/staged-new.ts'],
      );
    });

    it('from a subfolder, paths and root are relative to cwd', async () => {
      const sub = await collectChanges({ kind: 'changes' }, { cwd: r.path('src') });
      assert.equal(sub.root, '..');
      assert.deepEqual(file(sub, 'edit.ts').ranges, [
        [1, 2],
        [7, 8],
      ]);
      assert.ok(byPath(sub)['../notes/untracked.md']);
      assert.ok(byPath(sub)['../dir with space/ünï cødé.ts']);
      assert.equal(skips(sub)['../gone.ts'], 'deleted');
    });
  });

  it('staged scope sees only the staged hunk', async () => {
    const r = repo().write('a.ts', numbered(10)).commit('base');
    r.write('a.ts', numbered(10).replace('line 2\n', 'staged 2\n')).git('add', 'a.ts');
    r.write('a.ts', numbered(10).replace('line 2\n', 'staged 2\n').replace('line 8\n', 'unstaged 8\n'));
    r.write('untracked.ts', 'x\n');
    const staged = await collectChanges({ kind: 'staged' }, { cwd: r.dir });
    assert.equal(staged.description, 'staged changes');
    assert.deepEqual(staged.files, [
      {
        path: 'a.ts',
        status: 'modified',
        ranges: [[2, 2]],
        added: 1,
        removed: 1,
        removedLines: [{ base: 2, before: 2, lines: ['line 2'], omitted: 0 }],
      },
    ]);
    const all = await collectChanges({ kind: 'changes' }, { cwd: r.dir, includeUntracked: false });
    assert.deepEqual(all.files[0]!.ranges, [
      [2, 2],
      [8, 8],
    ]);
  });

  describe('branch scope', () => {
    let r: TempRepo;
    let mergeBase: string;
    before(() => {
      r = repo().write('shared.ts', numbered(10)).write('main-only.ts', numbered(3)).commit('base');
      mergeBase = r.git('rev-parse', 'HEAD').trim();
      r.git('checkout', '-q', '-b', 'feature');
      r.write('feature.ts', numbered(5)).commit('feature 1');
      r.write('shared.ts', numbered(10).replace('line 9\n', 'feature 9\n')).commit('feature 2');
      r.git('checkout', '-q', 'main');
      r.write('main-only.ts', numbered(3).replace('line 1\n', 'main moved on\n'));
      r.write('shared.ts', numbered(10).replace('line 1\n', 'main 1\n')).commit('main later');
      r.git('checkout', '-q', 'feature');
      r.write('feature.ts', 'uncommitted\n'); // the work tree is not part of a branch scope
    });

    it('diffs the merge-base to HEAD: later commits on the base are not included', async () => {
      const set = await collectChanges({ kind: 'branch', base: 'main' }, { cwd: r.dir });
      assert.equal(set.description, `changes since main (merge-base ${mergeBase.slice(0, 7)})`);
      assert.deepEqual(set.files, [
        { path: 'feature.ts', status: 'added', ranges: [[1, 5]], added: 5, removed: 0, removedLines: [] },
        {
          path: 'shared.ts',
          status: 'modified',
          ranges: [[9, 9]],
          added: 1,
          removed: 1,
          removedLines: [{ base: 9, before: 9, lines: ['line 9'], omitted: 0 }],
        },
      ]);
      assert.equal(set.changedLines, 7);
      // The range's commit subjects are its stated intent, oldest first.
      assert.deepEqual(set.intent, { source: 'commit subjects of the range', text: '- feature 1\n- feature 2' });
    });

    it('a bad base ref is a ScopeError naming it', async () => {
      await assert.rejects(
        collectChanges({ kind: 'branch', base: 'no-such-branch' }, { cwd: r.dir }),
        (e) => e instanceof ScopeError && e.message.includes('"no-such-branch"'),
      );
      await assert.rejects(
        collectChanges({ kind: 'branch', base: '--output=x' }, { cwd: r.dir }),
        (e) => e instanceof ScopeError && e.message.includes('"--output=x"'),
      );
    });
  });

  it('lock files do not count toward changedLines but are still listed', async () => {
    const r = repo().write('package-lock.json', numbered(50)).write('src/a.ts', numbered(5)).commit('base');
    r.write('package-lock.json', numbered(50, 'v2'));
    r.write('src/a.ts', numbered(5).replace('line 1\n', 'one\n'));
    r.write('yarn.lock', numbered(30)).write('deps/foo-lock.json', numbered(30)).write('Cargo.lock', numbered(30));
    const set = await collectChanges({ kind: 'changes' }, { cwd: r.dir });
    assert.equal(set.changedLines, 2);
    assert.ok(byPath(set)['package-lock.json']);
  });

  it('gateCheck: 4 changed lines skip, 5 pass', async () => {
    const r = repo().write('a.ts', numbered(10)).commit('base');
    r.write('a.ts', numbered(10).replace('line 3\n', 'three\n').replace('line 7\n', 'seven\n'));
    const four = await collectChanges({ kind: 'changes' }, { cwd: r.dir });
    assert.equal(four.changedLines, 4);
    assert.deepEqual(gateCheck(four), { passed: false, reason: 'SKIP: < 5 changed lines' });
    r.write('a.ts', numbered(10).replace('line 3\n', 'three\n').replace('line 7\n', 'seven\n') + 'eleven\n');
    const five = await collectChanges({ kind: 'changes' }, { cwd: r.dir });
    assert.equal(five.changedLines, 5);
    assert.deepEqual(gateCheck(five), { passed: true, reason: null });
    assert.deepEqual(gateCheck(five, 6), { passed: false, reason: 'SKIP: < 6 changed lines' });
  });

  it('a folder that is not a repository is a ScopeError', async () => {
    const plain = repo(false);
    await assert.rejects(
      collectChanges({ kind: 'changes' }, { cwd: plain.dir }),
      (e) => e instanceof ScopeError && /is not inside a git repository; change scopes need git/.test(e.message),
    );
  });

  it('a repository without commits: changes are all added, other scopes a ScopeError', async () => {
    const r = repo().write('staged.ts', numbered(2)).write('loose.ts', numbered(3));
    r.git('add', 'staged.ts');
    const set = await collectChanges({ kind: 'changes' }, { cwd: r.dir });
    assert.deepEqual(set.files, [
      { path: 'loose.ts', status: 'added', ranges: [[1, 3]], added: 3, removed: 0, removedLines: [] },
      { path: 'staged.ts', status: 'added', ranges: [[1, 2]], added: 2, removed: 0, removedLines: [] },
    ]);
    await assert.rejects(
      collectChanges({ kind: 'staged' }, { cwd: r.dir }),
      (e) => e instanceof ScopeError && /no commits yet/.test(e.message),
    );
    await assert.rejects(
      collectChanges({ kind: 'branch', base: 'main' }, { cwd: r.dir }),
      (e) => e instanceof ScopeError && /no commits yet/.test(e.message),
    );
  });

  describe('PR scope (fake gh)', () => {
    let r: TempRepo;
    let bin: string;
    const DIFF = [
      'diff --git a/src/app.ts b/src/app.ts',
      'index 1111111..2222222 100644',
      '--- a/src/app.ts',
      '+++ b/src/app.ts',
      '@@ -8,6 +8,7 @@ export function main() {',
      '   a();',
      '   b();',
      '   c();',
      '-  d();',
      '+  D();',
      '+  E();',
      '   f();',
      '   g();',
      '   h();',
      'diff --git a/old.ts b/old.ts',
      'deleted file mode 100644',
      'index 3333333..0000000',
      '--- a/old.ts',
      '+++ /dev/null',
      '@@ -1,2 +0,0 @@',
      '-x',
      '-y',
      '',
    ].join('\n');

    /** A gh that answers `pr view` with `view` and `pr diff` with DIFF, and logs its arguments. */
    const fakeGh = (view: object): NodeJS.ProcessEnv => {
      const dir = mkdtempSync(join(tmpdir(), 'skeptic-gh-'));
      writeFileSync(join(dir, 'view.json'), JSON.stringify(view));
      writeFileSync(join(dir, 'diff.txt'), DIFF);
      const script = join(dir, 'gh.js');
      writeFileSync(
        script,
        `const fs = require('fs'), path = require('path'), a = process.argv.slice(2);
fs.appendFileSync(path.join(__dirname, 'args.log'), a.join(' ') + '\\n');
if (a[0] === 'pr' && a[1] === 'view') process.stdout.write(fs.readFileSync(path.join(__dirname, 'view.json'), 'utf8'));
else if (a[0] === 'pr' && a[1] === 'diff') process.stdout.write(fs.readFileSync(path.join(__dirname, 'diff.txt'), 'utf8'));
else { process.stderr.write('unexpected: ' + a.join(' ') + '\\n'); process.exit(1); }
`,
      );
      const gh = join(dir, 'gh');
      writeFileSync(gh, `#!/bin/sh\nexec "${process.execPath}" "${script}" "$@"\n`);
      chmodSync(gh, 0o755);
      bin = dir;
      return { ...process.env, PATH: dir + delimiter + (process.env.PATH ?? '') };
    };
    const view = (over: object) => ({
      number: 12,
      title: 'Add E',
      body: 'Adds E.',
      state: 'OPEN',
      isDraft: false,
      baseRefName: 'main',
      headRefName: 'feature/e',
      ...over,
    });

    before(() => {
      r = repo().write('src/app.ts', numbered(3)).commit('base');
    });
    afterEach(() => rmSync(bin, { recursive: true, force: true }));

    it('open PR: ranges from the PR diff, relative to cwd; no skip reason', async () => {
      const env = fakeGh(view({}));
      const set = await collectChanges({ kind: 'pr', number: 12 }, { cwd: r.path('src'), env });
      assert.equal(set.description, 'PR #12: Add E');
      assert.equal(set.root, '..');
      assert.deepEqual(set.files, [
        {
          path: 'app.ts',
          status: 'modified',
          ranges: [[11, 12]],
          added: 2,
          removed: 1,
          // Context lines count on both sides: d() was base line 11.
          removedLines: [{ base: 11, before: 11, lines: ['  d();'], omitted: 0 }],
        },
      ]);
      assert.deepEqual(set.skipped, [{ path: '../old.ts', reason: 'deleted' }]);
      assert.equal(set.changedLines, 5);
      assert.deepEqual(set.pr, view({}));
      assert.deepEqual(set.intent, { source: 'pull request #12', text: 'Add E\n\nAdds E.' });
      assert.equal(prSkipReason(set), null);
      const log = readFileSync(join(bin, 'args.log'), 'utf8');
      assert.match(log, /^pr view 12 --json number,title,body,state,isDraft,baseRefName,headRefName$/m);
      assert.match(log, /^pr diff 12\b/m);
    });

    it('merged and closed PRs still return, with a skip reason', async () => {
      const merged = await collectChanges(
        { kind: 'pr', number: 12 },
        { cwd: r.dir, env: fakeGh(view({ state: 'MERGED' })) },
      );
      assert.equal(prSkipReason(merged), 'SKIP: PR is MERGED');
      rmSync(bin, { recursive: true, force: true });
      const closed = await collectChanges(
        { kind: 'pr', number: 12 },
        { cwd: r.dir, env: fakeGh(view({ state: 'CLOSED' })) },
      );
      assert.equal(prSkipReason(closed), 'SKIP: PR is CLOSED');
    });

    it('draft PR: skip reason', async () => {
      const set = await collectChanges(
        { kind: 'pr', number: 12 },
        { cwd: r.dir, env: fakeGh(view({ isDraft: true })) },
      );
      assert.equal(prSkipReason(set), 'SKIP: PR is draft');
    });

    it('gh failing is a ScopeError with its message', async () => {
      const env = fakeGh(view({}));
      writeFileSync(
        join(bin, 'gh.js'),
        "process.stderr.write('GraphQL: Could not resolve to a PullRequest with the number of 99.\\n'); process.exit(1);\n",
      );
      await assert.rejects(
        collectChanges({ kind: 'pr', number: 99 }, { cwd: r.dir, env }),
        (e) => e instanceof ScopeError && /gh pr (view|diff) 99 failed: GraphQL: Could not resolve/.test(e.message),
      );
    });

    it('missing gh is a ScopeError telling how to install it', async () => {
      bin = mkdtempSync(join(tmpdir(), 'skeptic-nogh-'));
      await assert.rejects(
        collectChanges({ kind: 'pr', number: 12 }, { cwd: r.dir, env: { ...process.env, PATH: bin } }),
        (e) =>
          e instanceof ScopeError &&
          e.message ===
            'the GitHub CLI (gh) is not installed; install it from https://cli.github.com and run gh auth login',
      );
    });

    it('prSkipReason is null outside PR scopes', async () => {
      assert.equal(prSkipReason(await collectChanges({ kind: 'changes' }, { cwd: r.dir })), null);
    });
  });
});
