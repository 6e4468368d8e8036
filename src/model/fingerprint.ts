/**
 * A finding's fingerprint: what it is about, not where that happens to be today. It hashes the rule, the
 * file, the function and the code on the finding's line with whitespace normalised, and leaves the line
 * number out, so an edit elsewhere in the file keeps it, and an edit of that line changes it. Dismissals,
 * inline suppressions and SARIF's partialFingerprints all use it.
 */
import { createHash } from 'node:crypto';

/** What a fingerprint is made of; `code` is the text of the finding's line (undefined when unknown). */
export interface FingerprintInput {
  rule_id: string;
  file: string;
  function: string | null;
  code: string | undefined;
}

/** The line's code with runs of whitespace collapsed and the ends trimmed: re-indenting keeps a fingerprint. */
export function normaliseCode(line: string): string {
  return line.replace(/\s+/g, ' ').trim();
}

export function fingerprint(f: FingerprintInput): string {
  const parts = [f.rule_id, f.file, f.function ?? '', normaliseCode(f.code ?? '')];
  return createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 20);
}

/** The text of 1-based line `line` of `lines`, or undefined past either end. */
export function lineText(lines: readonly string[], line: number): string | undefined {
  return line >= 1 && line <= lines.length ? lines[line - 1] : undefined;
}
