/** A multi-repo lens run's repositories: each one's change scope resolved inside it, with cwd-relative paths. */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import picomatch from 'picomatch';
import type { ChangeSet } from '../scope/changes';
import { loadContextFiles } from '../scope/contextFiles';
import type { Step0Facts } from '../scope/facts';
import type { Inventory } from '../scope/exclusions';
import { displayPath, ScopeError } from '../scope/inventory';
import { resolveScope, type ResolvedScope } from './resolveScope';
import type { PreparedRepository, ReviewJob } from './job';

/** What Step 0 shares with the repositories: its facts, where a plan counts quickly, and the run's warnings to add to. */
export interface RepositoryStep0 {
  facts: Step0Facts;
  quickCountFrom: number | undefined;
  warnings: string[];
}

/** Each repository's change scope, resolved inside it, then every path made relative to cwd again. */
export async function prepareRepositories(
  job: Pick<ReviewJob, 'cwd' | 'scope' | 'excludes' | 'includeUntracked'>,
  paths: string[],
  { facts, quickCountFrom, warnings }: RepositoryStep0,
): Promise<PreparedRepository[]> {
  if (job.scope.kind === 'paths')
    throw new ScopeError('repositories are reviewed on their changes: add --changes, --staged or --base REF');
  if (job.scope.kind === 'pr')
    throw new ScopeError(
      'a pull request belongs to one repository: review it from inside that repository, without repository paths',
    );
  const excluded = job.excludes.length ? picomatch(job.excludes, { dot: true }) : () => false;
  return Promise.all(
    [...new Set(paths)].map(async (path) => {
      const dir = resolve(job.cwd, path);
      if (!(await stat(dir).catch(() => null))?.isDirectory())
        throw new ScopeError(`no such repository folder: ${path}`);
      const at = (p: string) => displayPath(job.cwd, resolve(dir, p));
      const own = await resolveScope(job.scope, {
        cwd: dir,
        excludes: [],
        includeUntracked: job.includeUntracked,
        facts,
        quickCountFrom,
      });
      const entries = own.inventory.discovery.file_entries.map((e) => ({
        path: at(e.path),
        companion_path: e.companion_path && at(e.companion_path),
      }));
      const inventory: Inventory = {
        discovery: {
          review_roots: own.inventory.discovery.review_roots.map(at),
          file_entries: entries.filter((e) => !excluded(e.path)),
        },
        excluded: [
          ...own.inventory.excluded.map((e) => ({ ...e, path: at(e.path) })),
          ...entries.filter((e) => excluded(e.path)).map((e) => ({ path: e.path, reason: 'user_exclude' as const })),
        ],
      };
      const changes = own.changes && rebaseChanges(own.changes, at);
      const changedRanges = new Map([...(own.changedRanges ?? [])].map(([p, r]) => [at(p), r]));
      const removedLines = new Map([...(own.removedLines ?? [])].map(([p, r]) => [at(p), r]));
      const scope: ResolvedScope = {
        ...own,
        inventory,
        description: `${own.description} in ${path}`,
        changedRanges,
        removedLines,
        ...(changes ? { changes } : {}),
      };
      const loaded = await loadContextFiles(dir);
      warnings.push(...loaded.warnings.map((w) => `${path}: ${w}`));
      const context = loaded.files.map((c) => ({ ...c, path: at(c.path) }));
      return { path: displayPath(job.cwd, dir), scope, context };
    }),
  );
}

function rebaseChanges(set: ChangeSet, at: (p: string) => string): ChangeSet {
  return {
    ...set,
    root: at(set.root),
    files: set.files.map((f) => ({ ...f, path: at(f.path) })),
    skipped: set.skipped.map((s) => ({ ...s, path: at(s.path) })),
    deleted: set.deleted.map((d) => ({ ...d, path: at(d.path) })),
  };
}

/** The repositories as one scope, for the surfaces that count files and changed lines before a run. */
export function mergeRepositories(repos: PreparedRepository[]): ResolvedScope {
  const scopes = repos.map((r) => r.scope);
  const files = scopes.flatMap((s) => s.inventory.discovery.file_entries);
  const kind = scopes[0]?.changes?.description ?? 'changes';
  const changes: ChangeSet = {
    root: '.',
    files: scopes.flatMap((s) => s.changes?.files ?? []),
    skipped: scopes.flatMap((s) => s.changes?.skipped ?? []),
    deleted: scopes.flatMap((s) => s.changes?.deleted ?? []),
    changedLines: scopes.reduce((n, s) => n + (s.changes?.changedLines ?? 0), 0),
    description: `${kind} in ${repos.map((r) => r.path).join(', ')}`,
  };
  return {
    inventory: {
      discovery: { review_roots: repos.map((r) => r.path), file_entries: files },
      excluded: scopes.flatMap((s) => s.inventory.excluded),
    },
    description: changes.description,
    changedRanges: new Map(scopes.flatMap((s) => [...(s.changedRanges ?? [])])),
    removedLines: new Map(scopes.flatMap((s) => [...(s.removedLines ?? [])])),
    changes,
    // The run is skipped only when every repository is; the others are reviewed without the skipped ones.
    skip: scopes.every((s) => s.skip) ? (scopes[0]?.skip ?? null) : null,
  };
}
