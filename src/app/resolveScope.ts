/**
 * From what the user asked for to what gets reviewed: either paths (Step 0 over files and folders) or a
 * change scope (the files a change touched, with their changed lines, through the same exclusion rules).
 */
import type { LineRange } from '../model/lines';
import type { ScopeSpec } from '../model/scope';
import type { RemovedHunk } from '../model/removed';
import { collectChanges, skipOf, type ChangeSet, type Skip } from '../scope/changes';
import type { Step0Facts } from '../scope/facts';
import type { Inventory } from '../scope/exclusions';
import type { FileStream } from '../model/fileStream';
import { classify, takeInventory } from '../scope/inventory';

export interface ScopeOptions {
  cwd: string;
  excludes: string[];
  includeUntracked: boolean;
  env?: NodeJS.ProcessEnv;
  /** What is known about contents: the job's (scope/facts.ts). */
  facts?: Step0Facts;
  /** Where a paths scope's inventory is kept between runs (scope/inventorySnapshot.ts). */
  keptIn?: string;
  /** A plan's quick count while Step 0 reads (InventoryOptions.quickCountFrom). */
  quickCountFrom?: number;
  /** A paths scope's files as Step 0 judges them (InventoryOptions.onFiles); a change scope's come all at once. */
  onFiles?: (files: FileStream) => void;
}

export interface ResolvedScope {
  inventory: Inventory;
  description: string;
  /** Change scopes only. */
  changedRanges?: Map<string, LineRange[]>;
  /** Change scopes only: each reviewed file's removed lines, where it has any. */
  removedLines?: Map<string, RemovedHunk[]>;
  changes?: ChangeSet;
  /** Why a change scope is not worth reviewing, unless forced. */
  skip: Skip | null;
}

/** What a paths scope is called: its review roots. */
export function pathsDescription(roots: string[]): string {
  return roots.join(', ');
}

export async function resolveScope(spec: ScopeSpec, opts: ScopeOptions): Promise<ResolvedScope> {
  if (spec.kind === 'paths') {
    const inventory = await takeInventory(spec.paths, {
      cwd: opts.cwd,
      excludes: opts.excludes,
      ...(opts.facts ? { facts: opts.facts } : {}),
      ...(opts.keptIn ? { keptIn: opts.keptIn } : {}),
      quickCountFrom: opts.quickCountFrom,
      ...(opts.onFiles ? { onFiles: opts.onFiles } : {}),
    });
    return { inventory, description: pathsDescription(inventory.discovery.review_roots), skip: null };
  }
  const changes = await collectChanges(spec, {
    cwd: opts.cwd,
    includeUntracked: opts.includeUntracked,
    ...(opts.env ? { env: opts.env } : {}),
  });
  // Files whose change has no lines (a pure rename, a mode change) have nothing to review.
  const candidates = changes.files.filter((f) => f.ranges.length > 0).map((f) => f.path);
  const inventory = await classify([changes.root], candidates, {
    cwd: opts.cwd,
    excludes: opts.excludes,
    ...(opts.facts ? { facts: opts.facts } : {}),
    quickCountFrom: opts.quickCountFrom,
  });
  const reviewed = new Set(inventory.discovery.file_entries.map((e) => e.path));
  const kept = changes.files.filter((f) => reviewed.has(f.path));
  const changedRanges = new Map(kept.map((f) => [f.path, f.ranges]));
  const removedLines = new Map(kept.filter((f) => f.removedLines.length).map((f) => [f.path, f.removedLines]));
  return {
    inventory,
    description: changes.description,
    changedRanges,
    removedLines,
    changes,
    skip: skipOf(changes),
  };
}
