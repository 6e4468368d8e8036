/** The git CLI, run without a shell: shared by the scope (what changed) and the host (which branches exist). */
import { execFile } from 'node:child_process';
import { SetupError } from '../model/setup';

/** git failed: not a repository, an unknown ref; one line for the user. */
export class GitError extends SetupError {}

export function git(args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err) reject(new GitError(`git ${args[0]} failed: ${(stderr || err.message).trim().split('\n')[0]}`));
      else resolve(stdout);
    });
  });
}
