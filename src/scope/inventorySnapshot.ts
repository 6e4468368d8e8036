/**
 * Step 0 kept whole: on a large repository that has not changed, the inventory of the last run stands in
 * for judging every file and looking up every companion again (what a warm `skeptic plan` spent nearly all
 * its time on). It is kept in the repository's state folder, one file per scope (the roots, the options and
 * the program that took it), beside a stamp of everything the inventory was drawn from:
 *
 * - git's listing of each repository (its files, their blob ids, which are modified: scope/git.ts);
 * - the kind, size, inode and times of each file git has no blob id for (modified or untracked), whose
 *   content was read;
 * - the times of every folder the companion and compiled-file lookups listed (a name added or removed
 *   moves them).
 *
 * A run whose stamp and folder times all match takes the kept inventory; any difference, and Step 0 runs
 * as before and keeps its new result. Nothing is kept for a scope walked without git, or reached through a
 * symbolic link (a link's target can change with nothing stamped changing), or when a stamped time is so
 * recent that a second write within the file system's time resolution could go unseen (git's "racy" case).
 */
import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { statSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { readOwnFile } from '../io/regularFile';
import { replaceFile } from '../io/safeWrite';
import type { FolderStamp } from './dirCache';
import { EXCLUSION_REASONS, type Inventory } from './exclusions';

/** Bump when what is kept changes shape or meaning. */
const FORMAT = 2;
/** A stamped time newer than this before the run started is not trusted to tell two contents apart. */
const RACY_MS = 2000;
/** Scopes kept per repository: the oldest go first. */
const KEPT_SCOPES = 16;
/** About 150 bytes a file: room for a scope of some 200,000 files. */
const MAX_BYTES = 32 << 20;

const Stamp = z.tuple([z.number(), z.number()]).nullable();
const Kept = z.object({
  f: z.literal(FORMAT),
  stamp: z.string(),
  folders: z.array(z.tuple([z.string(), Stamp])),
  roots: z.array(z.string()),
  /**
   * The files under review, a column each (a tuple per file costs the schema several times as much): the
   * path, its companion, and the content id it was judged with.
   */
  files: z
    .object({ paths: z.array(z.string()), companions: z.array(z.string().nullable()), ids: z.array(z.string()) })
    .refine((f) => f.companions.length === f.paths.length && f.ids.length === f.paths.length),
  excluded: z.array(z.object({ path: z.string(), reason: z.enum(EXCLUSION_REASONS), detail: z.string().optional() })),
});
type Kept = z.infer<typeof Kept>;

/**
 * The program taking stock: any change to its code (rules, finders, companions) is a different inventory. Known
 * by its file's size, time and inode rather than its content: hashing the whole bundle cost ~14 ms of every start,
 * and a new build or install writes a new file. A program that cannot stat its own code gets an id of its own, so it
 * finds nothing kept by another.
 */
let programId: string | undefined;
function program(): string {
  if (programId === undefined) {
    let code: string;
    try {
      const st = statSync(__filename);
      code = `${__filename}\0${st.size}\0${st.mtimeMs}\0${st.ino}`;
    } catch {
      code = `${process.pid}-${Date.now()}-${Math.random()}`;
    }
    programId = createHash('sha256').update(code).digest('hex');
  }
  return programId;
}

/** What an inventory was drawn from, gathered while listing the scope. */
export class ScopeStamp {
  private readonly hash = createHash('sha256');
  /** Whether what was gathered is enough to tell the scope unchanged. */
  private complete = true;
  private newest = 0;

  constructor(readonly started: number) {}

  add(...parts: unknown[]): void {
    this.hash.update(JSON.stringify(parts)).update('\0');
  }

  /** A file whose content is read (git has no id for it), by its lstat. */
  addFile(path: string, st: Pick<Stats, 'mtimeMs' | 'ctimeMs' | 'size' | 'ino' | 'mode'>): void {
    this.add(path, st.mtimeMs, st.ctimeMs, st.size, st.ino, st.mode);
    this.newest = Math.max(this.newest, st.mtimeMs);
  }

  /** Something the stamp cannot see change (a walk without git, a symbolic link): nothing is kept. */
  incomplete(): void {
    this.complete = false;
  }

  /** The stamp's digest, or null when the scope cannot be kept. */
  digest(): string | null {
    return this.complete ? this.hash.digest('hex') : null;
  }

  /** Whether a time stamped (a file's or a folder's) is too recent to be trusted. */
  racy(folders: Iterable<FolderStamp>): boolean {
    let newest = this.newest;
    for (const f of folders) if (f) newest = Math.max(newest, f[0]);
    return newest > this.started - RACY_MS;
  }
}

/** Where one scope's inventory is kept: by what names the scope and by the program. */
function fileOf(dir: string, scope: unknown): string {
  const id = createHash('sha256')
    .update(JSON.stringify([FORMAT, program(), scope]))
    .digest('hex');
  return join(dir, `${id.slice(0, 32)}.json`);
}

/**
 * The kept inventory of `scope` if it was drawn from exactly what `stamp` describes and no folder it listed
 * has changed since; with it, the content id each file was judged with (cwd-relative path → id).
 */
export async function keptInventory(
  dir: string,
  scope: unknown,
  stamp: string,
): Promise<{ inventory: Inventory; ids: Map<string, string> } | null> {
  const text = await readOwnFile(fileOf(dir, scope), MAX_BYTES).catch(() => null);
  if (text === null) return null;
  let kept: Kept;
  try {
    const parsed = Kept.safeParse(JSON.parse(text));
    if (!parsed.success) return null;
    kept = parsed.data;
  } catch {
    return null;
  }
  if (kept.stamp !== stamp) return null;
  // Thousands of folders: one synchronous stat each is a few microseconds, a promise each many times that.
  if (kept.folders.some(([folder, then]) => !sameStamp(then, folderStamp(folder)))) return null;
  return {
    inventory: {
      discovery: {
        review_roots: kept.roots,
        file_entries: kept.files.paths.map((path, i) => ({ path, companion_path: kept.files.companions[i]! })),
      },
      excluded: kept.excluded,
    },
    ids: new Map(kept.files.paths.map((path, i) => [path, kept.files.ids[i]!])),
  };
}

/** A scope's inventory with what it was taken from: the scope, its stamp and folders' stamps, each file's content id. */
export interface ToKeep {
  scope: unknown;
  stamp: string;
  folders: Map<string, FolderStamp>;
  inventory: Inventory;
  idOf: (path: string) => string | undefined;
}

/** Keeps `inventory` for the next run (best effort: a failure costs only that run's speed). */
export async function keepInventory(dir: string, { scope, stamp, folders, inventory, idOf }: ToKeep): Promise<void> {
  const files: Kept['files'] = { paths: [], companions: [], ids: [] };
  for (const e of inventory.discovery.file_entries) {
    const id = idOf(e.path);
    if (id === undefined) return;
    files.paths.push(e.path);
    files.companions.push(e.companion_path);
    files.ids.push(id);
  }
  const kept: Kept = {
    f: FORMAT,
    stamp,
    folders: [...folders].map(([folder, s]) => [folder, s ? [s[0], s[1]] : null]),
    roots: inventory.discovery.review_roots,
    files,
    excluded: inventory.excluded,
  };
  try {
    await replaceFile(fileOf(dir, scope), JSON.stringify(kept));
    await dropOldest(dir);
  } catch {
    // Not kept: the next run takes stock again.
  }
}

async function dropOldest(dir: string): Promise<void> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.json'));
  if (names.length <= KEPT_SCOPES) return;
  const aged = await Promise.all(
    names.map(async (n) => ({ n, at: (await stat(join(dir, n)).catch(() => null))?.mtimeMs ?? 0 })),
  );
  aged.sort((a, b) => a.at - b.at);
  for (const { n } of aged.slice(0, names.length - KEPT_SCOPES)) await rm(join(dir, n), { force: true });
}

/** As DirCache stamps a folder: null where it cannot be stat'd (gone, or no longer a folder one can enter). */
function folderStamp(folder: string): FolderStamp {
  try {
    const st = statSync(folder);
    return [st.mtimeMs, st.ctimeMs];
  } catch {
    return null;
  }
}

function sameStamp(a: FolderStamp, b: FolderStamp): boolean {
  return a === null || b === null ? a === b : a[0] === b[0] && a[1] === b[1];
}
