/**
 * Finding → diagnostic, as plain data, made in the worker: the host only turns it into a vscode.Diagnostic
 * and never reads a source file. Positions are untrusted (they come from a model): they are clamped to the file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Finding } from '../model/finding';
import { splitLines } from '../model/lines';
import type { Priority } from '../model/records';
import { SEVERITIES, type PlainDiagnostic, type Place, type SeverityName } from './protocol';

export const DEFAULT_SEVERITY_MAP: Record<Priority, SeverityName> = {
  must_fix: 'error',
  should_fix: 'warning',
  nice_to_have: 'information',
};

/**
 * `lineCount(file)` gives a file's number of lines (undefined when unknown: then the line is only kept ≥ 0).
 * A severity map from settings may be partial or hold junk; unknown entries fall back to the default.
 */
export function toDiagnostic(
  f: Finding,
  lineCount: (file: string) => number | undefined,
  map: Record<string, unknown> = {},
): PlainDiagnostic {
  const at = clamp(f.file, f.line, f.end_line ?? f.line, lineCount);
  const tags = [f.pre_existing ? 'pre-existing' : '', f.unchallenged ? 'not challenged' : ''].filter(Boolean);
  const related = f.locations
    .slice(1)
    .map((loc) => ({ at: clamp(loc.file, loc.line, loc.endLine ?? loc.line, lineCount), message: 'also here' }));
  return {
    at,
    severity: severityFor(f.priority, map),
    message: `${f.action} (${f.rationale})${tags.length ? ` [${tags.join(', ')}]` : ''}`,
    source: 'Skeptic',
    code: f.rule_id,
    related,
  };
}

export function severityFor(priority: Priority, map: Record<string, unknown>): SeverityName {
  const wanted = map[priority];
  return SEVERITIES.find((s) => s === wanted) ?? DEFAULT_SEVERITY_MAP[priority];
}

function clamp(file: string, line: number, endLine: number, lineCount: (file: string) => number | undefined): Place {
  const max = Math.max(0, (lineCount(file) ?? Number.MAX_SAFE_INTEGER) - 1);
  const toIndex = (n: number) => Math.min(max, Math.max(0, Number.isFinite(n) ? Math.floor(n) - 1 : 0));
  const start = toIndex(line);
  return { file, line: start, endLine: Math.max(start, toIndex(endLine)) };
}

/** Line counts of the files under `cwd`, read once per file (undefined for a file that cannot be read). */
export function lineCounter(cwd: string): (file: string) => number | undefined {
  const counts = new Map<string, number | undefined>();
  return (file) => {
    if (!counts.has(file)) {
      try {
        counts.set(file, splitLines(readFileSync(join(cwd, file), 'utf8')).length);
      } catch {
        counts.set(file, undefined);
      }
    }
    return counts.get(file);
  };
}
