/**
 * The Martian Code Review Bench's golden comments (withmartian/code-review-benchmark, MIT): one JSON file
 * per project under offline/golden_comments/, each an array of PR records. Nothing of it ships with
 * Skeptic: it is fetched at run time (a shallow, sparse git clone into the work folder) or read from a
 * folder the user names.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { SEVERITIES, type EvalCase } from '../cases';
import { parsePullUrl } from '../checkout';
import { EvalError } from '../errors';
import { FetchError, git } from '../git';

export const MARTIAN_REPO = 'https://github.com/withmartian/code-review-benchmark';
const GOLDEN_FOLDER = 'offline/golden_comments';

/** One PR record; fields the evaluation does not use (original_url, az_comment, …) are allowed and ignored. */
export const MartianRecord = z.looseObject({
  pr_title: z.string(),
  url: z.string().min(1),
  comments: z.array(z.looseObject({ comment: z.string().min(1), severity: z.enum(SEVERITIES) })),
});
export type MartianRecord = z.infer<typeof MartianRecord>;

export class DataError extends EvalError {}

/** The golden-comment folder, downloaded into `cacheDir` on first use and reused after. */
export async function fetchMartianData(cacheDir: string, opts: { source?: string; signal?: AbortSignal } = {}): Promise<string> {
  const folder = join(cacheDir, GOLDEN_FOLDER);
  if (await hasJson(folder)) return folder;
  const source = opts.source ?? MARTIAN_REPO;
  const at = { cwd: cacheDir, ...(opts.signal ? { signal: opts.signal } : {}) };
  try {
    await git(['init', '-q'], at);
    await git(['remote', 'add', 'origin', source], at).catch(() => undefined); // kept from an interrupted attempt
    await git(['sparse-checkout', 'set', '--no-cone', `/${GOLDEN_FOLDER}/`], at);
    await git(['fetch', '-q', '--depth=1', '--filter=blob:none', 'origin', 'HEAD'], at);
    await git(['checkout', '-q', 'FETCH_HEAD'], at);
  } catch (err) {
    throw new FetchError(`could not download the benchmark from ${source} (${(err as Error).message}); pass --data DIR with a copy of its ${GOLDEN_FOLDER} folder`);
  }
  if (!(await hasJson(folder))) throw new DataError(`${source} has no JSON files under ${GOLDEN_FOLDER}`);
  return folder;
}

async function hasJson(dir: string): Promise<boolean> {
  return (await readdir(dir).catch(() => [])).some((f) => f.endsWith('.json'));
}

/** Every record of every *.json file in `dir`, files in name order, records in file order. */
export async function loadMartianCases(dir: string): Promise<EvalCase[]> {
  if (!(await stat(dir).catch(() => null))?.isDirectory()) throw new DataError(`no such data folder: ${dir}`);
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  if (!files.length) throw new DataError(`${dir} holds no golden-comment files (*.json)`);
  const cases: EvalCase[] = [];
  for (const file of files) {
    let value: unknown;
    try {
      value = JSON.parse(await readFile(join(dir, file), 'utf8'));
    } catch (err) {
      throw new DataError(`${file}: not valid JSON (${(err as Error).message})`);
    }
    const parsed = z.array(MartianRecord).safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new DataError(`${file}: ${issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')}: ${issue.message}`);
    }
    for (const [i, record] of parsed.data.entries()) {
      let pull;
      try {
        pull = parsePullUrl(record.url);
      } catch (err) {
        throw new DataError(`${file}[${i}]: ${(err as Error).message}`);
      }
      cases.push({ url: record.url, title: record.pr_title, pull, golden: record.comments.map((c) => ({ text: c.comment, severity: c.severity })) });
    }
  }
  return cases;
}
