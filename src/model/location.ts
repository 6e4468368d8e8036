/**
 * A place in a file. Models cite places as "path:12" or "path:12-20" strings; they are parsed once, where a
 * reply enters, and formatted again only where a contract (JSON, markdown) spells them as text.
 */
export interface Location {
  /** Relative to the working directory, forward slashes. */
  file: string;
  line: number;
  /** Last line of a range. */
  endLine?: number;
}

export interface ParsedLocation {
  path: string | null;
  line: number;
  end?: number;
}

/** Reads "path:12", "path:12-20", "12" or "12-20"; null for "file-wide" or anything else. */
export function parseLocation(location: string): ParsedLocation | null {
  const m = /^(?:(.*?):)?L?(\d+)(?:\s*-\s*L?(\d+))?$/.exec(location.trim());
  if (!m) return null;
  const line = Number(m[2]);
  const end = m[3] ? Number(m[3]) : undefined;
  return { path: m[1] ?? null, line, ...(end !== undefined && end !== line ? { end } : {}) };
}

/** "path:12", the spelling of reports, JSON and user messages. */
export function formatLocation(loc: Location): string {
  return `${loc.file}:${loc.line}`;
}
