import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, resolve, sep } from 'node:path';

/** Folder listings read once each: companion lookups on a large tree would otherwise stat thousands of misses. */
export class DirCache {
  /** Per absolute folder: each name in it, and whether it is a file (or a link). */
  private readonly listings = new Map<string, Promise<Map<string, boolean>>>();
  constructor(private readonly cwd: string) {}

  /** `path`: relative to the cwd, or absolute. */
  async isFile(path: string): Promise<boolean> {
    const abs = resolve(this.cwd, path);
    if (!(await this.listing(dirname(abs))).get(basename(abs))) return false;
    // A link counts only when it leads to a regular file.
    return (await stat(abs).catch(() => null))?.isFile() ?? false;
  }

  private listing(dir: string): Promise<Map<string, boolean>> {
    let listing = this.listings.get(dir);
    if (!listing) {
      // Most folders a lookup names (a `tests/` or `src/` beside a file) do not exist: below the cwd, a parent
      // listed without them answers without a failed readdir.
      const parent = dirname(dir);
      const below = parent === this.cwd || parent.startsWith(this.cwd + sep);
      listing = (below ? this.listing(parent).then((p) => p.has(basename(dir))) : Promise.resolve(true)).then(
        (mayExist) =>
          mayExist
            ? readdir(dir, { withFileTypes: true }).then(
                (entries) => new Map(entries.map((e) => [e.name, e.isFile() || e.isSymbolicLink()])),
                () => new Map<string, boolean>(),
              )
            : new Map<string, boolean>(),
      );
      this.listings.set(dir, listing);
    }
    return listing;
  }
}
