import assert from 'node:assert/strict';
import { parseDiff } from '../../src/scope/diff';

const lines = (...xs: string[]) => xs.join('\n') + '\n';

describe('scope/diff', () => {
  it('modified file: ranges of a replacement and an insertion, counts', () => {
    const [f, ...rest] = parseDiff(
      lines(
        'diff --git a/src/a.ts b/src/a.ts',
        'index 1111111..2222222 100644',
        '--- a/src/a.ts',
        '+++ b/src/a.ts',
        '@@ -0,0 +1,2 @@',
        '+// top',
        '+// top 2',
        '@@ -5,2 +7,2 @@ function f() {',
        '-  a();',
        '-  b();',
        '+  A();',
        '+  B();',
      ),
    );
    assert.equal(rest.length, 0);
    assert.deepEqual(f, {
      oldPath: 'src/a.ts',
      newPath: 'src/a.ts',
      status: 'modified',
      ranges: [
        [1, 2],
        [7, 8],
      ],
      hunks: [
        [1, 2],
        [7, 8],
      ],
      added: 4,
      removed: 2,
      // Base-side numbers; each run placed before the new line that follows it.
      removedLines: [{ base: 5, before: 7, lines: ['  a();', '  b();'], omitted: 0 }],
      mode: '100644',
    });
  });

  it('omitted counts mean 1; count 0 on the new side is a deletion marking the line before (at least 1)', () => {
    const [f] = parseDiff(
      lines(
        'diff --git a/x.py b/x.py',
        'index 1..2 100644',
        '--- a/x.py',
        '+++ b/x.py',
        '@@ -1,2 +0,0 @@',
        '-a',
        '-b',
        '@@ -10 +8 @@',
        '-old',
        '+new',
        '@@ -20,3 +17,0 @@',
        '-p',
        '-q',
        '-r',
      ),
    );
    assert.deepEqual(f!.ranges, [
      [1, 1],
      [8, 8],
      [17, 17],
    ]);
    assert.equal(f!.added, 1);
    assert.equal(f!.removed, 6);
  });

  it('adjacent and overlapping ranges merge', () => {
    const [f] = parseDiff(
      lines(
        'diff --git a/m b/m',
        '--- a/m',
        '+++ b/m',
        '@@ -3 +3 @@',
        '-x',
        '+y',
        '@@ -5,0 +4,2 @@',
        '+z',
        '+w',
        '@@ -9,0 +10 @@',
        '+v',
      ),
    );
    assert.deepEqual(f!.ranges, [
      [3, 5],
      [10, 10],
    ]);
  });

  it('removed lines that look like headers are read as hunk body', () => {
    const [f, g] = parseDiff(
      lines(
        'diff --git a/s.sql b/s.sql',
        '--- a/s.sql',
        '+++ b/s.sql',
        '@@ -1,2 +1 @@',
        '--- comment',
        '-++ odd',
        '+-- new comment',
        'diff --git a/t b/t',
        '--- a/t',
        '+++ b/t',
        '@@ -1 +1 @@',
        '-1',
        '+2',
      ),
    );
    assert.equal(f!.removed, 2);
    assert.equal(f!.added, 1);
    assert.equal(f!.newPath, 's.sql');
    assert.equal(g!.newPath, 't');
  });

  it('context lines (as in gh pr diff) are not changed lines', () => {
    const [f] = parseDiff(
      lines(
        'diff --git a/c.ts b/c.ts',
        '--- a/c.ts',
        '+++ b/c.ts',
        '@@ -1,7 +1,7 @@',
        ' a',
        ' b',
        ' c',
        '-d',
        '+D',
        ' e',
        '',
        ' g',
        '@@ -20,4 +20,3 @@',
        ' x',
        ' y',
        '-gone',
        ' z',
      ),
    );
    assert.deepEqual(f!.ranges, [
      [4, 4],
      [21, 21],
    ]);
    assert.deepEqual([f!.added, f!.removed], [1, 2]);
  });

  it('"\\ No newline at end of file" is not a line', () => {
    const [f] = parseDiff(
      lines(
        'diff --git a/n b/n',
        '--- a/n',
        '+++ b/n',
        '@@ -3 +3,2 @@',
        '-c',
        '\\ No newline at end of file',
        '+c',
        '+d',
        '\\ No newline at end of file',
      ),
    );
    assert.deepEqual(f!.ranges, [[3, 4]]);
    assert.deepEqual([f!.added, f!.removed], [2, 1]);
  });

  it('new file, deleted file', () => {
    const [a, d] = parseDiff(
      lines(
        'diff --git a/new.ts b/new.ts',
        'new file mode 100644',
        'index 0000000..975fbec',
        '--- /dev/null',
        '+++ b/new.ts',
        '@@ -0,0 +1,3 @@',
        '+1',
        '+2',
        '+3',
        'diff --git a/old.ts b/old.ts',
        'deleted file mode 100644',
        'index 587be6b..0000000',
        '--- a/old.ts',
        '+++ /dev/null',
        '@@ -1,2 +0,0 @@',
        '-x',
        '-y',
      ),
    );
    assert.deepEqual(a, {
      oldPath: null,
      newPath: 'new.ts',
      status: 'added',
      ranges: [[1, 3]],
      hunks: [[1, 3]],
      added: 3,
      removed: 0,
      removedLines: [],
      mode: '100644',
    });
    assert.deepEqual(d, {
      oldPath: 'old.ts',
      newPath: null,
      status: 'deleted',
      ranges: [[1, 1]],
      hunks: [],
      added: 0,
      removed: 2,
      removedLines: [{ base: 1, before: 1, lines: ['x', 'y'], omitted: 0 }],
      mode: '100644',
    });
  });

  it('renames: pure, and with an edit (ranges on the new side)', () => {
    const [pure, edited] = parseDiff(
      lines(
        'diff --git a/a/one.ts b/b/one.ts',
        'similarity index 100%',
        'rename from a/one.ts',
        'rename to b/one.ts',
        'diff --git a/lib/old name.ts b/lib/new name.ts',
        'similarity index 80%',
        'rename from lib/old name.ts',
        'rename to lib/new name.ts',
        'index 1..2 100644',
        '--- a/lib/old name.ts\t',
        '+++ b/lib/new name.ts\t',
        '@@ -4 +4 @@',
        '-x',
        '+y',
      ),
    );
    assert.deepEqual(pure, {
      oldPath: 'a/one.ts',
      newPath: 'b/one.ts',
      status: 'renamed',
      ranges: [],
      hunks: [],
      added: 0,
      removed: 0,
      // A pure rename sends no removed text.
      removedLines: [],
      mode: null,
    });
    assert.deepEqual(edited, {
      oldPath: 'lib/old name.ts',
      newPath: 'lib/new name.ts',
      status: 'renamed',
      ranges: [[4, 4]],
      hunks: [[4, 4]],
      added: 1,
      removed: 1,
      removedLines: [{ base: 4, before: 4, lines: ['x'], omitted: 0 }],
      mode: '100644',
    });
  });

  it('quoted paths: octal UTF-8 escapes, tabs, quotes, and unquoted unicode', () => {
    const [q, r, u] = parseDiff(
      lines(
        'diff --git "a/caf\\303\\251 x.ts" "b/caf\\303\\251 x.ts"',
        'index 1..2 100644',
        '--- "a/caf\\303\\251 x.ts"',
        '+++ "b/caf\\303\\251 x.ts"',
        '@@ -1 +1 @@',
        '-a',
        '+b',
        'diff --git "a/tab\\tq\\"x" b/plain',
        'similarity index 100%',
        'rename from "tab\\tq\\"x"',
        'rename to plain',
        'diff --git a/ünï cødé 🎉.py b/ünï cødé 🎉.py',
        'index 1..2 100644',
        '--- a/ünï cødé 🎉.py\t',
        '+++ b/ünï cødé 🎉.py\t',
        '@@ -2,0 +3 @@',
        '+z',
      ),
    );
    assert.equal(q!.newPath, 'café x.ts');
    assert.equal(q!.oldPath, 'café x.ts');
    assert.deepEqual([r!.oldPath, r!.newPath, r!.status], ['tab\tq"x', 'plain', 'renamed']);
    assert.deepEqual([u!.newPath, u!.ranges], ['ünï cødé 🎉.py', [[3, 3]]]);
  });

  it('paths come from the diff --git line when there are no ---/+++ lines (spaces, " b/" inside a name)', () => {
    const [a, b] = parseDiff(
      lines(
        'diff --git a/x b/y.txt b/x b/y.txt',
        'old mode 100644',
        'new mode 100755',
        'diff --git "a/\\303\\244.bin" "b/\\303\\244.bin"',
        'index 1..2 100644',
        'Binary files "a/\\303\\244.bin" and "b/\\303\\244.bin" differ',
      ),
    );
    assert.deepEqual(a, {
      oldPath: 'x b/y.txt',
      newPath: 'x b/y.txt',
      status: 'modified',
      ranges: [],
      hunks: [],
      added: 0,
      removed: 0,
      removedLines: [],
      mode: '100755',
    });
    assert.deepEqual([b!.newPath, b!.status, b!.ranges], ['ä.bin', 'binary', []]);
  });

  it('binary: added, changed, deleted (deleted wins), GIT binary patch', () => {
    const files = parseDiff(
      lines(
        'diff --git a/img.png b/img.png',
        'new file mode 100644',
        'index 0000000..1234567',
        'Binary files /dev/null and b/img.png differ',
        'diff --git a/data.bin b/data.bin',
        'index 1..2 100644',
        'Binary files a/data.bin and b/data.bin differ',
        'diff --git a/gone.bin b/gone.bin',
        'deleted file mode 100644',
        'index 1..0000000',
        'Binary files a/gone.bin and /dev/null differ',
        'diff --git a/p.bin b/p.bin',
        'index 1..2 100644',
        'GIT binary patch',
        'literal 3',
        'KcmZ?wP5=M^0RR91',
        '',
        'literal 0',
        'HcmV?d00001',
        '',
      ),
    );
    assert.deepEqual(
      files.map((f) => [f.oldPath, f.newPath, f.status]),
      [
        [null, 'img.png', 'binary'],
        ['data.bin', 'data.bin', 'binary'],
        ['gone.bin', null, 'deleted'],
        ['p.bin', 'p.bin', 'binary'],
      ],
    );
  });

  it('mode-only change, submodule and symlink modes, CRLF line ends, empty input', () => {
    const files = parseDiff(
      [
        'diff --git a/run.sh b/run.sh',
        'old mode 100644',
        'new mode 100755',
        'diff --git a/sub b/sub',
        'index 1111111..2222222 160000',
        '--- a/sub',
        '+++ b/sub',
        '@@ -1 +1 @@',
        '-Subproject commit 1111111',
        '+Subproject commit 2222222',
        'diff --git a/link b/link',
        'new file mode 120000',
        'index 0000000..3333333',
        '--- /dev/null',
        '+++ b/link',
        '@@ -0,0 +1 @@',
        '+target',
        '\\ No newline at end of file',
        '',
      ].join('\r\n'),
    );
    assert.deepEqual(
      files.map((f) => [f.newPath, f.status, f.mode, f.ranges]),
      [
        ['run.sh', 'modified', '100755', []],
        ['sub', 'modified', '160000', [[1, 1]]],
        ['link', 'added', '120000', [[1, 1]]],
      ],
    );
    assert.deepEqual(parseDiff(''), []);
  });

  it('removed runs keep their first lines and count the rest; a binary change keeps none', () => {
    const body = Array.from({ length: 100 }, (_, i) => `-line ${i + 1}`);
    const [big, bin] = parseDiff(
      lines(
        'diff --git a/big.ts b/big.ts',
        'index 1..2 100644',
        '--- a/big.ts',
        '+++ b/big.ts',
        '@@ -3,100 +2,0 @@',
        ...body,
        'diff --git a/img.png b/img.png',
        'index 1..2 100644',
        'Binary files a/img.png and b/img.png differ',
      ),
    );
    assert.equal(big!.removedLines.length, 1);
    const run = big!.removedLines[0]!;
    assert.deepEqual([run.base, run.before, run.lines.length, run.omitted], [3, 3, 80, 20]);
    assert.equal(run.lines.at(-1), 'line 80');
    assert.deepEqual(bin!.removedLines, []);
  });
});
