/**
 * Step 0: from the user's paths to the files under review and their companions. Deterministic, no model.
 * Folders expand through git's view of the tree where they are in a repository (tracked plus untracked
 * files git does not ignore), and by a plain walk elsewhere. Every file left out is counted with its reason.
 */
import { lstat, open, readdir, realpath, stat } from 'node:fs/promises';
import { basename, join, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import type { DiscoveryResult, FileEntry } from '../model/records';
import { CompanionFinder } from './companionFinder';
import { DirCache } from './dirCache';
import { MAX_FILE_BYTES, OUTLINE_ABOVE_BYTES } from '../model/fileSize';
import { compiledEvidence, excludeByContent, excludeByPath, hasSourceMapComment, type ExclusionReason } from './exclusions';
import { extensionOf } from '../model/languages';
import { grammarFor } from './syntax/grammars';
import { gitListFiles, gitToplevel } from './git';
import { Semaphore } from '../model/semaphore';
import { isSecretFile } from '../model/secrets';

export interface InventoryOptions {
  cwd: string;
  /** Globs (relative to cwd) of files to leave out. */
  excludes?: string[];
  /** Larger files are left out as oversized (default MAX_FILE_BYTES). */
  maxBytes?: number;
}

export interface Exclusion {
  path: string;
  reason: ExclusionReason;
}

export interface Inventory {
  discovery: DiscoveryResult;
  excluded: Exclusion[];
}

export class ScopeError extends Error {}

const HEAD_BYTES = 8192;
const TAIL_BYTES = 1024;
/** File operations in flight at once while taking stock of a large tree. */
const IO_PARALLEL = 64;

/** Forward-slash path relative to cwd: the spelling every record and report uses. */
export function displayPath(cwd: string, abs: string): string {
  const rel = relative(cwd, abs).split(sep).join('/');
  return rel === '' ? '.' : rel;
}

/** A file found for review: its display path, its path below the folder it was found in, and whether the user named it. */
export interface Candidate {
  path: string;
  /** Relative to the review root it was found under; folder rules look only below the root the user chose. */
  belowRoot: string;
  explicit: boolean;
}

export async function takeInventory(paths: string[], opts: InventoryOptions): Promise<Inventory> {
  const cwd = opts.cwd;
  const excluded: Exclusion[] = [];
  const chosen = new Map<string, Candidate>();
  const roots: string[] = [];

  for (const p of paths.length ? paths : ['.']) {
    const abs = resolve(cwd, p);
    const st = await stat(abs).catch(() => null);
    if (!st) throw new ScopeError(`no such file or folder: ${p}`);
    roots.push(displayPath(cwd, abs));
    if (st.isFile()) {
      const path = displayPath(cwd, abs);
      chosen.set(path, { path, belowRoot: basename(abs), explicit: true });
    } else if (st.isDirectory()) {
      for (const path of await listFolder(abs, cwd, excluded)) {
        if (!chosen.has(path)) chosen.set(path, { path, belowRoot: relative(abs, resolve(cwd, path)).split(sep).join('/'), explicit: false });
      }
    } else throw new ScopeError(`not a file or folder: ${p}`);
  }
  return classify([...new Set(roots)], [...chosen.values()], opts, excluded);
}

/** Applies every exclusion rule to the candidates and attaches companions: the common end of every scope. */
export async function classify(reviewRoots: string[], candidates: Candidate[], opts: InventoryOptions, excluded: Exclusion[] = []): Promise<Inventory> {
  const isUserExcluded = opts.excludes?.length ? picomatch(opts.excludes, { dot: true }) : () => false;
  const io = new Semaphore(IO_PARALLEL);
  const dirs = new DirCache(opts.cwd);
  const reasons = await Promise.all(
    candidates.map(async (c) => {
      if (isUserExcluded(c.path)) return 'user_exclude';
      const byPath = excludeByPath(c.belowRoot, c.explicit);
      if (byPath) return byPath;
      if (!c.explicit && (await io.run(() => isCompiled(c.path, dirs)))) return 'compiled';
      return io.run(() => contentExclusion(resolve(opts.cwd, c.path), c.explicit, opts.maxBytes ?? MAX_FILE_BYTES));
    }),
  );
  const included: string[] = [];
  candidates.forEach((c, i) => {
    const reason = reasons[i];
    if (reason) excluded.push({ path: c.path, reason });
    else included.push(c.path);
  });
  included.sort();
  const companions = new CompanionFinder(opts.cwd, reviewRoots, included, dirs);
  const entries: FileEntry[] = await Promise.all(included.map(async (path) => ({ path, companion_path: await io.run(() => companions.find(path)) })));
  return { discovery: { review_roots: reviewRoots, file_entries: entries }, excluded };
}

async function contentExclusion(abs: string, explicit: boolean, maxBytes: number): Promise<ExclusionReason | null> {
  try {
    const st = await stat(abs);
    if (!st.isFile()) return 'unreadable';
    // A link named innocently may lead to a secrets file: judge the file it resolves to as well.
    if (isSecretFile(await realpath(abs))) return 'secret';
    // Large files with a grammar are reviewed through an outline of their functions; without one they cannot be.
    if (st.size > maxBytes || (st.size > OUTLINE_ABOVE_BYTES && !grammarFor(extensionOf(abs)))) return 'oversized';
    const handle = await open(abs, 'r');
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(HEAD_BYTES), 0, HEAD_BYTES, 0);
      const byHead = excludeByContent(buffer.subarray(0, bytesRead), explicit);
      if (byHead || explicit || !compiledEvidence(basename(abs)).length) return byHead;
      const tail = await handle.read(Buffer.alloc(TAIL_BYTES), 0, TAIL_BYTES, Math.max(0, st.size - TAIL_BYTES));
      return hasSourceMapComment(tail.buffer.subarray(0, tail.bytesRead)) ? 'compiled' : null;
    } finally {
      await handle.close();
    }
  } catch {
    return 'unreadable';
  }
}

/** A declaration file or JavaScript beside its source map or the TypeScript it came from. */
async function isCompiled(path: string, dirs: DirCache): Promise<boolean> {
  const slash = path.lastIndexOf('/');
  const dir = slash < 0 ? '' : path.slice(0, slash + 1);
  for (const name of compiledEvidence(path.slice(slash + 1))) if (await dirs.isFile(dir + name)) return true;
  return false;
}

async function listFolder(abs: string, cwd: string, excluded: Exclusion[]): Promise<string[]> {
  const top = await gitToplevel(abs);
  if (top) {
    const files = await gitListFiles(abs);
    const io = new Semaphore(IO_PARALLEL);
    const kinds = await Promise.all(files.map((f) => (f.includes('\uFFFD') ? null : io.run(() => lstat(join(abs, f)).catch(() => null)))));
    const out: string[] = [];
    files.forEach((f, i) => {
      const full = join(abs, f);
      if (f.includes('\uFFFD')) excluded.push({ path: displayPath(cwd, full), reason: 'non_utf8_name' });
      // A tracked file deleted in the work tree, or a tracked symlink, is not reviewable content.
      else if (kinds[i]?.isFile()) out.push(displayPath(cwd, full));
    });
    return out;
  }
  const out: string[] = [];
  await walk(abs, cwd, out, excluded, new Set());
  return out;
}

/** A plain walk that follows folder links once: a link back into its own ancestry is a counted loop. */
async function walk(dir: string, cwd: string, out: string[], excluded: Exclusion[], seen: Set<string>): Promise<void> {
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
      if (!isSkippedDir(e.name)) await walk(full, cwd, out, excluded, seen);
      else excluded.push({ path: rel, reason: e.name === 'node_modules' || e.name === 'vendor' ? 'vendored' : 'build_output' });
    } else if (e.isFile()) out.push(rel);
    else if (e.isSymbolicLink()) {
      const target = await stat(full).catch(() => null);
      const targetReal = target?.isDirectory() ? await realpath(full).catch(() => null) : null;
      // A link to this folder or any folder above it (even above the walk's start) is a loop.
      if (targetReal && (real === targetReal || real.startsWith(targetReal.endsWith(sep) ? targetReal : targetReal + sep))) excluded.push({ path: rel, reason: 'symlink_loop' });
      else if (target?.isDirectory()) await walk(full, cwd, out, excluded, seen);
      else if (target?.isFile()) out.push(rel);
      else excluded.push({ path: rel, reason: 'unreadable' });
    }
  }
  seen.delete(real);
}

/** Folders a plain walk does not descend into (the path rules would exclude everything inside anyway). */
function isSkippedDir(name: string): boolean {
  return name === '.git' || name === 'node_modules' || name === '.hg' || name === '.svn' || name === '__pycache__';
}
