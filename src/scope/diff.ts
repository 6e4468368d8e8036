/**
 * A pure parser for unified `git diff` text (as from `git diff --no-color --no-ext-diff -U0 --find-renames`
 * or `gh pr diff`): per file, its paths, status, the new-side line ranges that changed and the removed lines.
 */
import { mergeRanges } from '../model/lines';
import { REMOVED_CAPS, type RemovedHunk } from '../model/removed';

export type DiffStatus = 'added' | 'modified' | 'deleted' | 'renamed' | 'binary';

export interface FileDiff {
  /** Path before the change (null for an added file), relative to the repository top. */
  oldPath: string | null;
  /** Path after the change (null for a deleted file). */
  newPath: string | null;
  /** A deleted file is 'deleted' even when binary; any other binary change is 'binary'. */
  status: DiffStatus;
  /** New-side changed lines, inclusive 1-based [start, end], sorted and merged. */
  ranges: Array<[number, number]>;
  /** New-side lines of each hunk, context included: where GitHub takes a review comment (right side). */
  hunks: Array<[number, number]>;
  added: number;
  removed: number;
  /**
   * Each run of removed lines, base-side numbered (the first REMOVED_CAPS.hunkLines of each kept, of a deleted
   * file the first REMOVED_CAPS.fileLines); none for a binary change.
   */
  removedLines: RemovedHunk[];
  /** The new (else old) file mode, e.g. '100644', '120000' (symlink), '160000' (submodule); null if not stated. */
  mode: string | null;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

interface Draft extends FileDiff {
  binary: boolean;
  renamed: boolean;
}

export function parseDiff(text: string): FileDiff[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const files: FileDiff[] = [];
  let cur: Draft | null = null;
  const finish = () => {
    if (cur) files.push(finalize(cur));
    cur = null;
  };

  for (let i = 0; i < lines.length; i++) {
    const line = stripCr(lines[i]!);
    if (line.startsWith('diff --git ')) {
      finish();
      const [a, b] = splitGitHeader(line.slice('diff --git '.length));
      cur = {
        oldPath: a,
        newPath: b,
        status: 'modified',
        ranges: [],
        hunks: [],
        added: 0,
        removed: 0,
        removedLines: [],
        mode: null,
        binary: false,
        renamed: false,
      };
      continue;
    }
    if (!cur) continue; // preamble (e.g. a patch's mail header) or "* Unmerged path" notes
    const c: Draft = cur;
    const hunk = HUNK.exec(line);
    if (hunk) {
      i = readHunk(lines, i, hunk, c);
      continue;
    }
    readHeader(line, c);
  }
  finish();
  return files;
}

/** One line of a file's extended header (paths, renames, modes, binary): what it says goes into the draft. */
function readHeader(line: string, c: Draft): void {
  if (line.startsWith('--- ')) c.oldPath = headerPath(line.slice(4), c.oldPath);
  else if (line.startsWith('+++ ')) c.newPath = headerPath(line.slice(4), c.newPath);
  else if (/^(rename|copy) from /.test(line)) {
    c.oldPath = unquote(line.slice(line.indexOf(' from ') + 6));
    c.renamed = true;
  } else if (/^(rename|copy) to /.test(line)) {
    c.newPath = unquote(line.slice(line.indexOf(' to ') + 4));
    c.renamed = true;
  } else if (line.startsWith('new file mode ')) {
    c.status = 'added';
    c.oldPath = null;
    c.mode = line.slice(14).trim();
  } else if (line.startsWith('deleted file mode ')) {
    c.status = 'deleted';
    c.newPath = null;
    c.mode = line.slice(18).trim();
  } else if (line.startsWith('new mode ')) c.mode = line.slice(9).trim();
  else if (line.startsWith('old mode ')) c.mode ??= line.slice(9).trim();
  else if (line.startsWith('index ')) c.mode ??= /^index \S+ (\d+)$/.exec(line)?.[1] ?? null;
  else if (/^Binary files .* differ$/.test(line) || line === 'GIT binary patch') c.binary = true;
}

/**
 * Reads a hunk's body by its counts, not by prefixes (a removed "-- x" line looks like a "--- " header).
 * Ranges come from the '+' lines, so context lines (as in `gh pr diff`) are not counted as changed; a run
 * of removals with no additions marks the line before it (at least 1). Returns the last line read.
 */
function readHunk(lines: string[], i: number, hunk: RegExpExecArray, c: Draft): number {
  let oldLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
  let newLeft = hunk[4] === undefined ? 1 : Number(hunk[4]);
  let next = Number(hunk[3]) + (newLeft === 0 ? 1 : 0); // new-side number of the next new line
  let base = Number(hunk[1]) + (oldLeft === 0 ? 1 : 0); // base-side number of the next old line
  if (newLeft > 0) c.hunks.push([next, next + newLeft - 1]);
  // A deleted file is one run: it keeps what a whole file may show (its callers are reviewed with it).
  const keep = c.status === 'deleted' ? REMOVED_CAPS.fileLines : REMOVED_CAPS.hunkLines;
  let blockAdds = 0;
  let blockDels = 0;
  let gone: RemovedHunk | null = null;
  const endBlock = () => {
    if (blockDels && !blockAdds) c.ranges.push([Math.max(next - 1, 1), Math.max(next - 1, 1)]);
    blockAdds = blockDels = 0;
    gone = null;
  };
  while ((oldLeft > 0 || newLeft > 0) && i + 1 < lines.length) {
    const tag = lines[i + 1]![0] ?? ' '; // an empty line is context whose space was trimmed
    if (tag === '+' && newLeft > 0) {
      c.ranges.push([next, next]);
      c.added++;
      blockAdds++;
      newLeft--;
      next++;
    } else if (tag === '-' && oldLeft > 0) {
      c.removed++;
      blockDels++;
      oldLeft--;
      if (!gone || gone.base + gone.lines.length + gone.omitted !== base) {
        gone = { base, before: next, lines: [], omitted: 0 };
        c.removedLines.push(gone);
      }
      if (gone.lines.length < keep) gone.lines.push(stripCr(lines[i + 1]!.slice(1)));
      else gone.omitted++;
      base++;
    } else if (tag === ' ' && oldLeft > 0 && newLeft > 0) {
      endBlock();
      base++;
      oldLeft--;
      newLeft--;
      next++;
    } else if (tag !== '\\') break; // a truncated hunk: the outer loop reads the line
    i++;
  }
  endBlock();
  return i;
}

function finalize(d: Draft): FileDiff {
  let status = d.status;
  if (status !== 'deleted' && status !== 'added' && d.renamed) status = 'renamed';
  if (d.binary && status !== 'deleted') status = 'binary';
  return {
    oldPath: d.oldPath,
    newPath: d.newPath,
    status,
    ranges: d.binary ? [] : mergeRanges(d.ranges),
    hunks: d.binary ? [] : d.hunks,
    added: d.added,
    removed: d.removed,
    removedLines: d.binary ? [] : d.removedLines,
    mode: d.mode,
  };
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

/** A `---`/`+++` path: /dev/null, or a prefixed path (git adds a tab after names with spaces). */
function headerPath(raw: string, fallback: string | null): string | null {
  const s = raw.endsWith('\t') ? raw.slice(0, -1) : raw;
  if (s === '/dev/null') return null;
  const path = unquote(s);
  return stripPrefix(path) ?? fallback;
}

function stripPrefix(path: string): string | null {
  return /^[a-z]\//.test(path) ? path.slice(2) : null;
}

/**
 * The two paths of `diff --git a/X b/Y`. Unquoted names may hold spaces, so the split is ambiguous in
 * general; X and Y are equal unless renamed, and renames state their paths again in `rename from/to`.
 */
function splitGitHeader(rest: string): [string | null, string | null] {
  if (rest.startsWith('"')) {
    const [a, after] = readQuoted(rest);
    const b = after.trimStart();
    return [stripPrefix(a), stripPrefix(b.startsWith('"') ? readQuoted(b)[0] : b)];
  }
  if (rest.endsWith('"')) {
    const open = rest.lastIndexOf(' "');
    return [stripPrefix(rest.slice(0, open)), stripPrefix(readQuoted(rest.slice(open + 1))[0])];
  }
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest[half] === ' ' && rest.slice(2, half) === rest.slice(half + 3)) {
    return [stripPrefix(rest.slice(0, half)), stripPrefix(rest.slice(half + 1))];
  }
  const cut = rest.indexOf(' b/');
  return cut < 0 ? [null, null] : [stripPrefix(rest.slice(0, cut)), stripPrefix(rest.slice(cut + 1))];
}

function unquote(s: string): string {
  return s.startsWith('"') ? readQuoted(s)[0] : s;
}

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** A C-style quoted name as git writes it (octal escapes are UTF-8 bytes); returns it and the text after. */
function readQuoted(s: string): [string, string] {
  const bytes: number[] = [];
  let i = 1;
  for (; i < s.length && s[i] !== '"'; i++) {
    if (s[i] !== '\\') {
      const ch = String.fromCodePoint(s.codePointAt(i)!);
      bytes.push(...Buffer.from(ch, 'utf8'));
      i += ch.length - 1;
      continue;
    }
    const octal = /^[0-7]{3}/.exec(s.slice(++i));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += 2;
    } else bytes.push(ESCAPES[s[i] ?? '\\'] ?? s.charCodeAt(i));
  }
  return [Buffer.from(bytes).toString('utf8'), s.slice(i + 1)];
}
