import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, resolve, sep } from 'node:path';

type Kind = 'file' | 'link' | 'other';
/** A folder's modification and change times as it was read; null: it could not be read (or does not exist). */
export type FolderStamp = readonly [mtimeMs: number, ctimeMs: number] | null;

/** Folder listings read once each: companion lookups on a large tree would otherwise stat thousands of misses. */
export class DirCache {
  /** Per absolute folder: each name in it and its kind. */
  private readonly listings = new Map<string, Promise<Map<string, Kind>>>();
  /**
   * Every folder read, stamped just before its listing: an answer can only change with a name added to or
   * removed from one of them, which moves its times (what a kept inventory checks, scope/inventorySnapshot.ts).
   */
  readonly stamps = new Map<string, FolderStamp>();
  /** Whether an answer went through a symbolic link, whose target can change with no folder changing. */
  throughLink = false;
  constructor(private readonly cwd: string) {}

  /** `path`: relative to the cwd, or absolute. */
  async isFile(path: string): Promise<boolean> {
    const abs = resolve(this.cwd, path);
    const kind = (await this.listing(dirname(abs))).get(basename(abs));
    if (kind !== 'link') return kind === 'file';
    // A link counts only when it leads to a regular file.
    this.throughLink = true;
    return (await stat(abs).catch(() => null))?.isFile() ?? false;
  }

  private listing(dir: string): Promise<Map<string, Kind>> {
    let listing = this.listings.get(dir);
    if (!listing) {
      // Most folders a lookup names (a `tests/` or `src/` beside a file) do not exist: below the cwd, a parent
      // listed without them answers without a failed readdir.
      const parent = dirname(dir);
      const below = parent === this.cwd || parent.startsWith(this.cwd + sep);
      listing = (below ? this.listing(parent).then((p) => p.has(basename(dir))) : Promise.resolve(true)).then(
        (mayExist) => (mayExist ? this.read(dir) : new Map<string, Kind>()),
      );
      this.listings.set(dir, listing);
    }
    return listing;
  }

  private async read(dir: string): Promise<Map<string, Kind>> {
    const st = await stat(dir).catch(() => null);
    this.stamps.set(dir, st ? [st.mtimeMs, st.ctimeMs] : null);
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    return new Map(entries.map((e) => [e.name, e.isFile() ? 'file' : e.isSymbolicLink() ? 'link' : 'other']));
  }
}
