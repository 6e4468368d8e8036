/** The few git questions the scope needs (the runner itself is in src/io/git.ts). */
import { createHash } from 'node:crypto';
import { git } from '../io/git';

const toplevels = new Map<string, Promise<string | null>>();

/**
 * The work tree's top folder, or null where `dir` is not inside a git repository (or git is missing).
 * Asked once per folder and process (the state folder, the inventory and the companions all ask before
 * the first request, and each spawn forks the whole process); a miss is asked again, as `git init` may follow.
 */
export function gitToplevel(dir: string): Promise<string | null> {
  let top = toplevels.get(dir);
  if (!top) {
    top = git(['rev-parse', '--show-toplevel'], dir).then(
      (out) => out.trim(),
      () => {
        toplevels.delete(dir);
        return null;
      },
    );
    toplevels.set(dir, top);
  }
  return top;
}

/**
 * One repository's files as git sees them: tracked plus untracked files git does not ignore, relative to the
 * top folder, and for each tracked regular file whose work-tree copy git finds unmodified, its blob id (the
 * hash of its content), so that what was learnt about that content (scope/facts.ts) applies without reading it.
 */
export interface GitListing {
  files: string[];
  /** Top-relative path → blob id, for unmodified tracked regular files only (SHA-1 repositories). */
  blobs: Map<string, string>;
  /** A hash of git's whole answer: two equal digests list the same files, each in the same state. */
  digest: string;
}

/** A line of `ls-files -t -s`: tag, mode, blob id, stage, then a tab and the path. */
const STAGED = /^(\S) (\d{6}) ([0-9a-f]{40}) (\d)\t([^]*)$/;

/**
 * One `git ls-files` for the list and the blob ids (`-t` tags each line: H tracked, C modified or deleted in
 * the work tree, ? untracked). Only a regular file (mode 100644 or 100755) at stage 0 that is not also tagged
 * C keeps its id; a link, a submodule, a conflict or a SHA-256 repository gets none and is read.
 */
export async function gitListing(top: string): Promise<GitListing> {
  const out = await git(
    ['ls-files', '-z', '-t', '-s', '--cached', '--modified', '--others', '--exclude-standard'],
    top,
  );
  const files = new Set<string>();
  const blobs = new Map<string, string>();
  const changed = new Set<string>();
  for (const line of out.split('\0')) {
    if (!line) continue;
    const m = STAGED.exec(line);
    if (!m) {
      // An untracked file: "? path".
      if (line.startsWith('? ')) files.add(line.slice(2));
      continue;
    }
    const [, tag, mode, id, stage, path] = m as unknown as [string, string, string, string, string, string];
    files.add(path);
    if (tag === 'C') changed.add(path);
    else if (tag === 'H' && stage === '0' && (mode === '100644' || mode === '100755')) blobs.set(path, id);
  }
  for (const path of changed) blobs.delete(path);
  return { files: [...files], blobs, digest: createHash('sha256').update(out).digest('hex') };
}

/** A listing started ahead is taken only this soon after it started: the next scope, not a later one. */
const AHEAD_MS = 10_000;
const ahead = new Map<string, { listing: Promise<GitListing>; at: number }>();

/**
 * Starts listing `top` now, for the next scope that lists it (once): the auto scope lists the repository while gh
 * and git status decide whether the whole folder is the scope. `drop` it when it is not.
 */
export function listAhead(top: string): { drop: () => void } {
  const started = { listing: gitListing(top), at: Date.now() };
  started.listing.catch(() => undefined); // whoever takes it hears its failure
  ahead.set(top, started);
  return { drop: () => void (ahead.get(top) === started && ahead.delete(top)) };
}

function takeAhead(top: string): Promise<GitListing> | undefined {
  const started = ahead.get(top);
  ahead.delete(top);
  return started && Date.now() - started.at < AHEAD_MS ? started.listing : undefined;
}

/** Listings asked for while taking stock of one scope: the inventory and the companions share one per repository. */
export class GitListings {
  private readonly byTop = new Map<string, Promise<GitListing>>();

  of(top: string): Promise<GitListing> {
    let listing = this.byTop.get(top);
    if (!listing) {
      listing = takeAhead(top) ?? gitListing(top);
      this.byTop.set(top, listing);
    }
    return listing;
  }
}
