import { readdir, stat } from 'node:fs/promises';
import { resolve } from 'node:path';

/** Folder listings read once each: companion lookups on a large tree would otherwise stat thousands of misses. */
export class DirCache {
  private readonly listings = new Map<string, Promise<Map<string, boolean>>>();
  constructor(private readonly cwd: string) {}

  async isFile(path: string): Promise<boolean> {
    const slash = path.lastIndexOf('/');
    const dir = slash < 0 ? '.' : path.slice(0, slash);
    let listing = this.listings.get(dir);
    if (!listing) {
      listing = readdir(resolve(this.cwd, dir), { withFileTypes: true }).then(
        (entries) => new Map(entries.map((e) => [e.name, e.isFile() || e.isSymbolicLink()])),
        () => new Map<string, boolean>(),
      );
      this.listings.set(dir, listing);
    }
    if (!(await listing).get(path.slice(slash + 1))) return false;
    // A link counts only when it leads to a regular file.
    return (await stat(resolve(this.cwd, path)).catch(() => null))?.isFile() ?? false;
  }
}
