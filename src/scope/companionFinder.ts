/**
 * Attaches companions relative to the repository a file lives in (or, outside any repository, the review
 * root it was found under), never the working folder: `skeptic plan ../other/shop` pairs the same files as a
 * plan run from inside it. The spec's nearby candidates are tried first, then a same-stem match anywhere in
 * the repository (src/ ↔ include/**, lib/ ↔ test*\/**, tests that strip a leading underscore).
 */
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { companionCandidates, treeCompanion } from './companions';
import type { DirCache } from './dirCache';
import { excludeByPath } from './exclusions';
import { GitListings, gitToplevel } from './git';

interface Base {
  /** Absolute folder every lookup is relative to. */
  dir: string;
  /** Files of the repository (or the review root) by basename, relative to `dir`. */
  byName: Map<string, string[]>;
}

const toSlash = (p: string) => p.split(sep).join('/');

/** Where companions are looked for. `roots` and `files` are cwd-relative: the review roots, and every file found under them. */
export interface CompanionSources {
  cwd: string;
  roots: string[];
  files: string[];
  dirs: DirCache;
  /** The scope's listings: the inventory asked git already, and the same answer serves here. */
  listings?: GitListings;
}

export class CompanionFinder {
  private readonly bases = new Map<string, Promise<Base>>();
  private readonly cwd: string;
  private readonly roots: string[];
  private readonly files: string[];
  private readonly dirs: DirCache;
  private readonly listings: GitListings;

  constructor({ cwd, roots, files, dirs, listings = new GitListings() }: CompanionSources) {
    this.cwd = cwd;
    this.files = files;
    this.dirs = dirs;
    this.listings = listings;
    // Longest first, so a file is looked up under the innermost root that holds it.
    this.roots = roots.map((r) => resolve(cwd, r)).sort((a, b) => b.length - a.length);
  }

  /** The cwd-relative companion of the cwd-relative `path`, or null. */
  async find(path: string): Promise<string | null> {
    const abs = resolve(this.cwd, path);
    const root = this.roots.find((r) => abs === r || abs.startsWith(r + sep)) ?? dirname(abs);
    const base = await this.base(root);
    const rel = toSlash(relative(base.dir, abs));
    const exists = async (c: string) =>
      !c.startsWith('..') && c !== rel && !excludeByPath(c, true) && (await this.dirs.isFile(join(base.dir, c)));
    for (const candidate of companionCandidates(rel)) if (await exists(candidate)) return this.display(base, candidate);
    const far = treeCompanion(rel, base.byName);
    return far && (await exists(far)) ? this.display(base, far) : null;
  }

  private display(base: Base, rel: string): string {
    return toSlash(relative(this.cwd, join(base.dir, rel)));
  }

  private base(root: string): Promise<Base> {
    let base = this.bases.get(root);
    if (!base) {
      base = this.index(root);
      this.bases.set(root, base);
    }
    return base;
  }

  private async index(root: string): Promise<Base> {
    const folder = (await stat(root).catch(() => null))?.isDirectory() ? root : dirname(root);
    const top = await gitToplevel(folder);
    // git names the top folder by its real path; keep the spelling the user's paths use (a linked folder).
    const dir = top ? resolve(folder, relative(await realpath(folder).catch(() => folder), top)) : folder;
    const listed = top
      ? await this.listings.of(top).then(
          (l) => l.files,
          () => null,
        )
      : null;
    const files =
      listed ?? this.files.map((f) => toSlash(relative(dir, resolve(this.cwd, f)))).filter((f) => !f.startsWith('..'));
    const byName = new Map<string, string[]>();
    for (const f of files) {
      // Build output, vendored code and the like never pair, however well their names match.
      if (excludeByPath(f, false)) continue;
      const name = basename(f);
      const same = byName.get(name);
      if (same) same.push(f);
      else byName.set(name, [f]);
    }
    return { dir, byName };
  }
}
