/** Writes a finished run's markdown report (never over an existing one) and, if asked, its JSON and SARIF; either mode. */
import { stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { checkFolder, checkTarget, ensureFolder, refuseLink, replaceFile, rootFor } from '../io/safeWrite';
import type { ReviewResult } from '../model/events';
import { recordOutputs } from './state';
import { defaultReportName, scopeName, scopeSlug, writeNewReport } from '../report/naming';
import { ensureSkepticFolder } from '../io/skepticFolder';
import { SKEPTIC_FOLDER } from '../model/skepticFolder';
import { currentBranch } from '../scope/changes';
import type { ScopeSpec } from '../model/scope';
import { terminalSafe, terminalText } from '../model/terminalText';

export interface OutputOptions {
  cwd: string;
  /** Report path; default `code-review-{slug}.md` in `reportFolder` (default cwd). */
  out?: string;
  reportFolder?: string;
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
    : resolve(opts.cwd, opts.reportFolder ?? '.', defaultReportName(scopeSlug(name)));
  // Reports kept in Skeptic's own folder: the folder keeps them out of git (see ensureSkepticFolder).
  if (relative(opts.cwd, target).split(sep)[0] === SKEPTIC_FOLDER) await ensureSkepticFolder(opts.cwd);
  await ensureFolder(dirname(target), { root: rootFor(opts.cwd, target) });
  // Each renderer is loaded when a run's outputs are written, not before the run's first request.
  const rendered =
    result.mode === 'lenses'
      ? (await import('../report/lensMarkdown')).renderLensReport(result, { name, date })
      : (await import('../report/markdown')).renderStagedReport(result, { name, date });
  // No escape sequence in the file or the editor's report page, whatever way the text came (a server's error, say).
  const markdown = terminalText(rendered);
  const reportPath = await writeNewReport(target, markdown);
  const shown = relative(opts.cwd, reportPath).split(sep).join('/');
  const json = async () =>
    result.mode === 'lenses'
      ? (await import('../report/lensJson')).lensJson(result, { date, reportPath: shown })
      : (await import('../report/json')).stagedJson(result, shown);
  const jsonPath = opts.json ? await writeJson(opts.cwd, opts.json, await json()) : undefined;
  const sarifPath = opts.sarif
    ? await writeJson(opts.cwd, opts.sarif, (await import('../report/sarif')).toSarif(result))
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

/**
 * Machine outputs are rewritten on every run: they describe the latest review, and name its report. A link
 * in their place is refused (checkOutputTargets said so before the run), never written through.
 */
async function writeJson(cwd: string, file: string, value: unknown): Promise<string> {
  const path = resolve(cwd, file);
  await refuseLink(path, file);
  await replaceFile(path, JSON.stringify(value, terminalSafe, 2) + '\n', { root: rootFor(cwd, path), shown: file });
  return path;
}

/**
 * Before the run spends anything: no output may be a symbolic link, nor lie below a folder that links out of
 * the working folder (a committed `.skeptic -> /elsewhere`). Throws UnsafeWrite naming the flag and the file.
 */
export async function checkOutputTargets(cwd: string, outputs: OutputTargets): Promise<void> {
  const named: Array<[string, string | undefined]> = [
    ['--json', outputs.json],
    ['--sarif', outputs.sarif],
    ['--events', outputs.events],
    ['--out', outputs.out],
  ];
  for (const [flag, file] of named) {
    if (file === undefined) continue;
    const path = resolve(cwd, file);
    await checkTarget(path, { root: rootFor(cwd, path), shown: `${flag} ${file}` });
  }
  if (outputs.out === undefined) {
    const dir = resolve(cwd, outputs.reportFolder ?? '.');
    await checkFolder(dir, {
      root: rootFor(cwd, join(dir, 'report.md')),
      shown: `report folder ${outputs.reportFolder ?? '.'}`,
    });
  }
}

export type OutputTargets = Pick<OutputOptions, 'out' | 'reportFolder' | 'json' | 'sarif'> & { events?: string };
