/**
 * Project context files — the project's own conventions (CLAUDE.md, AGENTS.md, Copilot instructions, and
 * any the user names) — read once and shared as the first, cached part of every sub-agent call. They are
 * read under the same rule as the code (ReviewAccess): a CLAUDE.md that is a link out of the working
 * folder or into `.git`, a pipe, an excluded file or one holding a secret is never sent.
 */
import { resolve } from 'node:path';
import type { ContextFile } from '../model/records';
import { AccessDenied } from '../model/access';
import { ReviewAccess } from './access';
import { capText } from '../model/lines';
import { displayPath } from './inventory';

export const DEFAULT_CONTEXT_FILES = ['CLAUDE.md', 'AGENTS.md', '.github/copilot-instructions.md'];
/** Beyond this a context file is cut: conventions that long are rarely read whole by anyone. */
const MAX_CONTEXT_CHARS = 40_000;
/** Context files are conventions, not code: a larger one is cut anyway, so it may be read up to this. */
const MAX_CONTEXT_BYTES = 1 << 20;

export interface LoadedContext {
  files: ContextFile[];
  /** One line per context file that exists (or was named) but is not sent, and why. */
  warnings: string[];
}

/**
 * The defaults found in `cwd`, then `extra`. A file the rule refuses (a link out of the folder or into
 * `.git`, a secret, an excluded or unreadable file) is skipped with a warning, never fatal: a committed
 * `CLAUDE.md -> .env` must neither reach a request nor stop every review of the repository.
 */
export async function loadContextFiles(
  cwd: string,
  extra: string[] = [],
  excludes: string[] = [],
): Promise<LoadedContext> {
  // The working folder is a root; so is each file the user names (which may lie elsewhere, by choice).
  const access = await ReviewAccess.open({
    cwd,
    roots: ['.', ...extra],
    excludes,
    maxBytes: MAX_CONTEXT_BYTES,
    named: true,
  });
  const files: ContextFile[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  const add = async (path: string, required: boolean) => {
    const shown = displayPath(cwd, resolve(cwd, path));
    if (seen.has(shown)) return;
    seen.add(shown);
    let text: string;
    try {
      text = await access.read(path);
    } catch (err) {
      if (!(err instanceof AccessDenied)) throw err;
      // A default that is missing is simply not there; one that exists but is refused is worth a word.
      if (!required && err.missing) return;
      warnings.push(`context file ${err.message}; it is not sent`);
      return;
    }
    files.push({ path: shown, text: capText(text, MAX_CONTEXT_CHARS) });
  };
  for (const p of DEFAULT_CONTEXT_FILES) await add(p, false);
  for (const p of extra) await add(p, true);
  return { files, warnings };
}
