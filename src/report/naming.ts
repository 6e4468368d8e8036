/**
 * Report file names: `code-review-{scope-slug}.md`, with `-v2`, `-v3`… so an existing report is never
 * overwritten. The file is created with O_EXCL, so two runs racing for one name cannot clobber each other.
 */
import { basename, extname, resolve } from 'node:path';
import { createNew } from '../io/safeWrite';

/** The scope's display name: the review root's folder name (the working folder's for "."), or a file's stem. */
export function scopeName(reviewRoots: string[], cwd: string, rootIsFile: boolean): string {
  const root = reviewRoots[0] ?? '.';
  const name = basename(resolve(cwd, root));
  return rootIsFile ? basename(name, extname(name)) : name;
}

export function scopeSlug(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // accents go, their letters stay
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || 'review';
}

export function defaultReportName(slug: string): string {
  return `code-review-${slug}.md`;
}

/** `report.md` → `report-v{n}.md` (n ≥ 2). */
export function versionedName(path: string, n: number): string {
  if (n < 2) return path;
  const ext = extname(path);
  return `${path.slice(0, path.length - ext.length)}-v${n}${ext}`;
}

/** Writes `content` to `path`, or to the first free `-vN` variant of it. Returns the path written. */
export async function writeNewReport(path: string, content: string): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = versionedName(path, n);
    try {
      // O_EXCL and O_NOFOLLOW: an existing name, a link to anywhere included, is passed over, never written through.
      await createNew(candidate, content);
      return candidate;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}
