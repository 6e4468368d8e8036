/**
 * Project context files — the project's own conventions (CLAUDE.md, AGENTS.md, Copilot instructions, and
 * any the user names) — read once and shared as the first, cached part of every sub-agent call. They are
 * read under the same rule as the code (ReviewAccess): a CLAUDE.md that is a link out of the working
 * folder, a pipe, or a file holding a secret is never sent.
 */
import { resolve } from 'node:path';
import type { ContextFile } from '../model/records';
import { AccessDenied } from '../model/access';
import { ReviewAccess } from './access';
import { displayPath, ScopeError } from './inventory';

export const DEFAULT_CONTEXT_FILES = ['CLAUDE.md', 'AGENTS.md', '.github/copilot-instructions.md'];
/** Beyond this a context file is cut: conventions that long are rarely read whole by anyone. */
const MAX_CONTEXT_CHARS = 40_000;
/** Context files are conventions, not code: a larger one is cut anyway, so it may be read up to this. */
const MAX_CONTEXT_BYTES = 1 << 20;

/** The defaults found in `cwd`, then `extra` (which must exist and be readable). */
export async function loadContextFiles(cwd: string, extra: string[] = []): Promise<ContextFile[]> {
  // The working folder is a root; so is each file the user names (which may lie elsewhere, by choice).
  const access = await ReviewAccess.open({ cwd, roots: ['.', ...extra], maxBytes: MAX_CONTEXT_BYTES, named: true });
  const files: ContextFile[] = [];
  const seen = new Set<string>();
  const add = async (path: string, required: boolean) => {
    const shown = displayPath(cwd, resolve(cwd, path));
    if (seen.has(shown)) return;
    let text: string;
    try {
      text = await access.read(path);
    } catch (err) {
      if (!(err instanceof AccessDenied)) throw err;
      if (required) throw new ScopeError(`context file ${err.message}`);
      // A default that is missing is simply not there; one that exists but is refused is worth a word.
      if (/does not exist$/.test(err.message)) return;
      throw new ScopeError(`context file ${err.message}; remove it or exclude it from the project`);
    }
    if (text.length > MAX_CONTEXT_CHARS)
      text = `${text.slice(0, MAX_CONTEXT_CHARS)}\n[… cut at ${MAX_CONTEXT_CHARS} characters]`;
    seen.add(shown);
    files.push({ path: shown, text });
  };
  for (const p of DEFAULT_CONTEXT_FILES) await add(p, false);
  for (const p of extra) await add(p, true);
  return files;
}
