/**
 * Benchmark data at run time: a benchmark's data folder fetched from its public repository at a pinned commit
 * (a shallow, sparse, blob-less git clone of that folder and the few other files a run reads, into the work
 * folder), or a folder the user names. Nothing
 * of any benchmark ships with Skeptic. Records are checked with zod and a bad one is named by file and place.
 */
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { EvalCase } from './cases';
import type { JudgePrompt } from './judge';
import type { ProfileName } from './martian/profiles';
import type { Reference } from './martian/results';
import { EvalError } from './errors';
import { FetchError, git } from './git';
import type { Matching } from './score';

export class DataError extends EvalError {}

/** One benchmark: where its data lives, how to read it, and how its results are broken down. */
export interface Benchmark {
  name: string;
  title: string;
  /** The public repository and the folder in it that holds the data. */
  repo: string;
  folder: string;
  /** Other paths of the repository a run reads (sparse-checkout patterns): published results, the judge's prompt. */
  alsoFetch: readonly string[];
  /**
   * The commit fetched by default, and what its data holds: a download of it that holds other counts is
   * refused. Without it, the repository's default branch.
   */
  pinned?: { ref: string; prs: number; comments: number };
  load(dir: string): Promise<EvalCase[]>;
  /** What golden comments are grouped by in the breakdown, and the groups' order (others follow, sorted). */
  groupBy: 'severity' | 'category';
  groupOrder: readonly string[];
  /** The counting rule and judge model that make our figures comparable with the published ones. */
  matching: Matching;
  judgeModel: string;
  /** What the benchmark's repository holds beside the data (`dataDir`'s parent): its judge prompt, its results. */
  published?: {
    /** Its own judge prompt, or null when the folder does not hold it. */
    judge(dataDir: string): Promise<JudgePrompt | null>;
    reference(
      dataDir: string,
      judgeModel: string,
      scored: EvalCase[],
      profile: ProfileName | null,
      commit: string | null,
    ): Promise<Reference>;
  };
}

/** The data's counts: the pinned commit's are checked, so a moved or partial download is never scored as it. */
export function checkCounts(bench: Pick<Benchmark, 'pinned'>, cases: EvalCase[]): void {
  const want = bench.pinned;
  if (!want) return;
  const comments = cases.reduce((n, c) => n + c.golden.length, 0);
  if (cases.length !== want.prs || comments !== want.comments)
    throw new DataError(
      `the benchmark data at ${want.ref.slice(0, 7)} should hold ${want.prs} PRs and ${want.comments} golden comments, but holds ${cases.length} PRs and ${comments} comments; delete the work folder's data/ and run again, or choose other data with --data-ref REF or --data DIR`,
    );
}

/** `ref` names a commit by its full id (what a server lets one fetch), so a checkout of it never goes stale. */
const isCommitId = (ref: string) => /^[0-9a-f]{40}$/.test(ref);

/**
 * The benchmark's data folder at `ref` (a commit, branch or tag; default: the pinned commit, else the default
 * branch), downloaded into its own folder under `cacheDir`: a commit is fetched once and reused after, a
 * branch or tag fetched again each run.
 */
export async function fetchBenchmarkData(
  bench: Pick<Benchmark, 'repo' | 'folder' | 'alsoFetch' | 'pinned'>,
  cacheDir: string,
  opts: { ref?: string; source?: string; signal?: AbortSignal } = {},
): Promise<string> {
  const ref = opts.ref ?? bench.pinned?.ref ?? 'HEAD';
  const root = join(cacheDir, ref.replace(/[^\w.-]/g, '_'));
  const folder = join(root, bench.folder);
  if (isCommitId(ref) && (await hasJson(folder)) && (await dataCommit(folder, bench))?.startsWith(ref)) return folder;
  const source = opts.source ?? bench.repo;
  const at = { cwd: root, ...(opts.signal ? { signal: opts.signal } : {}) };
  try {
    await mkdir(root, { recursive: true });
    await git(['init', '-q'], at);
    await git(['remote', 'add', 'origin', source], at).catch(() => undefined); // kept from an interrupted attempt
    await git(['sparse-checkout', 'set', '--no-cone', `/${bench.folder}/`, ...bench.alsoFetch.map((p) => `/${p}`)], at);
    await git(['fetch', '-q', '--depth=1', '--filter=blob:none', 'origin', ref], at);
    await git(['checkout', '-q', '--detach', 'FETCH_HEAD'], at);
  } catch (err) {
    throw new FetchError(
      `could not download the benchmark at ${ref} from ${source} (${(err as Error).message}); pass --data DIR with a copy of its ${bench.folder} folder`,
    );
  }
  if (!(await hasJson(folder))) throw new DataError(`${source} has no JSON files under ${bench.folder} at ${ref}`);
  return folder;
}

/**
 * The commit of the benchmark's repository the data comes from: known when the data folder is the
 * benchmark's own folder in a git checkout (as a download leaves it), else null.
 */
export async function dataCommit(dataDir: string, bench: Pick<Benchmark, 'folder'>): Promise<string | null> {
  try {
    const prefix = (await git(['rev-parse', '--show-prefix'], { cwd: dataDir })).trim();
    if (prefix !== `${bench.folder}/`) return null;
    return (await git(['rev-parse', 'HEAD'], { cwd: dataDir })).trim() || null;
  } catch {
    return null;
  }
}

async function hasJson(dir: string): Promise<boolean> {
  return (await readdir(dir).catch(() => [])).some((f) => f.endsWith('.json'));
}

/** The records of the chosen *.json files of `dir` (all of them, or those `pick` keeps), files in name order. */
export async function readRecords<T>(
  dir: string,
  record: z.ZodType<T>,
  pick: { what: string; file: (name: string) => boolean } = { what: '*.json', file: () => true },
): Promise<Array<{ file: string; index: number; record: T }>> {
  if (!(await stat(dir).catch(() => null))?.isDirectory()) throw new DataError(`no such data folder: ${dir}`);
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json') && pick.file(f)).sort();
  if (!files.length) throw new DataError(`${dir} holds no benchmark data (${pick.what})`);
  const out: Array<{ file: string; index: number; record: T }> = [];
  for (const file of files) {
    let value: unknown;
    try {
      value = JSON.parse(await readFile(join(dir, file), 'utf8'));
    } catch (err) {
      throw new DataError(`${file}: not valid JSON (${(err as Error).message})`);
    }
    const parsed = z.array(record).safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new DataError(
        `${file}: ${issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')}: ${issue.message}`,
      );
    }
    parsed.data.forEach((r, index) => out.push({ file, index, record: r }));
  }
  return out;
}

/** Runs `build` for a record, naming the record in any error it throws. */
export function inRecord<T>(at: { file: string; index: number }, build: () => T): T {
  try {
    return build();
  } catch (err) {
    throw new DataError(`${at.file}[${at.index}]: ${(err as Error).message}`);
  }
}
