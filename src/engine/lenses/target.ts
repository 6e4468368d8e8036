/** What one lens review covers: a scope (or, in a multi-repo run, one repository's changes), loaded. */
import type { FileAccess } from '../../model/access';
import type { ContextFile } from '../../model/records';
import { Semaphore } from '../../model/semaphore';
import { toSourceFile, type SourceFile } from '../source';
import type { LineRange } from '../../model/lines';
import type { FailedUnit } from '../../model/finding';
import type { RemovedHunk } from '../../model/removed';
import type { Intent } from '../../model/intent';

export interface PullRequestInfo {
  number: number;
  title: string;
  body: string;
}

export interface LensTargetSpec {
  /** The repository's path relative to cwd in a multi-repo run; null for a single scope. */
  repository: string | null;
  /** What is reviewed, e.g. "uncommitted changes" or "src, lib". */
  description: string;
  reviewRoots: string[];
  /** Files under review, relative to cwd, sorted. */
  paths: string[];
  /** Change scopes: each file's changed lines, and the gate-check count of changed lines. */
  changedRanges?: Map<string, LineRange[]>;
  /** Each file's removed lines, shown after it (engine/source.ts). */
  removedLines?: Map<string, RemovedHunk[]>;
  changedLines?: number;
  pr?: PullRequestInfo;
  /** What the change is for, as stated (model/intent.ts): quoted in every reviewer's and validator's packet. */
  intent?: Intent;
  /** Per file, the unchanged callers of each function the change altered or removed (app/callers.ts). */
  callers?: Map<string, Record<string, string[]>>;
  /** Project context (and the spec and rubric files) shared by every call on this target. */
  context: ContextFile[];
}

export interface LensTarget extends Omit<LensTargetSpec, 'paths'> {
  files: SourceFile[];
}

const io = new Semaphore(32);

/** Reads every file through the run's FileAccess; one that cannot be read is left out and reported as a failed unit. */
export async function loadTarget(
  access: FileAccess,
  spec: LensTargetSpec,
): Promise<{ target: LensTarget; failed: FailedUnit[] }> {
  const failed: FailedUnit[] = [];
  const read = await Promise.all(
    spec.paths.map((path) =>
      io
        .run(() => access.read(path))
        .then(
          (text) => {
            const removed = spec.removedLines?.get(path);
            return { ...toSourceFile(path, text), ...(removed ? { removed } : {}) };
          },
          (err: Error) =>
            void failed.push({
              step: 'read',
              file: path,
              unit: path,
              reason: `could not read the file (${err.message})`,
            }),
        ),
    ),
  );
  const { paths: _paths, ...rest } = spec;
  return { target: { ...rest, files: read.filter((f): f is SourceFile => f !== undefined) }, failed };
}
