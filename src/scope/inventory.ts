/**
 * Step 0: from the user's paths to the files under review and their companions. Deterministic, no model.
 * Folders expand through git's view of the tree where they are in a repository (tracked plus untracked
 * files git does not ignore), and by a plain walk elsewhere. Every file left out is counted with its reason.
 */
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { FileEntry } from '../model/records';
import { streamOf, type FileStream } from '../model/fileStream';
import { isInside } from '../model/access';
import { SetupError } from '../model/setup';
import { ReviewAccess } from './access';
import { CompanionFinder } from './companionFinder';
import type { DirCache } from './dirCache';
import type { Exclusion, Inventory } from './exclusions';
import type { Step0Facts } from './facts';
import { GitListings, gitToplevel } from './git';
import { keepInventory, keptInventory, ScopeStamp } from './inventorySnapshot';
import { Semaphore } from '../model/semaphore';
import { mapLimit } from '../model/pool';

export interface InventoryOptions {
  cwd: string;
  /** Globs (relative to cwd) of files to leave out. */
  excludes?: string[];
  /** Larger files are left out as oversized (default MAX_FILE_BYTES). */
  maxBytes?: number;
  /** What is known about contents (scope/facts.ts): the job's, shared with its later readers. */
  facts?: Step0Facts;
  /** The folder where the scope's inventory is kept between runs (scope/inventorySnapshot.ts); absent: none is. */
  keptIn?: string;
  /**
   * A plan's: with at least this many candidates, count each file's functions with the quick finder as it is
   * judged (AccessOptions.quickCount); a plan of fewer files parses them all (app/inventories.ts).
   */
  quickCountFrom?: number;
  /**
   * Called once the candidates are listed, with each one's verdict to come (a kept inventory: all in), so a
   * run can start on the first files while Step 0 judges the rest; the inventory itself waits for every verdict.
   */
  onFiles?: (files: FileStream) => void;
}

/** What listing the folders learnt beyond the candidates: git's listings, and the blob ids of unmodified files. */
interface Listed {
  listings: GitListings;
  /** Cwd-relative path → the blob id git gives its content. */
  known: Map<string, string>;
}

/** What listing the folders found before judging: the files left out so far, and what it learnt. */
interface Found {
  excluded: Exclusion[];
  listed: Listed;
}

/** A plain walk's state: where paths are shown from, the roots links may lead into, what it found, the folders it is in. */
interface Walk {
  cwd: string;
  roots: string[];
  out: string[];
  excluded: Exclusion[];
  /** The real paths of the folders being walked: a link back into one of them is a loop. */
  seen: Set<string>;
}

/** What was asked to be reviewed cannot be: a missing path, not a repository, an unknown ref. */
export class ScopeError extends SetupError {}

/** File operations in flight at once while taking stock of a large tree. */
const IO_PARALLEL = 64;

/** Forward-slash path relative to cwd: the spelling every record and report uses. */
export function displayPath(cwd: string, abs: string): string {
  const rel = relative(cwd, abs).split(sep).join('/');
  return rel === '' ? '.' : rel;
}

export async function takeInventory(paths: string[], opts: InventoryOptions): Promise<Inventory> {
  const cwd = opts.cwd;
  const stamp = new ScopeStamp(Date.now());
  const excluded: Exclusion[] = [];
  const chosen = new Set<string>();
  const given = paths.length ? paths : ['.'];
  const roots: string[] = [];
  for (const p of given) {
    if (!(await stat(resolve(cwd, p)).catch(() => null))) throw new ScopeError(missing(p));
    roots.push(displayPath(cwd, resolve(cwd, p)));
  }
  const realRoots = await Promise.all(roots.map((r) => realpath(resolve(cwd, r))));
  stamp.add(realRoots);
  const listed: Listed = { listings: new GitListings(), known: new Map() };
  for (const root of roots) {
    const abs = resolve(cwd, root);
    const st = await stat(abs);
    if (st.isFile()) {
      chosen.add(root);
      const own = await lstat(abs);
      if (own.isSymbolicLink()) stamp.incomplete();
      else stamp.addFile(root, own);
    } else if (st.isDirectory())
      for (const path of await listFolder(abs, { cwd, excluded, roots: realRoots, listed, stamp })) chosen.add(path);
    else throw new ScopeError(`not a file or folder: ${root}`);
  }
  const reviewRoots = [...new Set(roots)];
  const scope = { cwd, roots: reviewRoots, excludes: opts.excludes ?? [], maxBytes: opts.maxBytes ?? null };
  const digest = opts.keptIn === undefined ? null : stamp.digest();
  const kept = digest === null ? null : await keptInventory(opts.keptIn!, scope, digest);
  if (kept) {
    const facts = opts.facts;
    // As judging would: a file's content facts are held before the run takes it (Step0Facts.known answers at once),
    // and the run takes each file as its own are in, not once every file's are (21,000 files' take seconds).
    const held = new Map<string, Promise<unknown>>();
    if (facts) {
      const reads = new Semaphore(IO_PARALLEL);
      for (const [path, id] of kept.ids) {
        facts.judged(resolve(cwd, path), id);
        held.set(
          path,
          reads.run(() => facts.store.get(id)),
        );
      }
    }
    const files = streamOf(kept.inventory.discovery);
    opts.onFiles?.({
      ...files,
      entry: (i) => Promise.resolve(held.get(files.candidates[i]!)).then(() => files.entry(i)),
    });
    await Promise.all(held.values());
    return kept.inventory;
  }
  const judging = await judgeAndPair(reviewRoots, [...chosen], opts, { excluded, listed });
  opts.onFiles?.(judging.files);
  const { inventory, dirs } = await judging.done;
  if (digest !== null && !dirs.throughLink && !stamp.racy(dirs.stamps.values()))
    await keepInventory(opts.keptIn!, {
      scope,
      stamp: digest,
      folders: dirs.stamps,
      inventory,
      idOf: (path) => opts.facts?.idOf(resolve(cwd, path)),
    });
  return inventory;
}

/** The command line cannot carry a name that is not valid UTF-8: say so rather than "no such file". */
function missing(path: string): string {
  if (path.includes('\uFFFD'))
    return `no such file or folder: ${path} (the name given is not valid UTF-8, so it cannot be passed on; review the folder that holds it)`;
  return `no such file or folder: ${path}`;
}

/**
 * Applies every exclusion rule to the candidates (cwd-relative paths) and attaches companions: the common
 * end of every scope. The rules are the one confinement rule every reader shares (ReviewAccess).
 */
export async function classify(
  reviewRoots: string[],
  candidates: string[],
  opts: InventoryOptions,
): Promise<Inventory> {
  const found: Found = { excluded: [], listed: { listings: new GitListings(), known: new Map() } };
  return (await (await judgeAndPair(reviewRoots, candidates, opts, found)).done).inventory;
}

/**
 * `classify` as it goes: the candidates in review order, judged in that order, each entry ready as soon as its
 * own verdict is (its companion is looked up among the candidates, as in a repository among git's files); `done`
 * with the inventory and the folder listings its lookups read (what a kept inventory depends on).
 */
async function judgeAndPair(
  reviewRoots: string[],
  candidates: string[],
  opts: InventoryOptions,
  { excluded, listed }: Found,
): Promise<{ files: FileStream; done: Promise<{ inventory: Inventory; dirs: DirCache }> }> {
  const access = await accessFor(reviewRoots, candidates.length, opts);
  const sorted = [...candidates].sort();
  // Only the verdicts are kept: the texts read on the way are dropped file by file.
  const refusals = sorted.map(() => settled<Exclusion | null>());
  const judged = mapLimit(sorted, IO_PARALLEL, async (path, i) => {
    try {
      const v = await access.judge(resolve(opts.cwd, path), listed.known.get(path));
      refusals[i]!.resolve(v.ok ? null : { path, reason: v.reason, ...(v.detail ? { detail: v.detail } : {}) });
    } catch (err) {
      refusals[i]!.reject(err);
    }
  });
  const companions = new CompanionFinder({
    cwd: opts.cwd,
    roots: reviewRoots,
    files: sorted,
    dirs: access.dirs,
    listings: listed.listings,
  });
  const entries = new Map<number, Promise<FileEntry | null>>();
  const entry = (i: number) => {
    let found = entries.get(i);
    if (!found) {
      const path = sorted[i]!;
      found = refusals[i]!.promise.then(async (refused) =>
        refused ? null : { path, companion_path: await companions.find(path) },
      );
      entries.set(i, found);
    }
    return found;
  };
  const done = judged.then(async () => {
    const refused = new Map(
      (await Promise.all(refusals.map((r) => r.promise))).flatMap((r) => (r ? [[r.path, r] as const] : [])),
    );
    // Left out in the order they were found; kept in review order.
    for (const path of candidates) {
      const r = refused.get(path);
      if (r) excluded.push(r);
    }
    const found = await Promise.all(sorted.map((_, i) => entry(i)));
    const file_entries = found.filter((e): e is FileEntry => e !== null);
    return { inventory: { discovery: { review_roots: reviewRoots, file_entries }, excluded }, dirs: access.dirs };
  });
  // A verdict that failed fails `done` (and whoever reads that entry); none goes unheard.
  for (const r of refusals) r.promise.catch(() => undefined);
  return { files: { review_roots: reviewRoots, candidates: sorted, entry }, done };
}

/** Step 0's rule over the roots, counting functions quickly where a plan has this many candidates or more. */
function accessFor(reviewRoots: string[], candidates: number, opts: InventoryOptions): Promise<ReviewAccess> {
  return ReviewAccess.open({
    cwd: opts.cwd,
    roots: reviewRoots,
    ...(opts.excludes ? { excludes: opts.excludes } : {}),
    ...(opts.maxBytes ? { maxBytes: opts.maxBytes } : {}),
    ...(opts.facts ? { facts: opts.facts } : {}),
    quickCount: opts.quickCountFrom !== undefined && candidates >= opts.quickCountFrom,
  });
}

/** A promise with its resolve and reject at hand. */
function settled<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (err: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

/** A folder's files through git's listing where it is in a repository, by a plain walk elsewhere. */
async function listFolder(
  abs: string,
  { cwd, excluded, roots, listed, stamp }: Found & { cwd: string; roots: string[]; stamp: ScopeStamp },
): Promise<string[]> {
  const top = await gitToplevel(abs);
  if (!top) {
    // Nothing short of the walk itself tells a walked tree unchanged.
    stamp.incomplete();
    const out: string[] = [];
    await walk(abs, { cwd, roots, out, excluded, seen: new Set() });
    return out;
  }
  // git names the top folder by its real path: the folder's own place below it picks its files.
  const below = relative(top, await realpath(abs))
    .split(sep)
    .join('/');
  const listing = await listed.listings.of(top);
  stamp.add(top, below, listing.digest);
  const files = below
    ? listing.files.filter((f) => f.startsWith(`${below}/`)).map((f) => f.slice(below.length + 1))
    : listing.files;
  const blobOf = (f: string) => listing.blobs.get(below ? `${below}/${f}` : f);
  // A file git found unmodified is the regular file it tracks (its check lstat'd it already): no lstat here.
  const kinds = await mapLimit(files, IO_PARALLEL, (f) =>
    f.includes('\uFFFD') || blobOf(f) ? Promise.resolve(null) : lstat(join(abs, f)).catch(() => null),
  );
  // git's paths are clean and use forward slashes: below the cwd, the display path is the folder's plus the
  // file's (tens of thousands of path.relative calls otherwise); above it, each is worked out.
  const shownDir = displayPath(cwd, abs);
  const shown =
    shownDir === '..' || shownDir.startsWith('../') || isAbsolute(shownDir)
      ? (f: string) => displayPath(cwd, join(abs, f))
      : (f: string) => (shownDir === '.' ? f : `${shownDir}/${f}`);
  const out: string[] = [];
  for (const [i, f] of files.entries()) {
    const kind = kinds[i];
    const blob = blobOf(f);
    if (f.includes('\uFFFD')) excluded.push({ path: shown(f), reason: 'non_utf8_name' });
    else if (blob) {
      const path = shown(f);
      listed.known.set(path, blob);
      out.push(path);
    } else if (kind?.isSymbolicLink()) {
      stamp.incomplete();
      await followLink(join(abs, f), { cwd, roots, out, excluded, seen: new Set() });
    } else if (kind?.isFile()) {
      const path = shown(f);
      stamp.addFile(path, kind);
      out.push(path);
    }
    // A tracked file deleted in the work tree is not reviewable content; a pipe or device is counted.
    else if (kind) excluded.push({ path: shown(f), reason: 'unreadable', detail: 'not a regular file' });
  }
  return out;
}

/** A plain walk that follows links inside the roots once: a link back into its own ancestry is a counted loop. */
async function walk(dir: string, at: Walk): Promise<void> {
  const { cwd, out, excluded, seen } = at;
  const real = await realpath(dir).catch(() => null);
  if (!real) return void excluded.push({ path: displayPath(cwd, dir), reason: 'unreadable' });
  if (seen.has(real)) return void excluded.push({ path: displayPath(cwd, dir), reason: 'symlink_loop' });
  seen.add(real);
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => null);
  if (!entries) return void excluded.push({ path: displayPath(cwd, dir), reason: 'unreadable' });
  for (const e of entries) {
    const full = join(dir, e.name);
    const rel = displayPath(cwd, full);
    if (e.name.includes('\uFFFD')) excluded.push({ path: rel, reason: 'non_utf8_name' });
    else if (e.isDirectory()) {
      if (!isSkippedDir(e.name)) await walk(full, at);
      else
        excluded.push({
          path: rel,
          reason: e.name === 'node_modules' || e.name === 'vendor' ? 'vendored' : 'build_output',
        });
    } else if (e.isFile()) out.push(rel);
    else if (e.isSymbolicLink()) await followLink(full, at);
    else excluded.push({ path: rel, reason: 'unreadable', detail: 'not a regular file' });
  }
  seen.delete(real);
}

/**
 * A link found in a tree, git's or not: leading outside every review root it is counted and never read; a
 * link to a file is a candidate (judged again by where it leads); a link to a folder is walked, unless it
 * leads back into its own ancestry.
 */
async function followLink(link: string, at: Walk): Promise<void> {
  const { cwd, out, excluded, roots } = at;
  const rel = displayPath(cwd, link);
  const target = await realpath(link).catch(() => null);
  const kind = target && (await stat(target).catch(() => null));
  if (!target || !kind)
    return void excluded.push({ path: rel, reason: 'unreadable', detail: 'a broken symbolic link' });
  // A link to this folder or any folder above it is a loop (even one above the review root).
  const here = await realpath(join(link, '..')).catch(() => null);
  if (kind.isDirectory() && here && isInside(here, target))
    return void excluded.push({ path: rel, reason: 'symlink_loop' });
  if (!roots.some((r) => isInside(target, r))) return void excluded.push({ path: rel, reason: 'outside_roots' });
  if (kind.isFile()) return void out.push(rel);
  if (!kind.isDirectory()) return void excluded.push({ path: rel, reason: 'unreadable', detail: 'not a regular file' });
  await walk(link, at);
}

/** Folders a plain walk does not descend into (the path rules would exclude everything inside anyway). */
function isSkippedDir(name: string): boolean {
  return name === '.git' || name === 'node_modules' || name === '.hg' || name === '.svn' || name === '__pycache__';
}
