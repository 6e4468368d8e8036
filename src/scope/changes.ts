/**
 * Change scopes: which files changed and which of their lines, from git (uncommitted, staged, branch) or
 * from a GitHub pull request. Git runs from the repository top; every path shown is relative to cwd.
 */
import { createReadStream } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseDiff, type FileDiff } from './diff';
import { ghPrDiff, ghPrView, type PullRequest } from './gh';
import { git, GitError } from '../io/git';
import { gitToplevel } from './git';
import { isLockFile } from './exclusions';
import { displayPath, ScopeError } from './inventory';
import type { ChangeScope } from '../model/scope';
import type { RemovedHunk } from '../model/removed';
import { pullRequestIntent, type Intent } from '../model/intent';

export interface ChangedFile {
  path: string;
  status: 'added' | 'modified' | 'renamed';
  /** New-side changed lines, inclusive and 1-based; empty for a mode-only change, a pure rename or an empty file. */
  ranges: Array<[number, number]>;
  added: number;
  removed: number;
  /** What the change removed, base-side numbered (scope/diff.ts); none for a new file. */
  removedLines: RemovedHunk[];
}

/** A file the change deleted, its text kept as one base-side run (within REMOVED_CAPS). */
export interface DeletedFile {
  path: string;
  removedLines: RemovedHunk[];
}

export type SkipReason = 'deleted' | 'binary' | 'symlink' | 'submodule';

export interface ChangeSet {
  /** The repository top, relative to cwd ('.' when cwd is the top). */
  root: string;
  /** Reviewable files only, sorted by path. */
  files: ChangedFile[];
  skipped: Array<{ path: string; reason: SkipReason }>;
  /** Text files the change deleted (lock files aside), with their text as removed lines: their callers are reviewed. */
  deleted: DeletedFile[];
  /** Added plus removed lines of every text change, lock files excluded: the gate-check count. */
  changedLines: number;
  description: string;
  pr?: PullRequest;
  /** What the change says it is for: a pull request's title and description, or a range's commit subjects. */
  intent?: Intent;
}

export interface ChangeOptions {
  cwd: string;
  /** Untracked files not ignored count as added in the 'changes' scope (default true). */
  includeUntracked?: boolean;
  /** The environment the gh CLI runs with (PR scope); defaults to process.env. */
  env?: NodeJS.ProcessEnv;
}

const DIFF = [
  'diff',
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
  '-U0',
  '--find-renames',
  '--src-prefix=a/',
  '--dst-prefix=b/',
];
const HEAD_BYTES = 8192;

export async function collectChanges(scope: ChangeScope, opts: ChangeOptions): Promise<ChangeSet> {
  const { cwd } = opts;
  if (!(await gitToplevel(cwd))) throw new ScopeError(`${cwd} is not inside a git repository; change scopes need git`);
  // The top as seen from cwd (not git's resolved path), so links in cwd do not skew relative paths.
  const top = resolve(cwd, (await git(['rev-parse', '--show-cdup'], cwd)).trim() || '.');
  const set = new Builder(cwd, top);
  const head = await hasHead(top);

  switch (scope.kind) {
    case 'changes':
      if (head) set.addDiff(await runGit(top, [...DIFF, 'HEAD']));
      else await set.addWhole(await listFiles(top, '--cached')); // no commits yet: everything staged is new
      if (opts.includeUntracked ?? true) await set.addWhole(await listFiles(top, '--others', '--exclude-standard'));
      return set.done('uncommitted changes');
    case 'staged':
      if (!head)
        throw new ScopeError(
          'the repository has no commits yet, so there is nothing to compare staged changes with; review the uncommitted changes instead',
        );
      set.addDiff(await runGit(top, [...DIFF, '--cached']));
      return set.done('staged changes');
    case 'branch': {
      if (!head) throw new ScopeError(`the repository has no commits yet, so there are no changes since ${scope.base}`);
      const mergeBase = await findMergeBase(top, scope.base);
      set.addDiff(await runGit(top, [...DIFF, mergeBase, 'HEAD']));
      const intent = await commitSubjects(top, mergeBase);
      return {
        ...set.done(`changes since ${scope.base} (merge-base ${mergeBase.slice(0, 7)})`),
        ...(intent ? { intent } : {}),
      };
    }
    case 'pr': {
      if (!Number.isSafeInteger(scope.number) || scope.number <= 0)
        throw new ScopeError(`not a pull request number: ${scope.number}`);
      const ghOpts = { cwd: top, env: opts.env };
      const [pr, diff] = await Promise.all([ghPrView(scope.number, ghOpts), ghPrDiff(scope.number, ghOpts)]);
      set.addDiff(diff);
      return {
        ...set.done(`PR #${pr.number}: ${pr.title}`),
        pr,
        intent: pullRequestIntent(pr.number, pr.title, pr.body),
      };
    }
  }
}

/** Why a change is not worth a review unless forced: `why` ("PR is draft"), and `line` as the outputs show it. */
export interface Skip {
  why: string;
  line: string;
}

const skip = (why: string): Skip => ({ why, line: `SKIP: ${why}` });

/** Fewer changed lines than `minLines` are not worth a review. */
function tooSmall(set: ChangeSet, minLines: number): Skip | null {
  return set.changedLines >= minLines ? null : skip(`< ${minLines} changed lines`);
}

/** A pull request merged, closed or draft is not reviewed unless forced. */
function prSkip(set: ChangeSet): Skip | null {
  if (!set.pr) return null;
  if (set.pr.state === 'MERGED' || set.pr.state === 'CLOSED') return skip(`PR is ${set.pr.state}`);
  if (set.pr.isDraft) return skip('PR is draft');
  return null;
}

/** Why a change set is not reviewed unless forced: its pull request's state first, then its size. */
export function skipOf(set: ChangeSet, minLines = 5): Skip | null {
  return prSkip(set) ?? tooSmall(set, minLines);
}

export function gateCheck(set: ChangeSet, minLines = 5): { passed: boolean; reason: string | null } {
  const small = tooSmall(set, minLines);
  return small ? { passed: false, reason: small.line } : { passed: true, reason: null };
}

export function prSkipReason(set: ChangeSet): string | null {
  return prSkip(set)?.line ?? null;
}

/** The checked-out branch, or null when HEAD is detached or cwd is not in a repository (to warn on a PR's head). */
export async function currentBranch(cwd: string): Promise<string | null> {
  try {
    return (await git(['symbolic-ref', '--short', '-q', 'HEAD'], cwd)).trim() || null;
  } catch {
    return null;
  }
}

class Builder {
  private files: ChangedFile[] = [];
  private skipped: ChangeSet['skipped'] = [];
  private deleted: DeletedFile[] = [];
  private changedLines = 0;

  constructor(
    private cwd: string,
    private top: string,
  ) {}

  private show(topRelative: string): string {
    return displayPath(this.cwd, join(this.top, topRelative));
  }

  addDiff(text: string): void {
    for (const d of parseDiff(text)) this.addFile(d);
  }

  private addFile(d: FileDiff): void {
    const name = d.newPath ?? d.oldPath;
    if (name === null) return;
    if (!isLockFile(name)) this.changedLines += d.added + d.removed;
    const path = this.show(name);
    const reason =
      d.status === 'deleted' || d.status === 'binary'
        ? d.status
        : d.mode === '160000'
          ? 'submodule'
          : d.mode === '120000'
            ? 'symlink'
            : null;
    if (reason) this.skipped.push({ path, reason });
    if (d.status === 'deleted' && d.removedLines.length && !isLockFile(name))
      this.deleted.push({ path, removedLines: d.removedLines });
    else if (d.status !== 'deleted' && d.status !== 'binary')
      this.files.push({
        path,
        status: d.status,
        ranges: d.ranges,
        added: d.added,
        removed: d.removed,
        removedLines: d.removedLines,
      });
  }

  /** Files new to git (untracked, or staged before the first commit): every line is changed. */
  async addWhole(topRelative: string[]): Promise<void> {
    for (const name of topRelative) {
      const path = this.show(name);
      // An untracked folder is a nested repository; git lists it with a trailing slash.
      if (name.endsWith('/')) {
        this.skipped.push({ path, reason: 'submodule' });
        continue;
      }
      const content = await readWhole(join(this.top, name));
      if (typeof content === 'string') {
        this.skipped.push({ path, reason: content });
        continue;
      }
      if (!isLockFile(name)) this.changedLines += content.lines;
      this.files.push({
        path,
        status: 'added',
        ranges: content.lines ? [[1, content.lines]] : [],
        added: content.lines,
        removed: 0,
        removedLines: [],
      });
    }
  }

  done(description: string): ChangeSet {
    const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
    const root = displayPath(this.cwd, this.top);
    return {
      root,
      files: this.files.sort(byPath),
      skipped: this.skipped.sort(byPath),
      deleted: this.deleted.sort(byPath),
      changedLines: this.changedLines,
      description,
    };
  }
}

/** A file's line count, streamed (an untracked file may be large), or why it is not reviewed. */
async function readWhole(abs: string): Promise<{ lines: number } | SkipReason> {
  const st = await lstat(abs).catch(() => null);
  if (!st) return 'deleted'; // staged, then removed from the work tree
  if (st.isSymbolicLink()) return 'symlink';
  if (!st.isFile()) return 'binary';
  let lines = 0;
  let seen = 0;
  let last = 0x0a;
  for await (const chunk of createReadStream(abs) as AsyncIterable<Buffer>) {
    if (seen < HEAD_BYTES && chunk.subarray(0, HEAD_BYTES - seen).includes(0)) return 'binary';
    seen += chunk.length;
    for (let at = chunk.indexOf(0x0a); at >= 0; at = chunk.indexOf(0x0a, at + 1)) lines++;
    if (chunk.length) last = chunk[chunk.length - 1]!;
  }
  return { lines: last === 0x0a ? lines : lines + 1 };
}

/** Git with paths unquoted; its failures name the subcommand rather than the `-c` option. */
async function runGit(top: string, args: string[]): Promise<string> {
  try {
    return await git(['-c', 'core.quotePath=false', ...args], top);
  } catch (err) {
    if (err instanceof GitError) throw new GitError(err.message.replace(/^git -c /, `git ${args[0]} `));
    throw err;
  }
}

async function listFiles(top: string, ...which: string[]): Promise<string[]> {
  return (await runGit(top, ['ls-files', '-z', ...which])).split('\0').filter(Boolean);
}

async function hasHead(top: string): Promise<boolean> {
  return git(['rev-parse', '--verify', '-q', 'HEAD^{commit}'], top).then(
    () => true,
    () => false,
  );
}

/** The subjects of the range's commits, oldest first (at most MAX_SUBJECTS; the packet cuts the text to its cap). */
async function commitSubjects(top: string, mergeBase: string): Promise<Intent | null> {
  const out = await runGit(top, [
    'log',
    '--no-merges',
    '--reverse',
    '--format=%s',
    `-n${MAX_SUBJECTS}`,
    `${mergeBase}..HEAD`,
  ]);
  const subjects = out.split('\n').filter((s) => s.trim());
  return subjects.length
    ? { source: 'commit subjects of the range', text: subjects.map((s) => `- ${s}`).join('\n') }
    : null;
}
const MAX_SUBJECTS = 200;

async function findMergeBase(top: string, base: string): Promise<string> {
  // A leading dash would be read as an option.
  const sha = base.startsWith('-')
    ? null
    : await git(['rev-parse', '--verify', '-q', `${base}^{commit}`], top).then(
        (s) => s.trim(),
        () => null,
      );
  if (!sha) throw new ScopeError(`unknown base ref "${base}": not a branch, tag or commit in this repository`);
  const mergeBase = await git(['merge-base', sha, 'HEAD'], top).then(
    (s) => s.trim(),
    () => '',
  );
  if (!mergeBase) throw new ScopeError(`"${base}" and HEAD have no common ancestor`);
  return mergeBase;
}
