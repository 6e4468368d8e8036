/**
 * Where Skeptic keeps a repository's state by default: a per-user cache folder keyed by the repository
 * (its git top folder, else the folder reviewed), so the CLI and the extension share one result cache for
 * the same repository and nothing is written into the work tree. It also remembers every output Skeptic
 * wrote there (reports, --json, --sarif, --events), so that none of them is ever reviewed as source.
 */
import { createHash } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { gitToplevel } from '../scope/git';
import { userCacheRoot } from '../io/userCache';
import { readOwnFile } from '../io/regularFile';
import { withFileLock } from '../io/fileLock';
import { ensureFolder, replaceFile } from '../io/safeWrite';

/** `<user cache>/skeptic/<name>-<hash of the repository's real path>`. */
export async function repositoryStateDir(cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const root = await realpath((await gitToplevel(cwd)) ?? cwd).catch(() => resolve(cwd));
  const id = createHash('sha256').update(root).digest('hex').slice(0, 16);
  return join(userCacheRoot(env), 'skeptic', `${basename(root) || 'root'}-${id}`);
}

export const resultsDir = (stateDir: string) => join(stateDir, 'results');
/** What endpoints refused (engine/endpointMemory.ts): the user's, beside every repository's state folder. */
export const endpointMemoryFile = (stateDir: string) => join(dirname(stateDir), 'endpoints.json');
/** The Message Batches a run left running, for the next run to collect (src/engine/batchLedger.ts). */
export const batchLedgerFile = (stateDir: string) => join(stateDir, 'batches.json');

/**
 * What Step 0 learns about file contents (scope/facts.ts): beside every repository's state folder, one for
 * all of them, as it is keyed by content alone.
 */
export const factsDirOf = (stateDir: string) => join(dirname(stateDir), 'step0');
/** The repository's scopes as Step 0 last found them (scope/inventorySnapshot.ts). */
export const keptScopesDir = (stateDir: string) => join(stateDir, 'step0');

const OUTPUTS_FILE = 'outputs.json';
const Outputs = z.array(z.string());
/** Skeptic's own records are small: anything larger is not one of them, and is ignored. */
export const MAX_STATE_FILE_BYTES = 4 << 20;

/** Absolute paths of what Skeptic wrote for this repository; [] when none is recorded (or the record is unreadable). */
export async function knownOutputs(stateDir: string): Promise<string[]> {
  try {
    const text = await readOwnFile(join(stateDir, OUTPUTS_FILE), MAX_STATE_FILE_BYTES);
    const parsed = text === null ? null : Outputs.safeParse(JSON.parse(text));
    return parsed?.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/**
 * Adds written outputs to the record: under a lock, so two runs finishing at once both get theirs in, and
 * as a whole-file replace, so a reader never sees half of it.
 */
export async function recordOutputs(stateDir: string, paths: string[]): Promise<void> {
  await ensureFolder(stateDir);
  await withFileLock(join(stateDir, `${OUTPUTS_FILE}.lock`), async () => {
    const all = [...new Set([...(await knownOutputs(stateDir)), ...paths.map((p) => resolve(p))])].sort();
    await replaceFile(join(stateDir, OUTPUTS_FILE), JSON.stringify(all, null, 2));
  });
}

/** The recorded outputs inside `cwd`, as cwd-relative paths with forward slashes (the inventory's form). */
export function outputsUnder(cwd: string, outputs: string[]): Set<string> {
  return new Set(
    outputs
      .map((p) => relative(cwd, p))
      .filter((p) => p && !p.startsWith('..') && !isAbsolute(p))
      .map((p) => p.split(sep).join('/')),
  );
}
