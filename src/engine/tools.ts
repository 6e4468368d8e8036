/**
 * The sub-agents' read-only tools. Every path resolves inside the review roots: no absolute paths,
 * no `..`, no symlink that leads out, no secrets files. Nothing here writes or executes.
 */
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import type Anthropic from '@anthropic-ai/sdk';
import { isSecretFile } from '../model/secrets';
import { numberLines } from './source';
import { splitLines } from '../model/lines';

export interface ToolContext {
  /** Where relative paths start (the working directory of the run). */
  cwd: string;
  /** Absolute, real paths of the review roots. */
  roots: string[];
}

export interface ToolOutcome {
  content: string;
  is_error: boolean;
}

const MAX_READ_LINES = 400;
const MAX_GREP_HITS = 100;
const MAX_GREP_FILES = 5000;
const MAX_FILE_BYTES = 1 << 20;
const SKIP_DIRS = new Set(['.git', 'node_modules', '.hg', '.svn']);
/**
 * The grep pattern comes from a model, which the code under review may have talked into anything: a
 * quantified group that itself repeats ("(a+)+", "(.*x)*") or a backreference can backtrack for minutes and
 * would stall the whole review thread. Such patterns are refused, with a message the model can act on.
 */
const NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*(?:[+*]|\{\d+,?\d*\})(?:[^()\\]|\\.)*\)\s*(?:[+*]|\{\d+,?\d*\})/;
const BACKREFERENCE = /\\[1-9]|\\k</;

const ReadFileInput = z.object({ path: z.string(), start_line: z.number().int().min(1).optional(), end_line: z.number().int().min(1).optional() });
const GrepInput = z.object({ pattern: z.string().min(1).max(500), glob: z.string().optional() });
const ListDirInput = z.object({ path: z.string() });

export const TOOL_DEFINITIONS: Anthropic.Messages.Tool[] = [
  {
    name: 'read_file',
    description: `Read lines of a file inside the review roots (path relative to the working directory). At most ${MAX_READ_LINES} lines per call; lines come numbered.`,
    input_schema: {
      type: 'object',
      properties: { path: { type: 'string' }, start_line: { type: 'integer', minimum: 1 }, end_line: { type: 'integer', minimum: 1 } },
      required: ['path'],
    },
  },
  {
    name: 'grep',
    description: `Search files inside the review roots for a regular expression; optional glob filter (e.g. "src/**/*.ts"). At most ${MAX_GREP_HITS} matching lines.`,
    input_schema: { type: 'object', properties: { pattern: { type: 'string' }, glob: { type: 'string' } }, required: ['pattern'] },
  },
  {
    name: 'list_dir',
    description: 'List a folder inside the review roots (path relative to the working directory; "." for the working directory). Folders end with "/".',
    input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
];

export async function runTool(name: string, input: unknown, ctx: ToolContext): Promise<ToolOutcome> {
  try {
    switch (name) {
      case 'read_file':
        return ok(await readFileTool(ReadFileInput.parse(input), ctx));
      case 'grep':
        return ok(await grepTool(GrepInput.parse(input), ctx));
      case 'list_dir':
        return ok(await listDirTool(ListDirInput.parse(input), ctx));
      default:
        return { content: `unknown tool "${name}"; available: read_file, grep, list_dir`, is_error: true };
    }
  } catch (err) {
    const message = err instanceof z.ZodError ? `bad input: ${err.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` : (err as Error).message;
    return { content: message, is_error: true };
  }
}

const ok = (content: string): ToolOutcome => ({ content, is_error: false });

/** Resolves a model-given path to a real path inside a review root, or throws saying why not. */
export async function confine(path: string, ctx: ToolContext): Promise<string> {
  if (isAbsolute(path) || path.split(/[\\/]/).includes('..')) throw new Error(`"${path}": use a path relative to the working directory, without ".."`);
  if (isSecretFile(path)) throw new Error(`"${path}" may hold secrets and is not readable`);
  let real: string;
  try {
    real = await realpath(resolve(ctx.cwd, path));
  } catch {
    throw new Error(`"${path}" does not exist`);
  }
  if (!ctx.roots.some((root) => real === root || real.startsWith(root + sep))) throw new Error(`"${path}" is outside the review roots`);
  // A symlink with an innocent name may resolve to a secrets file.
  if (isSecretFile(real)) throw new Error(`"${path}" may hold secrets and is not readable`);
  return real;
}

async function readFileTool(input: z.infer<typeof ReadFileInput>, ctx: ToolContext): Promise<string> {
  const real = await confine(input.path, ctx);
  if ((await stat(real)).size > MAX_FILE_BYTES) throw new Error(`"${input.path}" is larger than 1 MiB`);
  const lines = splitLines(await readFile(real, 'utf8'));
  const start = input.start_line ?? 1;
  if (input.end_line !== undefined && input.end_line < start) throw new Error(`end_line ${input.end_line} is before start_line ${start}`);
  const end = Math.min(input.end_line ?? start + MAX_READ_LINES - 1, start + MAX_READ_LINES - 1, lines.length);
  if (start > lines.length) throw new Error(`"${input.path}" has ${lines.length} lines`);
  return numberLines(lines.slice(start - 1, end), start);
}

async function listDirTool(input: z.infer<typeof ListDirInput>, ctx: ToolContext): Promise<string> {
  const real = await confine(input.path, ctx);
  const entries = await readdir(real, { withFileTypes: true });
  return entries
    .filter((e) => !isSecretFile(e.name))
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
    .sort()
    .join('\n');
}

async function grepTool(input: z.infer<typeof GrepInput>, ctx: ToolContext): Promise<string> {
  if (NESTED_QUANTIFIER.test(input.pattern) || BACKREFERENCE.test(input.pattern)) {
    throw new Error('pattern refused: nested quantifiers and backreferences can run for minutes; search for a plainer pattern');
  }
  let re: RegExp;
  try {
    re = new RegExp(input.pattern);
  } catch (err) {
    throw new Error(`bad pattern: ${(err as Error).message}`);
  }
  // A glob without a slash ("*.ts") matches file names at any depth, as in ripgrep.
  const matchGlob = input.glob ? picomatch(input.glob.includes('/') ? input.glob : `**/${input.glob}`, { dot: true }) : () => true;
  const hits: string[] = [];
  let files = 0;
  for (const root of ctx.roots) {
    // A review root may be a single file.
    const candidates = (await stat(root).catch(() => null))?.isFile() ? [root] : walk(root);
    for await (const file of candidates) {
      const rel = relative(ctx.cwd, file).split(sep).join('/');
      if (isSecretFile(file) || !matchGlob(rel)) continue;
      if (++files > MAX_GREP_FILES || hits.length >= MAX_GREP_HITS) return finish(hits, true);
      const st = await stat(file);
      if (st.size > MAX_FILE_BYTES) continue;
      const text = await readFile(file, 'utf8');
      if (text.includes('\u0000')) continue;
      splitLines(text).forEach((l, i) => {
        if (hits.length < MAX_GREP_HITS && l.length <= 2000 && re.test(l)) hits.push(`${rel}:${i + 1}: ${l}`);
      });
    }
  }
  return finish(hits, hits.length >= MAX_GREP_HITS);
}

function finish(hits: string[], truncated: boolean): string {
  if (hits.length === 0) return 'no matches';
  return hits.join('\n') + (truncated ? '\n(results truncated)' : '');
}

/** Regular files below `dir`, without following symlinks (a linked folder could lead out of the root). */
async function* walk(dir: string): AsyncGenerator<string> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    if (e.isDirectory() && !SKIP_DIRS.has(e.name)) yield* walk(join(dir, e.name));
    else if (e.isFile()) yield join(dir, e.name);
  }
}
