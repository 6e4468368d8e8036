/** Writes a finished run's markdown report (never over an existing one) and, if asked, its JSON. */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';
import type { StagedResult } from '../engine/events';
import { stagedJson } from '../report/json';
import { renderStagedReport } from '../report/markdown';
import { defaultReportName, scopeName, scopeSlug, writeNewReport } from '../report/naming';

export interface OutputOptions {
  cwd: string;
  /** Report path; default `code-review-{slug}.md` in `reportDir` (default cwd). */
  out?: string;
  reportDir?: string;
  json?: string;
  now?: Date;
}

export interface WrittenOutputs {
  /** Absolute path of the markdown report. */
  reportPath: string;
  jsonPath?: string;
}

export async function writeOutputs(result: StagedResult, opts: OutputOptions): Promise<WrittenOutputs> {
  const rootIsFile = (await stat(resolve(opts.cwd, result.reviewRoots[0] ?? '.')).catch(() => null))?.isFile() ?? false;
  const name = scopeName(result.reviewRoots, opts.cwd, rootIsFile);
  const date = (opts.now ?? new Date()).toISOString().slice(0, 10);
  const target = opts.out ? resolve(opts.cwd, opts.out) : resolve(opts.cwd, opts.reportDir ?? '.', defaultReportName(scopeSlug(name)));
  await mkdir(dirname(target), { recursive: true });
  const reportPath = await writeNewReport(target, renderStagedReport(result, { name, date }));
  if (!opts.json) return { reportPath };
  const jsonPath = resolve(opts.cwd, opts.json);
  await mkdir(dirname(jsonPath), { recursive: true });
  const shown = relative(opts.cwd, reportPath).split(sep).join('/');
  await writeFile(jsonPath, JSON.stringify(stagedJson(result, shown), null, 2) + '\n', 'utf8');
  return { reportPath, jsonPath };
}
