/**
 * The sub-agents' read-only tools. What they may see is decided by the run's FileAccess — the same rule
 * Step 0 applied (real path inside a review root, a regular file, not excluded) — and each call is bounded:
 * a path must be plainly relative, a search runs on a linear-time regex engine under a time limit, and
 * every answer is capped in size. Nothing here writes or executes.
 */
import picomatch from 'picomatch';
import { RE2JS } from 're2js';
import { z } from 'zod';
import type Anthropic from '@anthropic-ai/sdk';
import type { FileAccess } from '../model/access';
import { splitLines } from '../model/lines';
import { numberLines } from './source';

export interface ToolOutcome {
  content: string;
  is_error: boolean;
}

const MAX_READ_LINES = 400;
const MAX_GREP_HITS = 100;
const MAX_GREP_FILES = 5000;
/** A search that has not finished by then returns what it found: a tool call never holds up a unit for long. */
const GREP_TIME_LIMIT_MS = 5000;
/** Longer lines are matched on their first this-many characters: the work per line stays bounded. */
const MATCH_LINE_CHARS = 2000;
/** Counted repetitions (`.{1000}`) multiply RE2's work per character: their product is capped. */
const MAX_PATTERN_REPEATS = 1000;
/** A search gives the event loop a turn this often (signals, other units' requests). */
const YIELD_EVERY_MS = 20;
/** Longer lines are shown cut (a minified line would otherwise fill the answer). */
const MAX_LINE_CHARS = 300;
/** One tool answer, whatever the tool: the request that carries it back stays small. */
export const MAX_TOOL_OUTPUT = 20_000;

const ReadFileInput = z.object({
  path: z.string(),
  start_line: z.number().int().min(1).optional(),
  end_line: z.number().int().min(1).optional(),
});
const GrepInput = z.object({ pattern: z.string().min(1).max(500), glob: z.string().max(500).optional() });
const ListDirInput = z.object({ path: z.string() });

export const TOOL_DEFINITIONS: Anthropic.Messages.Tool[] = [
  {
    name: 'read_file',
    description: `Read lines of a file inside the review roots (path relative to the working directory). At most ${MAX_READ_LINES} lines per call; lines come numbered.`,
    input_schema: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        start_line: { type: 'integer', minimum: 1 },
        end_line: { type: 'integer', minimum: 1 },
      },
      required: ['path'],
    },
  },
  {
    name: 'grep',
    description: `Search files inside the review roots for a regular expression; optional glob filter (e.g. "src/**/*.ts"). At most ${MAX_GREP_HITS} matching lines.`,
    input_schema: {
      type: 'object',
      properties: { pattern: { type: 'string' }, glob: { type: 'string' } },
      required: ['pattern'],
    },
  },
  {
    name: 'list_dir',
    description:
      'List a folder inside the review roots (path relative to the working directory; "." for the working directory). Folders end with "/".',
    input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
];

/** `signal` stops a search between files when the run is cancelled. */
export async function runTool(
  name: string,
  input: unknown,
  access: FileAccess,
  signal?: AbortSignal,
): Promise<ToolOutcome> {
  try {
    switch (name) {
      case 'read_file':
        return ok(await readFileTool(ReadFileInput.parse(input), access));
      case 'grep':
        return ok(await grepTool(GrepInput.parse(input), access, signal));
      case 'list_dir':
        return ok(await listDirTool(ListDirInput.parse(input), access));
      default:
        return { content: `unknown tool "${name}"; available: read_file, grep, list_dir`, is_error: true };
    }
  } catch (err) {
    const message =
      err instanceof z.ZodError
        ? `bad input: ${err.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`
        : (err as Error).message;
    return { content: cap(message), is_error: true };
  }
}

const ok = (content: string): ToolOutcome => ({ content: cap(content), is_error: false });

function cap(text: string): string {
  return text.length <= MAX_TOOL_OUTPUT
    ? text
    : `${text.slice(0, MAX_TOOL_OUTPUT)}\n(cut at ${MAX_TOOL_OUTPUT} characters; ask for fewer lines)`;
}

/**
 * A model-given path must be plainly relative to the working directory. FileAccess would refuse anything
 * outside the roots anyway; this says so up front, in words the model can act on.
 */
export function checkToolPath(path: string): string {
  if (path === '' || path.includes('\0')) throw new Error(`"${path.replace(/\0/g, '\\0')}": not a usable path`);
  if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('/') || path.startsWith('\\') || path.startsWith('~')) {
    throw new Error(`"${path}": use a path relative to the working directory, without ".."`);
  }
  if (path.split(/[\\/]/).includes('..'))
    throw new Error(`"${path}": use a path relative to the working directory, without ".."`);
  return path.replace(/\\/g, '/');
}

async function readFileTool(input: z.infer<typeof ReadFileInput>, access: FileAccess): Promise<string> {
  const lines = splitLines(await access.read(checkToolPath(input.path)));
  const start = input.start_line ?? 1;
  if (input.end_line !== undefined && input.end_line < start)
    throw new Error(`end_line ${input.end_line} is before start_line ${start}`);
  const end = Math.min(input.end_line ?? start + MAX_READ_LINES - 1, start + MAX_READ_LINES - 1, lines.length);
  if (start > lines.length) throw new Error(`"${input.path}" has ${lines.length} lines`);
  return numberLines(lines.slice(start - 1, end), start);
}

async function listDirTool(input: z.infer<typeof ListDirInput>, access: FileAccess): Promise<string> {
  return (await access.list(checkToolPath(input.path))).join('\n');
}

/** RE2 syntax: no backreferences or lookaround, and matching time grows linearly with the input. */
function compilePattern(pattern: string): (line: string) => boolean {
  // RE2 is linear in the line, but its cost per character grows with the pattern's counted repetitions.
  const repeats = [...pattern.matchAll(/\{(\d+)(?:,(\d*))?\}/g)].reduce(
    (n, m) => n * Math.max(1, Number(m[2] || m[1])),
    1,
  );
  if (repeats > MAX_PATTERN_REPEATS)
    throw new Error(`bad pattern: its counted repetitions ({n}) multiply to more than ${MAX_PATTERN_REPEATS}`);
  try {
    const re = RE2JS.compile(pattern);
    return (line) => re.matcher(line).find();
  } catch (err) {
    throw new Error(`bad pattern: ${(err as Error).message} (RE2 syntax: no backreferences or lookaround)`);
  }
}

async function grepTool(input: z.infer<typeof GrepInput>, access: FileAccess, signal?: AbortSignal): Promise<string> {
  const matches = compilePattern(input.pattern);
  // A glob without a slash ("*.ts") matches file names at any depth, as in ripgrep.
  const matchGlob = input.glob
    ? picomatch(input.glob.includes('/') ? input.glob : `**/${input.glob}`, { dot: true })
    : () => true;
  const deadline = Date.now() + GREP_TIME_LIMIT_MS;
  const stopped = `search stopped after ${GREP_TIME_LIMIT_MS / 1000} s; narrow it with a glob`;
  const hits: string[] = [];
  let files = 0;
  let cut = false;
  let turn = Date.now();
  const noted = (note: string | null) =>
    [note, cut ? `lines over ${MATCH_LINE_CHARS} characters were searched in their first ${MATCH_LINE_CHARS}` : null]
      .filter(Boolean)
      .join('; ') || null;
  for await (const file of access.files()) {
    if (!matchGlob(file)) continue;
    if (signal?.aborted) break;
    if (++files > MAX_GREP_FILES || hits.length >= MAX_GREP_HITS) return finish(hits, noted('results truncated'));
    if (Date.now() > deadline) return finish(hits, noted(stopped));
    const text = await access.read(file).catch(() => null);
    if (text === null) continue;
    for (const [i, line] of splitLines(text).entries()) {
      // The work per line is bounded (a cut line, a bounded pattern), the clock is read after each, and the
      // event loop gets a turn every few milliseconds: a signal or a concurrent request never waits on a search.
      if (Date.now() - turn > YIELD_EVERY_MS) {
        await new Promise((resume) => setImmediate(resume));
        turn = Date.now();
        if (signal?.aborted) return finish(hits, noted('search cancelled'));
      }
      if (Date.now() > deadline) return finish(hits, noted(stopped));
      if (line.length > MATCH_LINE_CHARS) cut = true;
      if (!matches(line.length > MATCH_LINE_CHARS ? line.slice(0, MATCH_LINE_CHARS) : line)) continue;
      hits.push(`${file}:${i + 1}: ${line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line}`);
      if (hits.length >= MAX_GREP_HITS) break;
    }
  }
  return finish(hits, noted(hits.length >= MAX_GREP_HITS ? 'results truncated' : null));
}

function finish(hits: string[], note: string | null): string {
  if (hits.length === 0) return note ? `no matches (${note})` : 'no matches';
  return hits.join('\n') + (note ? `\n(${note})` : '');
}
