import assert from 'node:assert/strict';
import { mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileAccess } from '../../src/model/access';
import { checkToolPath, runTool, TOOL_DEFINITIONS } from '../../src/engine/tools';
import { ReviewAccess } from '../../src/scope/access';
import { put } from '../helpers/tree';

const lines = (s: string) => s.split('\n').sort();

describe('engine/tools', () => {
  let cwd: string;
  let ctx: FileAccess;

  before(async () => {
    cwd = await realpath(await mkdtemp(join(tmpdir(), 'skeptic-tools-')));
    await put(cwd, 'proj/a.ts', 'line one\nline two\nline three\nfoo here\n');
    await put(cwd, 'proj/sub/b.py', 'import os\nfoo = 1\n');
    await put(cwd, 'proj/sub/c.ts', 'const foo = 2;\n');
    await put(cwd, 'proj/dir/d.md', '# d\n');
    await put(cwd, 'proj/.env', 'foo=hunter2\n');
    await put(cwd, 'proj/id_rsa', 'foo private key\n');
    await put(cwd, 'proj/.env.example', 'FOO=\n');
    await put(cwd, 'outside.txt', 'foo outside\n');
    await symlink('../outside.txt', join(cwd, 'proj/link-out'));
    await symlink('.env', join(cwd, 'proj/link-env'));
    await symlink('..', join(cwd, 'proj/linkdir-out'));
    ctx = await ReviewAccess.open({ cwd, roots: ['proj'] });
  });

  after(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  const run = (name: string, input: unknown, c: FileAccess = ctx) => runTool(name, input, c);
  const expectError = async (name: string, input: unknown, pattern: RegExp, c: FileAccess = ctx) => {
    const out = await run(name, input, c);
    assert.equal(out.is_error, true, `expected an error, got: ${out.content}`);
    assert.match(out.content, pattern);
  };

  it('defines the three read-only tools', () => {
    assert.deepEqual(
      TOOL_DEFINITIONS.map((t) => t.name),
      ['read_file', 'grep', 'list_dir'],
    );
  });

  describe('read_file', () => {
    it('returns every line, numbered from 1', async () => {
      assert.deepEqual(await run('read_file', { path: 'proj/a.ts' }), {
        content: '   1| line one\n   2| line two\n   3| line three\n   4| foo here',
        is_error: false,
      });
    });
    it('honours start_line and end_line, clamping end_line to the file', async () => {
      assert.equal(
        (await run('read_file', { path: 'proj/a.ts', start_line: 2, end_line: 3 })).content,
        '   2| line two\n   3| line three',
      );
      assert.equal(
        (await run('read_file', { path: 'proj/a.ts', start_line: 3 })).content,
        '   3| line three\n   4| foo here',
      );
      assert.equal(
        (await run('read_file', { path: 'proj/a.ts', start_line: 4, end_line: 99 })).content,
        '   4| foo here',
      );
    });
    it('says how many lines there are when start_line is past the end', async () => {
      await expectError('read_file', { path: 'proj/a.ts', start_line: 9 }, /has 4 lines/);
    });
    it('reads a file whose name is a secrets template', async () => {
      assert.equal((await run('read_file', { path: 'proj/.env.example' })).content, '   1| FOO=');
    });
    it('refuses absolute paths', async () => {
      await expectError('read_file', { path: join(cwd, 'proj/a.ts') }, /relative to the working directory/);
      await expectError('read_file', { path: '/etc/passwd' }, /relative to the working directory/);
    });
    it('refuses ".." even when it would land inside a root', async () => {
      await expectError('read_file', { path: 'proj/../outside.txt' }, /without "\.\."/);
      await expectError('read_file', { path: 'proj/sub/../a.ts' }, /without "\.\."/);
      await expectError('read_file', { path: 'proj\\..\\outside.txt' }, /without "\.\."/);
    });
    it('refuses a symlink that leads out of the roots', async () => {
      await expectError('read_file', { path: 'proj/link-out' }, /outside the review roots/);
      await expectError('read_file', { path: 'proj/linkdir-out/outside.txt' }, /outside the review roots/);
    });
    it('refuses secrets files, also when reached through a symlink', async () => {
      await expectError('read_file', { path: 'proj/.env' }, /may hold secrets/);
      await expectError('read_file', { path: 'proj/id_rsa' }, /may hold secrets/);
      const viaLink = await run('read_file', { path: 'proj/link-env' });
      assert.equal(viaLink.is_error, true, `secret leaked through a symlink: ${viaLink.content}`);
      assert.doesNotMatch(viaLink.content, /hunter2/);
    });
    it('refuses paths outside the roots and paths that do not exist', async () => {
      await expectError('read_file', { path: 'outside.txt' }, /outside the review roots/);
      await expectError('read_file', { path: 'proj/missing.ts' }, /does not exist/);
    });
  });

  describe('checkToolPath', () => {
    it('turns backslashes into slashes in a plain relative path', () => {
      assert.equal(checkToolPath('proj\\sub\\b.py'), 'proj/sub/b.py');
      assert.equal(checkToolPath('proj/sub/b.py'), 'proj/sub/b.py');
    });
    it('refuses absolute, home, URL, NUL and ".." paths, saying what to use instead', () => {
      for (const bad of [
        '/etc/passwd',
        '~/.ssh/id_rsa',
        'file:///etc/passwd',
        'C:\\Windows\\win.ini',
        '\\\\server\\share',
        '../x',
        'proj/../../x',
      ]) {
        assert.throws(() => checkToolPath(bad), /relative to the working directory/, bad);
      }
      assert.throws(() => checkToolPath('proj/a.ts\0../../x'), /not a usable path/);
      assert.throws(() => checkToolPath(''), /not a usable path/);
    });
  });

  describe('grep', () => {
    it('finds matching lines in every file under the roots, never in secrets or through links', async () => {
      const out = await run('grep', { pattern: 'foo' });
      assert.equal(out.is_error, false);
      assert.deepEqual(lines(out.content), [
        'proj/a.ts:4: foo here',
        'proj/sub/b.py:2: foo = 1',
        'proj/sub/c.ts:1: const foo = 2;',
      ]);
      assert.doesNotMatch(out.content, /hunter2|outside|private/);
    });
    it('filters files with a glob relative to the working directory', async () => {
      assert.equal((await run('grep', { pattern: 'foo', glob: 'proj/**/*.py' })).content, 'proj/sub/b.py:2: foo = 1');
      assert.deepEqual(lines((await run('grep', { pattern: 'foo', glob: 'proj/**/*.ts' })).content), [
        'proj/a.ts:4: foo here',
        'proj/sub/c.ts:1: const foo = 2;',
      ]);
    });
    it('a glob without a slash matches file names at any depth', async () => {
      assert.deepEqual(lines((await run('grep', { pattern: 'foo', glob: '*.ts' })).content), [
        'proj/a.ts:4: foo here',
        'proj/sub/c.ts:1: const foo = 2;',
      ]);
    });
    it('says "no matches"', async () => {
      assert.deepEqual(await run('grep', { pattern: 'zzz-nothing' }), { content: 'no matches', is_error: false });
    });
    it('searches a root that is a single file', async () => {
      const fileCtx = await ReviewAccess.open({ cwd, roots: ['proj/a.ts'] });
      assert.deepEqual(await run('grep', { pattern: 'foo' }, fileCtx), {
        content: 'proj/a.ts:4: foo here',
        is_error: false,
      });
    });
    it('reports a bad regular expression as an error', async () => {
      await expectError('grep', { pattern: '(' }, /^bad pattern: .*/);
      await expectError('grep', { pattern: '[a-' }, /^bad pattern: /);
    });
  });

  describe('list_dir', () => {
    it('lists a folder, sorted, folders marked with "/"; secrets and links that leave the roots or reach a secret hidden', async () => {
      assert.deepEqual(await run('list_dir', { path: 'proj' }), {
        content: ['.env.example', 'a.ts', 'dir/', 'sub/'].join('\n'),
        is_error: false,
      });
      assert.equal((await run('list_dir', { path: 'proj/sub' })).content, 'b.py\nc.ts');
    });
    it('refuses folders outside the roots', async () => {
      await expectError('list_dir', { path: '.' }, /outside the review roots/);
      await expectError('list_dir', { path: 'proj/..' }, /without "\.\."/);
    });
  });

  describe('dispatch', () => {
    it('rejects an unknown tool name', async () => {
      await expectError(
        'write_file',
        { path: 'proj/a.ts' },
        /unknown tool "write_file"; available: read_file, grep, list_dir/,
      );
    });
    it('reports bad input with the failing field', async () => {
      await expectError('read_file', {}, /^bad input: path: /);
      await expectError('read_file', { path: 'proj/a.ts', start_line: 0 }, /^bad input: start_line: /);
      await expectError('read_file', { path: 'proj/a.ts', end_line: 1.5 }, /^bad input: end_line: /);
      await expectError('grep', { pattern: '' }, /^bad input: pattern: /);
      await expectError('list_dir', 'proj', /^bad input: /);
      await expectError('grep', null, /^bad input: /);
    });
  });
});

describe('grep on a linear-time engine', () => {
  let cwd: string;
  before(async () => {
    cwd = await realpath(await mkdtemp(join(tmpdir(), 'skeptic-grep-')));
    await put(cwd, 'src/long.ts', `const a = "${'a'.repeat(40)}";\nconst b = "${'a'.repeat(2000)}";\n`);
  });
  after(() => rm(cwd, { recursive: true, force: true }));

  it('answers patterns that make a backtracking engine run for minutes, at once', async () => {
    const access = await ReviewAccess.open({ cwd, roots: ['src'] });
    for (const pattern of ['(a|a)*b', '.*.*.*.*.*x', '\\w*\\w*\\w*\\w*x', '(a+)+$', '(.*a){12}x']) {
      const started = Date.now();
      const out = await runTool('grep', { pattern }, access);
      // A backtracking engine takes minutes here; the bound only has to tell "at once" from "hung".
      assert.ok(Date.now() - started < 3000, `${pattern} took ${Date.now() - started} ms`);
      assert.equal(out.is_error, false, `${pattern}: ${out.content}`);
    }
  });

  it('gives the event loop a turn while it matches: an abort that comes meanwhile stops the search', async () => {
    await put(cwd, 'src/many.txt', `${'a'.repeat(2000)}\n`.repeat(60));
    const access = await ReviewAccess.open({ cwd, roots: ['src'] });
    const controller = new AbortController();
    // The abort waits for the loop's next turn, queued as the search begins matching: only a search that lets
    // the loop turn sees it before its end.
    const aborting: FileAccess = {
      cwd: access.cwd,
      files: () => access.files(),
      list: (path) => access.list(path),
      read: async (path) => {
        const text = await access.read(path);
        setImmediate(() => controller.abort());
        return text;
      },
    };
    const out = await runTool('grep', { pattern: '(.{1000})[^ab]', glob: 'many.txt' }, aborting, controller.signal);
    assert.equal(out.content, 'no matches (search cancelled)');
  });

  it('says which syntax it takes when a pattern uses a backreference or lookaround', async () => {
    const access = await ReviewAccess.open({ cwd, roots: ['src'] });
    for (const pattern of ['(x)\\1', '(?<=a)b']) {
      const out = await runTool('grep', { pattern }, access);
      assert.ok(out.is_error, pattern);
      assert.match(out.content, /^bad pattern: .*RE2 syntax/);
    }
    assert.match((await runTool('grep', { pattern: 'const [ab] = "a{3}' }, access)).content, /src\/long\.ts:1: /);
  });
});
