/** The few git questions the scope needs (the runner itself is in src/model/git.ts). */
import { git } from '../model/git';

/** The work tree's top folder, or null where `dir` is not inside a git repository (or git is missing). */
export async function gitToplevel(dir: string): Promise<string | null> {
  try {
    return (await git(['rev-parse', '--show-toplevel'], dir)).trim();
  } catch {
    return null;
  }
}

/** Tracked files plus untracked files git does not ignore, relative to `dir`. */
export async function gitListFiles(dir: string): Promise<string[]> {
  const out = await git(['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', '.'], dir);
  return [...new Set(out.split('\0').filter(Boolean))];
}
