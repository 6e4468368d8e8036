/** The few git questions the scope needs, asked through the git CLI without a shell. */
import { execFile } from 'node:child_process';

export class GitError extends Error {}

export function git(args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err) reject(new GitError(`git ${args[0]} failed: ${(stderr || err.message).trim().split('\n')[0]}`));
      else resolve(stdout);
    });
  });
}

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
