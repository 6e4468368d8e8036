/** The few git questions the scope needs (the runner itself is in src/io/git.ts). */
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

/** Tracked files plus untracked files git does not ignore, relative to `dir`. */
export async function gitListFiles(dir: string): Promise<string[]> {
  const out = await git(['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', '.'], dir);
  return [...new Set(out.split('\0').filter(Boolean))];
}
