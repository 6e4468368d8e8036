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
      return [dir, ...sibling('src'), ...parallel('include', 'src')].flatMap((d) => inDir(d, `${stem}.cpp`, `${stem}.cc`, `${stem}.c`));
    case '.cpp':
    case '.cc':
    case '.c':
      return [dir, ...sibling('include'), ...parallel('src', 'include')].flatMap((d) => inDir(d, `${stem}.hpp`, `${stem}.h`));
    case '.py': {
      const tested = /^test_(.+)$/.exec(stem)?.[1] ?? /^(.+)_test$/.exec(stem)?.[1];
      if (tested) return [dir, ...parallel('tests', 'src'), parent].flatMap((d) => inDir(d, `${tested}.py`));
      return [dir, ...sibling('tests'), join(parent, 'tests')].flatMap((d) => inDir(d, `test_${stem}.py`, `${stem}_test.py`));
    }
    case '.ts':
    case '.tsx': {
      const tested = /^(.+)\.(test|spec)$/.exec(stem)?.[1];
      if (tested) return [dir, parent].flatMap((d) => inDir(d, `${tested}.ts`, `${tested}.tsx`));
      return inDir(dir, `${stem}.test.ts`, `${stem}.spec.ts`, `${stem}.test.tsx`, `${stem}.spec.tsx`).concat(inDir(join(dir, '__tests__'), `${stem}.test.ts`, `${stem}.spec.ts`));
    }
    case '.java': {
      // Maven/Gradle layout: src/main/java/… is tested in src/test/java/…
      const swap = (from: string, to: string) => (`/${dir}/`.includes(`/src/${from}/`) ? [`/${dir}/`.replace(`/src/${from}/`, `/src/${to}/`).slice(1, -1)] : []);
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
  return [`${stem}.test${ext}`, `${stem}.spec${ext}`, `${stem}_test${ext}`, `${stem}_spec${ext}`, `test_${stem}${ext}`].map((n) => join(dir, n));
}
