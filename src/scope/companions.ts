/**
 * Companion discovery (Step 0): the header, implementation or test that belongs with a file, so that
 * Step 3 can judge contract fidelity against it. Candidates are tried in the spec's order; the first
 * that exists wins.
 */
import { basename, dirname, extname, join } from 'node:path/posix';

/** Candidate companion paths for `path` (forward slashes), most specific first. */
export function companionCandidates(path: string): string[] {
  const dir = dirname(path);
  const ext = extname(path);
  const name = basename(path);
  const stem = basename(path, ext);
  const parent = dirname(dir);
  const inDir = (d: string, ...names: string[]) => names.map((n) => join(d, n));
  const sibling = (sub: string) => (basename(dir) === sub ? [] : [join(dir, sub)]);
  const parallel = (from: string, to: string) => (basename(dir) === from ? [join(parent, to)] : []);

  switch (ext) {
    case '.hpp':
    case '.h':
      return [dir, ...sibling('src'), ...parallel('include', 'src')].flatMap((d) =>
        inDir(d, `${stem}.cpp`, `${stem}.cc`, `${stem}.c`),
      );
    case '.cpp':
    case '.cc':
    case '.c':
      return [dir, ...sibling('include'), ...parallel('src', 'include')].flatMap((d) =>
        inDir(d, `${stem}.hpp`, `${stem}.h`),
      );
    case '.py': {
      const tested = /^test_(.+)$/.exec(stem)?.[1] ?? /^(.+)_test$/.exec(stem)?.[1];
      if (tested) return [dir, ...parallel('tests', 'src'), parent].flatMap((d) => inDir(d, `${tested}.py`));
      return [dir, ...sibling('tests'), join(parent, 'tests')].flatMap((d) =>
        inDir(d, `test_${stem}.py`, `${stem}_test.py`),
      );
    }
    case '.ts':
    case '.tsx': {
      const tested = /^(.+)\.(test|spec)$/.exec(stem)?.[1];
      if (tested) return [dir, parent].flatMap((d) => inDir(d, `${tested}.ts`, `${tested}.tsx`));
      return inDir(dir, `${stem}.test.ts`, `${stem}.spec.ts`, `${stem}.test.tsx`, `${stem}.spec.tsx`).concat(
        inDir(join(dir, '__tests__'), `${stem}.test.ts`, `${stem}.spec.ts`),
      );
    }
    case '.java': {
      // Maven/Gradle layout: src/main/java/… is tested in src/test/java/…
      const swap = (from: string, to: string) =>
        `/${dir}/`.includes(`/src/${from}/`) ? [`/${dir}/`.replace(`/src/${from}/`, `/src/${to}/`).slice(1, -1)] : [];
      const tested = /^(.+)Test$/.exec(stem)?.[1];
      if (tested) return [dir, ...swap('test', 'main')].map((d) => join(d, `${tested}.java`));
      return [dir, ...swap('main', 'test')].map((d) => join(d, `${stem}Test.java`));
    }
    case '.rs': {
      const crateRoot = basename(dir) === 'src' ? parent : dir;
      return [...(name === 'mod.rs' ? [] : [join(dir, 'mod.rs')]), join(crateRoot, 'tests', `${stem}.rs`)];
    }
    default:
      return generalFallback(dir, stem, ext);
  }
}

/** Other languages: same stem with a test prefix or suffix, or the paired source of a test file. */
function generalFallback(dir: string, stem: string, ext: string): string[] {
  if (!ext) return [];
  const tested = /^(.+)[._-](test|spec)$/.exec(stem)?.[1] ?? /^test_(.+)$/.exec(stem)?.[1];
  if (tested) return [join(dir, `${tested}${ext}`)];
  return [
    `${stem}.test${ext}`,
    `${stem}.spec${ext}`,
    `${stem}_test${ext}`,
    `${stem}_spec${ext}`,
    `test_${stem}${ext}`,
  ].map((n) => join(dir, n));
}

const C_SOURCES = ['.c', '.cc', '.cpp', '.cxx'];
const C_HEADERS = ['.h', '.hpp', '.hh', '.hxx'];
/** Extensions a test and the code it tests may differ by. */
const FAMILIES = [
  ['.ts', '.tsx', '.mts', '.cts'],
  ['.js', '.jsx', '.mjs', '.cjs'],
  [...C_SOURCES, ...C_HEADERS],
];
const family = (ext: string) => FAMILIES.find((f) => f.includes(ext)) ?? [ext];

/** The stem a test file tests (`parseUtil.test` → `parseUtil`, `test_utils` → `utils`, `FooTest` → `Foo`), or null. */
function testedStem(stem: string): string | null {
  return (
    /^(.+)[._-](test|spec|unittest)$/.exec(stem)?.[1] ??
    /^test_(.+)$/.exec(stem)?.[1] ??
    /^(.+[a-z0-9])Tests?$/.exec(stem)?.[1] ??
    null
  );
}

/**
 * Basenames that may pair with `path` anywhere in the tree, in groups tried in order: the tested source of
 * a test (with or without a leading underscore); a C/C++ file's header or implementation, then its test;
 * any other file's test.
 */
export function companionNames(path: string): string[][] {
  const ext = extname(path);
  if (!ext) return [];
  const stem = basename(path, ext);
  const tested = testedStem(stem);
  if (tested) return [family(ext).flatMap((e) => [`${tested}${e}`, `_${tested}${e}`])];
  const bare = stem.replace(/^_(?=[^_])/, '');
  const testsOf = (exts: string[]) =>
    [...new Set([stem, bare])].flatMap((s) =>
      exts.flatMap((e) => [
        `${s}.test${e}`,
        `${s}.spec${e}`,
        `${s}_test${e}`,
        `${s}_unittest${e}`,
        `test_${s}${e}`,
        `${s}Test${e}`,
      ]),
    );
  if (C_HEADERS.includes(ext)) return [C_SOURCES.map((e) => `${stem}${e}`)];
  if (C_SOURCES.includes(ext)) return [C_HEADERS.map((e) => `${stem}${e}`), testsOf([ext])];
  return [testsOf(family(ext))];
}

/**
 * The companion of `path` anywhere in `files` (paths relative to one root, forward slashes): per group of
 * names, a unique match, or the one match nearest `path` by shared folders. A tie pairs nothing: a missed
 * companion costs less than a wrong one.
 */
export function treeCompanion(path: string, byName: Map<string, string[]>): string | null {
  for (const names of companionNames(path)) {
    const found = [...new Set(names.flatMap((n) => byName.get(n) ?? []))].filter((p) => p !== path);
    if (found.length === 0) continue;
    if (found.length === 1) return found[0]!;
    const ranked = found.map((p) => ({ p, shared: sharedFolders(path, p) })).sort((a, b) => b.shared - a.shared);
    return ranked[0]!.shared > ranked[1]!.shared ? ranked[0]!.p : null;
  }
  return null;
}

function sharedFolders(a: string, b: string): number {
  const x = a.split('/').slice(0, -1);
  const y = b.split('/').slice(0, -1);
  let n = 0;
  while (n < x.length && x[n] === y[n]) n++;
  return n;
}
