/** A file's text as sub-agents see it: split into lines and shown with 1-based line numbers. */
import { createHash } from 'node:crypto';
import { splitLines } from '../model/lines';
import type { CodeFunction } from '../model/functions';
import { capText } from '../model/lines';
import { REMOVED_CAPS, type RemovedHunk } from '../model/removed';

export interface SourceFile {
  /** Relative to the working directory, forward slashes: the name every record uses. */
  path: string;
  text: string;
  lines: string[];
  /** In a diff review, what the change removed from the file: shown after it, in the same block of code. */
  removed?: RemovedHunk[];
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
  return withRemoved(file, tagged(file, role, numberLines(file.lines)));
}

/** A file's block followed by the lines its change removed, when it has any (a primary file in a diff review). */
export function withRemoved(file: SourceFile, block: string): string {
  const removed = removedBlock(file);
  return removed ? `${block}\n\n${removed}` : block;
}

const { hunkLines, fileLines, fileChars, lineChars } = REMOVED_CAPS;
const CAPS_SAID = `at most ${hunkLines} lines a run, ${fileLines} lines and ${fileChars} characters a file, each line cut at ${lineChars} characters; what is over is counted, not shown`;
/** A line no text file holds: such a run is summarised, not sent. */
const BINARY = /[\u0000-\u0008\u000e-\u001f]/;

/**
 * The lines the change removed from `file`, each run under the new line it sat before, numbered on the base
 * side with `-` for `|`; within the caps (model/removed.ts), and a binary-looking run only counted.
 */
function removedBlock(file: SourceFile): string | null {
  if (!file.removed?.length) return null;
  const body = [`Lines the change removed (not in the file above; base-side numbers; ${CAPS_SAID}):`];
  let lines = 0;
  let chars = 0;
  for (const run of file.removed) {
    const total = run.lines.length + run.omitted;
    const span = `base lines ${run.base}-${run.base + total - 1}`;
    body.push(
      run.from
        ? `      (the deleted file ${run.from}, ${span}: this file still uses what it defined)`
        : `      (removed before line ${run.before} of the new file: ${span})`,
    );
    if (run.lines.some((l) => BINARY.test(l))) {
      body.push(`      (${total} removed lines of binary content, not shown)`);
      continue;
    }
    let shown = 0;
    for (const line of run.lines) {
      const text = capText(line, lineChars);
      if (lines >= fileLines || chars + text.length > fileChars) break;
      body.push(`${String(run.base + shown).padStart(4)}- ${text}`);
      shown++;
      lines++;
      chars += text.length;
    }
    if (total > shown) body.push(`      (${total - shown} more removed lines of this run not shown: over the cap)`);
  }
  const text = body.join('\n');
  const tag = blockTag('source', text);
  return `<${tag} path="${file.path}" role="removed" runs="${file.removed.length}">\n${text}\n</${tag}>`;
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
