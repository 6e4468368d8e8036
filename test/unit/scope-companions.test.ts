import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { companionCandidates } from '../../src/scope/companions';
import { takeInventory } from '../../src/scope/inventory';

/** Creates every file (forward-slash paths, relative to `root`) with a little text content. */
async function makeTree(root: string, files: string[]): Promise<void> {
  for (const f of files) {
    const abs = join(root, ...f.split('/'));
    await mkdir(dirname(abs), { recursive: true });
    await writeFile(abs, `// ${f}\nline two\n`);
  }
}

/** The companion chosen for every file under review, keyed by path. */
async function companions(cwd: string, paths: string[] = ['.']): Promise<Map<string, string | null>> {
  const inv = await takeInventory(paths, { cwd });
  return new Map(inv.discovery.file_entries.map((e) => [e.path, e.companion_path]));
}

describe('scope/companions', () => {
  describe('companionCandidates', () => {
    it('header: same directory, then src/, then the src/ beside include/ (.cpp before .cc before .c)', () => {
      assert.deepEqual(companionCandidates('lib/include/foo.h'), [
        'lib/include/foo.cpp',
        'lib/include/foo.cc',
        'lib/include/foo.c',
        'lib/include/src/foo.cpp',
        'lib/include/src/foo.cc',
        'lib/include/src/foo.c',
        'lib/src/foo.cpp',
        'lib/src/foo.cc',
        'lib/src/foo.c',
      ]);
    });
    it('implementation: same directory, then include/, then the include/ beside src/', () => {
      assert.deepEqual(companionCandidates('lib/src/foo.cc'), [
        'lib/src/foo.hpp',
        'lib/src/foo.h',
        'lib/src/include/foo.hpp',
        'lib/src/include/foo.h',
        'lib/include/foo.hpp',
        'lib/include/foo.h',
      ]);
    });
    it('a file at the top level gives plain relative candidates (no "./" prefix)', () => {
      assert.deepEqual(companionCandidates('foo.hpp').slice(0, 3), ['foo.cpp', 'foo.cc', 'foo.c']);
      assert.deepEqual(companionCandidates('foo.py').slice(0, 2), ['test_foo.py', 'foo_test.py']);
      for (const c of [
        ...companionCandidates('foo.hpp'),
        ...companionCandidates('foo.py'),
        ...companionCandidates('foo.rs'),
        ...companionCandidates('foo.go'),
      ]) {
        assert.ok(!c.startsWith('./') && !c.startsWith('/') && !c.startsWith('..'), c);
      }
    });
    it('python: test_{stem}.py then {stem}_test.py, same directory before tests/', () => {
      assert.deepEqual(companionCandidates('pkg/calc.py').slice(0, 4), [
        'pkg/test_calc.py',
        'pkg/calc_test.py',
        'pkg/tests/test_calc.py',
        'pkg/tests/calc_test.py',
      ]);
      assert.ok(companionCandidates('pkg/calc.py').includes('tests/test_calc.py'));
    });
    it('typescript: {stem}.test.ts, {stem}.spec.ts, {stem}.test.tsx in that order', () => {
      assert.deepEqual(companionCandidates('src/a.ts').slice(0, 3), [
        'src/a.test.ts',
        'src/a.spec.ts',
        'src/a.test.tsx',
      ]);
      assert.deepEqual(companionCandidates('src/a.test.ts').slice(0, 2), ['src/a.ts', 'src/a.tsx']);
    });
    it('java: {Stem}Test.java in the same package, then the parallel src/test/java tree', () => {
      assert.deepEqual(companionCandidates('src/main/java/com/ex/Foo.java'), [
        'src/main/java/com/ex/FooTest.java',
        'src/test/java/com/ex/FooTest.java',
      ]);
      assert.deepEqual(companionCandidates('m/src/test/java/com/ex/FooTest.java'), [
        'm/src/test/java/com/ex/Foo.java',
        'm/src/main/java/com/ex/Foo.java',
      ]);
    });
    it('rust: mod.rs in the same directory, then tests/{stem}.rs at the crate root', () => {
      assert.deepEqual(companionCandidates('crate/src/parser.rs'), ['crate/src/mod.rs', 'crate/tests/parser.rs']);
      assert.deepEqual(companionCandidates('crate/src/mod.rs'), ['crate/tests/mod.rs']);
    });
    it('general fallback: test prefix/suffix for other languages, and the source for a test file', () => {
      assert.ok(companionCandidates('cmd/server.go').includes('cmd/server_test.go'));
      assert.deepEqual(companionCandidates('cmd/server_test.go'), ['cmd/server.go']);
      assert.ok(companionCandidates('lib/util.js').includes('lib/util.test.js'));
      assert.deepEqual(companionCandidates('lib/util.test.js'), ['lib/util.js']);
      assert.deepEqual(companionCandidates('Makefile'), []);
      assert.deepEqual(companionCandidates('.bashrc'), []);
    });
  });

  describe('takeInventory picks the companion that exists', () => {
    let cwd: string;
    let found: Map<string, string | null>;

    before(async () => {
      cwd = await mkdtemp(join(tmpdir(), 'skeptic-companions-'));
      process.env.GIT_CEILING_DIRECTORIES = tmpdir(); // a plain walk, even if the temp folder sits in a repo
      await makeTree(cwd, [
        // C/C++: same directory
        'cpp/same/widget.hpp',
        'cpp/same/widget.cpp',
        // include/ ↔ src/
        'cpp/lib/include/gadget.h',
        'cpp/lib/src/gadget.cc',
        // header with the implementation in a src/ sub-folder
        'cpp/mod/thing.h',
        'cpp/mod/src/thing.c',
        // implementation with the header in an include/ sub-folder
        'cpp/flat/part.c',
        'cpp/flat/include/part.h',
        // preference: .cpp over .c, same directory over src/
        'cpp/pref/both.h',
        'cpp/pref/both.c',
        'cpp/pref/both.cpp',
        'cpp/pref/src/both.cpp',
        // python
        'py/pkg/calc.py',
        'py/pkg/test_calc.py',
        'py/app/util.py',
        'py/app/tests/util_test.py',
        'py/src/core.py',
        'py/tests/test_core.py',
        'py/pref/both.py',
        'py/pref/test_both.py',
        'py/pref/both_test.py',
        // typescript
        'ts/a.ts',
        'ts/a.test.ts',
        'ts/b.ts',
        'ts/b.spec.ts',
        'ts/c.tsx',
        'ts/c.test.tsx',
        'ts/d.ts',
        'ts/d.spec.ts',
        'ts/d.test.ts',
        // java
        'java/src/main/java/com/ex/Foo.java',
        'java/src/test/java/com/ex/FooTest.java',
        'java/pkg/Bar.java',
        'java/pkg/BarTest.java',
        // rust
        'rs/net/conn.rs',
        'rs/net/mod.rs',
        'rs/crate/src/parser.rs',
        'rs/crate/tests/parser.rs',
        // general fallback
        'go/server.go',
        'go/server_test.go',
        'js/util.js',
        'js/util.test.js',
        // no companion
        'none/lonely.py',
        'none/lonely.ts',
        'none/Lonely.java',
        'none/lonely.rs',
        'none/lonely.hpp',
        'none/solo.cpp',
        'none/lonely.go',
        'none/README.md',
        'none/Makefile',
      ]);
      found = await companions(cwd);
    });

    after(async () => {
      delete process.env.GIT_CEILING_DIRECTORIES;
      await rm(cwd, { recursive: true, force: true });
    });

    const expect = (path: string, companion: string | null) => {
      assert.ok(found.has(path), `${path} is under review`);
      assert.equal(found.get(path), companion, `companion of ${path}`);
    };

    it('.hpp/.h ↔ .cpp/.cc/.c in the same directory', () => {
      expect('cpp/same/widget.hpp', 'cpp/same/widget.cpp');
      expect('cpp/same/widget.cpp', 'cpp/same/widget.hpp');
    });
    it('.h in include/ ↔ .cc in the src/ beside it', () => {
      expect('cpp/lib/include/gadget.h', 'cpp/lib/src/gadget.cc');
      expect('cpp/lib/src/gadget.cc', 'cpp/lib/include/gadget.h');
    });
    it('.h → .c in src/; .c → .h in include/', () => {
      expect('cpp/mod/thing.h', 'cpp/mod/src/thing.c');
      expect('cpp/flat/part.c', 'cpp/flat/include/part.h');
    });
    it('prefers the same directory and .cpp over .c', () => {
      expect('cpp/pref/both.h', 'cpp/pref/both.cpp');
      expect('cpp/pref/both.cpp', 'cpp/pref/both.h');
      expect('cpp/pref/both.c', 'cpp/pref/both.h');
      // No header beside it, but the tree has exactly one both.h.
      expect('cpp/pref/src/both.cpp', 'cpp/pref/both.h');
    });
    it('.py → test_{stem}.py / {stem}_test.py in the same directory or tests/, and back', () => {
      expect('py/pkg/calc.py', 'py/pkg/test_calc.py');
      expect('py/pkg/test_calc.py', 'py/pkg/calc.py');
      expect('py/app/util.py', 'py/app/tests/util_test.py');
      expect('py/app/tests/util_test.py', 'py/app/util.py');
      expect('py/src/core.py', 'py/tests/test_core.py');
      expect('py/tests/test_core.py', 'py/src/core.py');
      expect('py/pref/both.py', 'py/pref/test_both.py');
    });
    it('.ts/.tsx → {stem}.test.ts, {stem}.spec.ts, {stem}.test.tsx, and back', () => {
      expect('ts/a.ts', 'ts/a.test.ts');
      expect('ts/a.test.ts', 'ts/a.ts');
      expect('ts/b.ts', 'ts/b.spec.ts');
      expect('ts/b.spec.ts', 'ts/b.ts');
      expect('ts/c.tsx', 'ts/c.test.tsx');
      expect('ts/c.test.tsx', 'ts/c.tsx');
      expect('ts/d.ts', 'ts/d.test.ts');
    });
    it('.java → {Stem}Test.java in the same package or the parallel test tree, and back', () => {
      expect('java/src/main/java/com/ex/Foo.java', 'java/src/test/java/com/ex/FooTest.java');
      expect('java/src/test/java/com/ex/FooTest.java', 'java/src/main/java/com/ex/Foo.java');
      expect('java/pkg/Bar.java', 'java/pkg/BarTest.java');
      expect('java/pkg/BarTest.java', 'java/pkg/Bar.java');
    });
    it('.rs → mod.rs in the same directory, or tests/{stem}.rs', () => {
      expect('rs/net/conn.rs', 'rs/net/mod.rs');
      expect('rs/net/mod.rs', null);
      expect('rs/crate/src/parser.rs', 'rs/crate/tests/parser.rs');
    });
    it('general fallback: foo_test.go, foo.test.js, and back', () => {
      expect('go/server.go', 'go/server_test.go');
      expect('go/server_test.go', 'go/server.go');
      expect('js/util.js', 'js/util.test.js');
      expect('js/util.test.js', 'js/util.js');
    });
    it('no companion: proceeds with null', () => {
      for (const p of [
        'none/lonely.py',
        'none/lonely.ts',
        'none/Lonely.java',
        'none/lonely.rs',
        'none/lonely.hpp',
        'none/solo.cpp',
        'none/lonely.go',
        'none/README.md',
        'none/Makefile',
      ])
        expect(p, null);
    });
    it('a file never is its own companion, and every companion is itself a real file path relative to cwd', () => {
      for (const [path, companion] of found) {
        assert.notEqual(companion, path);
        if (companion) assert.ok(found.has(companion), `${companion} (companion of ${path}) exists in the tree`);
      }
    });
    it('paths are relative to cwd when reviewing a sub-folder from a different cwd', async () => {
      const sub = await companions(join(cwd, 'cpp'), ['lib']);
      assert.deepEqual(
        [...sub],
        [
          ['lib/include/gadget.h', 'lib/src/gadget.cc'],
          ['lib/src/gadget.cc', 'lib/include/gadget.h'],
        ],
      );
    });
    it('a companion is found even when only the primary file was named', async () => {
      const one = await companions(cwd, ['py/app/util.py']);
      assert.deepEqual([...one], [['py/app/util.py', 'py/app/tests/util_test.py']]);
    });
    it('a secrets file is never chosen as a companion', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'skeptic-companions-secret-'));
      try {
        await makeTree(dir, ['keys/secrets.json', 'keys/test_secrets.json', 'keys/id_rsa', 'keys/test_id_rsa']);
        const map = await companions(dir);
        // secrets.json is a secret: left out, and not offered as the companion of its test file.
        assert.ok(!map.has('keys/secrets.json'));
        assert.equal(map.get('keys/test_secrets.json'), null);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
});
