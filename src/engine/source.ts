/** A file's text as sub-agents see it: split into lines and shown with 1-based line numbers. */
import { createHash } from 'node:crypto';
import { splitLines } from '../model/lines';
import type { CodeFunction } from '../model/functions';

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
  return tagged(file, role, numberLines(file.lines));
}

/** `untrusted_<kind>_` and 8 hex digits of the content's hash: text inside cannot name the tag that closes it. */
export function blockTag(kind: 'source' | 'context', text: string): string {
  return `untrusted_${kind}_${createHash('sha256').update(text).digest('hex').slice(0, 8)}`;
}

function tagged(file: SourceFile, role: string, body: string): string {
  const tag = blockTag('source', file.text);
  return `<${tag} path="${file.path}" role="${role}" lines="${file.lines.length}">\n${body}\n</${tag}>`;
}

/** A file too large to send whole: each function's signature line, numbered, under its name and line range. */
export function outlineBlock(file: SourceFile, functions: CodeFunction[]): string {
  const body = functions.map((f) => {
    const at = f.signature_line ?? f.start_line;
    return `      (${f.qualified_name}: ${f.kind}, lines ${f.start_line}-${f.end_line})\n${numberLines([file.lines[at - 1] ?? ''], at)}`;
  });
  return tagged(file, 'outline', body.join('\n'));
}

/** Whole line ranges of a large file (the functions one call reviews), numbered as in the file. */
export function excerptBlock(file: SourceFile, ranges: [number, number][]): string {
  const body = ranges.map(([from, to]) => numberLines(file.lines.slice(from - 1, to), from));
  return tagged(file, 'excerpt', body.join('\n      …\n'));
}

/** Repair errors for a cited line that does not exist in a file of `lineCount` lines (a reply cites places; both modes check them). */
export function lineErrors(what: string, line: number | null, lineCount: number): string[] {
  return line !== null && (line < 1 || line > lineCount)
    ? [`${what}: line ${line} does not exist (the file has ${lineCount} lines)`]
    : [];
}
