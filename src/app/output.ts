/** Writes a finished run's markdown report (never over an existing one) and, if asked, its JSON and SARIF; either mode. */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';
import type { ReviewResult } from '../model/events';
import { recordOutputs } from './state';
import { defaultReportName, scopeName, scopeSlug, writeNewReport } from '../report/naming';
import { ensureSkepticFolder } from '../io/skepticFolder';
import { SKEPTIC_FOLDER } from '../model/skepticFolder';
import { currentBranch } from '../scope/changes';
import type { ScopeSpec } from '../model/scope';

export interface OutputOptions {
  cwd: string;
  /** Report path; default `code-review-{slug}.md` in `reportDir` (default cwd). */
  out?: string;
  reportDir?: string;
  json?: string;
  sarif?: string;
  now?: Date;
  /** Where the written paths are recorded, so that a later run never reviews them (src/app/state.ts). */
  stateDir?: string;
  /** What was reviewed: a change review's report is named after the change (`staged`, `changes`, the branch, `pr-12`). */
  scope?: ScopeSpec;
}

export interface WrittenOutputs {
  /** Absolute path of the markdown report. */
  reportPath: string;
  /** What was written there, so no one reads it back. */
  markdown: string;
  jsonPath?: string;
}

/** A multi-repo lens run is named for what it is, not after its first repository. */
const MULTI_REPO_NAME = 'cross-repo';

export async function writeOutputs(result: ReviewResult, opts: OutputOptions): Promise<WrittenOutputs> {
  const rootIsFile = (await stat(resolve(opts.cwd, result.reviewRoots[0] ?? '.')).catch(() => null))?.isFile() ?? false;
  const name =
    result.mode === 'lenses' && result.targets.length > 1
      ? MULTI_REPO_NAME
      : ((opts.scope && (await changeName(opts.scope, opts.cwd))) ??
        scopeName(result.reviewRoots, opts.cwd, rootIsFile));
  const date = (opts.now ?? new Date()).toISOString().slice(0, 10);
  const target = opts.out
    ? resolve(opts.cwd, opts.out)
    : resolve(opts.cwd, opts.reportDir ?? '.', defaultReportName(scopeSlug(name)));
  // Reports kept in Skeptic's own folder: the folder keeps them out of git (see ensureSkepticFolder).
  if (relative(opts.cwd, target).split(sep)[0] === SKEPTIC_FOLDER) await ensureSkepticFolder(opts.cwd);
  await mkdir(dirname(target), { recursive: true });
  // Each renderer is loaded when a run's outputs are written, not before the run's first request.
  const markdown =
    result.mode === 'lenses'
      ? (await import('../report/lensMarkdown')).renderLensReport(result, { name, date })
      : (await import('../report/markdown')).renderStagedReport(result, { name, date });
  const reportPath = await writeNewReport(target, markdown);
  const shown = relative(opts.cwd, reportPath).split(sep).join('/');
  const json = async () =>
    result.mode === 'lenses'
      ? (await import('../report/lensJson')).lensJson(result, { date, reportPath: shown })
      : (await import('../report/json')).stagedJson(result, shown);
  const jsonPath = opts.json ? await writeJson(resolve(opts.cwd, opts.json), await json()) : undefined;
  const sarifPath = opts.sarif
    ? await writeJson(resolve(opts.cwd, opts.sarif), (await import('../report/sarif')).toSarif(result))
    : undefined;
  if (opts.stateDir)
    await recordOutputs(opts.stateDir, [
      reportPath,
      ...(jsonPath ? [jsonPath] : []),
      ...(sarifPath ? [sarifPath] : []),
    ]);
  return { reportPath, markdown, ...(jsonPath ? { jsonPath } : {}) };
}

/** The name of a change review: the branch under review for a branch review, else what the change is. */
async function changeName(scope: ScopeSpec, cwd: string): Promise<string | undefined> {
  switch (scope.kind) {
    case 'paths':
      return undefined;
    case 'branch':
      return (await currentBranch(cwd)) ?? `since-${scope.base}`;
    case 'pr':
      return `pr-${scope.number}`;
    default:
      return scope.kind;
  }
}

/** Machine outputs are rewritten on every run: they describe the latest review, and name its report. */
async function writeJson(path: string, value: unknown): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(value, null, 2) + '\n', 'utf8');
  return path;
}
