/**
 * Project context files — the project's own conventions (CLAUDE.md, AGENTS.md, Copilot instructions, and
 * any the user names) — read once and shared as the first, cached part of every sub-agent call.
 */
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ContextFile } from '../model/records';
import { displayPath, ScopeError } from './inventory';
import { isSecretFile } from '../model/secrets';

export const DEFAULT_CONTEXT_FILES = ['CLAUDE.md', 'AGENTS.md', '.github/copilot-instructions.md'];
/** Beyond this a context file is cut: conventions that long are rarely read whole by anyone. */
const MAX_CONTEXT_CHARS = 40_000;

/** The defaults found in `cwd`, then `extra` (which must exist). */
export async function loadContextFiles(cwd: string, extra: string[] = []): Promise<ContextFile[]> {
  const files: ContextFile[] = [];
  const seen = new Set<string>();
  const add = async (path: string, required: boolean) => {
    const abs = resolve(cwd, path);
    const shown = displayPath(cwd, abs);
    if (seen.has(shown)) return;
    if (isSecretFile(abs)) throw new ScopeError(`context file ${path} may hold secrets; it is not sent`);
    const st = await stat(abs).catch(() => null);
    if (!st?.isFile()) {
      if (required) throw new ScopeError(`context file not found: ${path}`);
      return;
    }
    let text = await readFile(abs, 'utf8');
    if (text.length > MAX_CONTEXT_CHARS) text = `${text.slice(0, MAX_CONTEXT_CHARS)}\n[… cut at ${MAX_CONTEXT_CHARS} characters]`;
    seen.add(shown);
    files.push({ path: shown, text });
  };
  for (const p of DEFAULT_CONTEXT_FILES) await add(p, false);
  for (const p of extra) await add(p, true);
  return files;
}
