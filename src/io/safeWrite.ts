/**
 * The one way Skeptic writes a file: never through a symbolic link, and never outside the folder the file
 * belongs to. A repository under review is untrusted: a committed `result.json -> /elsewhere` or a `.skeptic`
 * that links out of the tree must not turn a review into a write somewhere else. A new file is created with
 * O_EXCL and O_NOFOLLOW; a file that is rewritten goes through a temp file beside it and a rename, which
 * replaces a link instead of following it. Folders are created only below a real path inside `root`.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, realpath, rename, rm } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { isInside } from '../model/access';
import { SetupError } from '../model/setup';

/** Its message names the file and says what to change. */
export class UnsafeWrite extends SetupError {}

/** O_NOFOLLOW does not exist on Windows; there O_EXCL alone still refuses to open an existing link. */
const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

export interface WriteOptions {
  /** The folder the file belongs to: its real folder must lie inside this one's real path. */
  root?: string;
  /** How the file is named in a refusal (a flag and the path as given); default: the path. */
  shown?: string;
}

/**
 * Creates `dir` (and its parents) without leaving `root`: every folder that already exists on the way must
 * really lie inside root, so a link among them is refused before anything is created through it.
 */
export async function ensureFolder(dir: string, opts: WriteOptions = {}): Promise<void> {
  await checkFolder(dir, opts);
  await mkdir(dir, { recursive: true });
  await checkFolder(dir, opts);
}

/** Throws UnsafeWrite when the deepest existing folder of `dir` (where mkdir would start) really lies outside root. */
export async function checkFolder(dir: string, opts: WriteOptions): Promise<void> {
  if (!opts.root) return;
  const root = await realpath(opts.root).catch(() => resolve(opts.root!));
  let existing = resolve(dir);
  while (!(await lstat(existing).catch(() => null)) && dirname(existing) !== existing) existing = dirname(existing);
  const real = await realpath(existing).catch(() => null);
  if (real && !isInside(real, root))
    throw new UnsafeWrite(
      `${opts.shown ?? dir}: ${relative(opts.root, existing) || existing} leads out of ${opts.root} through a symbolic link; Skeptic does not write through it`,
    );
}

/** What a write of `path` will refuse, checked before a run spends anything: a link at the path or on the way out of root. */
export async function checkTarget(path: string, opts: WriteOptions = {}): Promise<void> {
  await refuseLink(path, opts.shown);
  await checkFolder(dirname(path), opts);
}

/** Refuses a link at `path` itself: a file the user named is never replaced by one Skeptic writes. */
export async function refuseLink(path: string, shown: string = path): Promise<void> {
  if ((await lstat(path).catch(() => null))?.isSymbolicLink())
    throw new UnsafeWrite(
      `${shown} is a symbolic link; Skeptic never writes through a link: name another file or remove it`,
    );
}

/** Creates `path`, which must not exist (EEXIST otherwise, a link included). */
export async function createNew(path: string, content: string | Buffer): Promise<void> {
  const handle = await open(path, CREATE, 0o644);
  try {
    await handle.writeFile(content);
  } finally {
    await handle.close();
  }
}

/**
 * Writes `path` whole: a temp file beside it, then a rename over it, so a reader never sees half of it and a
 * link at `path` is replaced, never followed. The folder is created inside `root` when given.
 */
export async function replaceFile(path: string, content: string | Buffer, opts: WriteOptions = {}): Promise<void> {
  await ensureFolder(dirname(path), opts);
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await createNew(tmp, content);
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
}

/** The root a path "belongs to" when it is named relative to `cwd`: cwd itself if the path lies below it, else none. */
export function rootFor(cwd: string, path: string): string | undefined {
  const rel = relative(cwd, resolve(cwd, path));
  return rel === '' || rel.split(sep)[0] === '..' || isAbsolute(rel) ? undefined : cwd;
}
