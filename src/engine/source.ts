/** A file's text as sub-agents see it: split into lines and shown with 1-based line numbers. */
import { createHash } from 'node:crypto';
import { splitLines } from '../model/lines';

export interface SourceFile {
  /** Relative to the working directory, forward slashes: the name every record uses. */
  path: string;
  text: string;
  lines: string[];
}

export function toSourceFile(path: string, text: string): SourceFile {
  return { path, text, lines: splitLines(text) };
}

export function numberLines(lines: string[], firstLine = 1): string {
  return lines.map((l, i) => `${String(firstLine + i).padStart(4)}| ${l}`).join('\n');
}

/**
 * The delimited block that carries code into a prompt. The tag embeds a hash of the content, so the
 * code cannot close the block early by writing the closing tag itself.
 */
export function sourceBlock(file: SourceFile, role: 'primary' | 'companion'): string {
  const tag = `untrusted_source_${createHash('sha256').update(file.text).digest('hex').slice(0, 8)}`;
  return `<${tag} path="${file.path}" role="${role}" lines="${file.lines.length}">\n${numberLines(file.lines)}\n</${tag}>`;
}

/** Repair errors for a cited line that does not exist in a file of `lineCount` lines (a reply cites places; both modes check them). */
export function lineErrors(what: string, line: number | null, lineCount: number): string[] {
  return line !== null && (line < 1 || line > lineCount) ? [`${what}: line ${line} does not exist (the file has ${lineCount} lines)`] : [];
}
