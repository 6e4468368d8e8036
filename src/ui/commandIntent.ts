/**
 * What a change review started from the editor is told the change is for. No vscode import: the rule is
 * plain data in, plain data out, and unit-tested as such (test/unit/command-intent.test.ts).
 */
import type { Intent } from '../model/intent';

/**
 * The intent a review command passes on: a non-empty `intent` string in its argument (a keybinding's or
 * task's `args`, another extension's executeCommand) first; else, for a review of local changes, the commit
 * message being written in Source Control for that repository, which is the author's own word on those
 * changes. None otherwise: a branch review then states its commits' subjects, and a pull request its title
 * and description (app/jobRequest.ts).
 */
export function commandIntent(arg: unknown, commitMessage?: string): Intent | undefined {
  const given = arg && typeof arg === 'object' ? (arg as { intent?: unknown }).intent : undefined;
  if (typeof given === 'string' && given.trim()) return { source: 'the review command', text: given };
  if (commitMessage?.trim()) return { source: 'the commit message in Source Control', text: commitMessage };
  return undefined;
}
