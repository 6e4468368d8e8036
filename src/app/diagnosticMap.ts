/**
 * Finding → diagnostic, as plain data: the part of the Problems-panel mapping that needs no VS Code, so
 * plain mocha can test it. Positions are untrusted (they come from a model): they are clamped to the file.
 */
import type { Priority } from '../model/records';
import type { Finding } from '../model/finding';

export type SeverityName = 'error' | 'warning' | 'information' | 'hint';
export type SeverityMap = Record<Priority, SeverityName>;

export const DEFAULT_SEVERITY_MAP: SeverityMap = { must_fix: 'error', should_fix: 'warning', nice_to_have: 'information' };

export interface PlainLocation {
  /** Relative to the review's working folder, forward slashes. */
  file: string;
  /** 0-based, clamped to the file. */
  line: number;
  endLine: number;
}

export interface PlainDiagnostic {
  at: PlainLocation;
  severity: SeverityName;
  message: string;
  source: 'Skeptic';
  code: string;
  related: Array<{ at: PlainLocation; message: string }>;
}

/**
 * `lineCount(file)` gives a file's number of lines (undefined when unknown: then the line is only kept ≥ 0).
 * A severity map from settings may be partial or hold junk; unknown entries fall back to the default.
 */
export function toDiagnostic(f: Finding, lineCount: (file: string) => number | undefined, map: Partial<Record<string, string>> = {}): PlainDiagnostic {
  const at = clamp(f.file, f.line, f.end_line ?? f.line, lineCount);
  const tags = [f.pre_existing ? 'pre-existing' : '', f.unchallenged ? 'not challenged' : ''].filter(Boolean);
  const related = f.locations.slice(1).map((loc) => ({ at: clamp(loc.file, loc.line, loc.endLine ?? loc.line, lineCount), message: 'also here' }));
  return {
    at,
    severity: severityFor(f.priority, map),
    message: `${f.action} (${f.rationale})${tags.length ? ` [${tags.join(', ')}]` : ''}`,
    source: 'Skeptic',
    code: f.rule_id,
    related,
  };
}

export function severityFor(priority: Priority, map: Partial<Record<string, string>>): SeverityName {
  const wanted = map[priority];
  return wanted === 'error' || wanted === 'warning' || wanted === 'information' || wanted === 'hint' ? wanted : DEFAULT_SEVERITY_MAP[priority];
}

function clamp(file: string, line: number, endLine: number, lineCount: (file: string) => number | undefined): PlainLocation {
  const max = Math.max(0, (lineCount(file) ?? Number.MAX_SAFE_INTEGER) - 1);
  const toIndex = (n: number) => Math.min(max, Math.max(0, Number.isFinite(n) ? Math.floor(n) - 1 : 0));
  const start = toIndex(line);
  return { file, line: start, endLine: Math.max(start, toIndex(endLine)) };
}
