/**
 * The scope of a review asked for without one (`skeptic review`, `skeptic plan`, *Skeptic: Review (Auto)*),
 * as the lens-mode spec orders it: the open pull request of the checked-out branch (when gh is installed
 * and signed in), else the uncommitted changes (staged, unstaged and untracked), else the whole folder.
 * The line says which and why; it is the first thing a surface shows.
 */
import { git } from '../io/git';
import { plural } from '../model/plural';
import type { ScopeSpec } from '../model/scope';
import type { TargetScope } from './choices';
import { ghBranchPullRequest } from '../scope/gh';
import { gitToplevel, listAhead } from '../scope/git';

export interface AutoScope {
  scope: ScopeSpec;
  line: string;
}

export async function autoScope(cwd: string, env?: NodeJS.ProcessEnv): Promise<AutoScope> {
  // Every question at once, the top folder's too: each is a process, and the first request waits for the answers.
  // Untracked files count, as the uncommitted scope reviews them; ignored ones do not.
  const status = git(['status', '--porcelain', '--untracked-files=all'], cwd);
  status.catch(() => undefined); // thrown below where the status decides
  const branchPr = ghBranchPullRequest({ cwd, ...(env ? { env } : {}) });
  const top = await gitToplevel(cwd);
  if (!top)
    return { scope: { kind: 'paths', paths: ['.'] }, line: 'Scope: the whole folder (auto: not a git repository)' };
  // The whole folder's listing is the scope's first need when it is the scope.
  const listing = listAhead(top);
  const pr = await branchPr;
  if ('number' in pr) {
    listing.drop();
    return {
      scope: { kind: 'pr', number: pr.number },
      line: `Scope: pull request #${pr.number} (auto: the open pull request of this branch, from gh)`,
    };
  }
  let porcelain: string;
  try {
    porcelain = await status;
  } catch (err) {
    listing.drop();
    throw err;
  }
  const changed = porcelain.split('\n').filter(Boolean).length;
  if (changed > 0) {
    listing.drop();
    return {
      scope: { kind: 'changes' },
      line: `Scope: uncommitted changes (auto: ${pr.none}; ${plural(changed, 'file')} changed, staged or untracked)`,
    };
  }
  return {
    scope: { kind: 'paths', paths: ['.'] },
    line: `Scope: the whole folder (auto: ${pr.none}; no uncommitted changes)`,
  };
}

/** The target with its scope detected when it is `auto` (the CLI and the worker alike); `line` only then. */
export async function withAutoScope<T extends { cwd: string; scope: TargetScope }>(
  target: T,
  env?: NodeJS.ProcessEnv,
): Promise<{ target: T & { scope: ScopeSpec }; line?: string }> {
  const { scope } = target;
  if (scope.kind !== 'auto') return { target: { ...target, scope } };
  const chosen = await autoScope(target.cwd, env);
  return { target: { ...target, scope: chosen.scope }, line: chosen.line };
}
