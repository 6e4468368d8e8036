/**
 * Where Skeptic keeps a repository's state by default: a per-user cache folder keyed by the repository
 * (its git top folder, else the folder reviewed), so the CLI and the extension share one result cache for
 * the same repository and nothing is written into the work tree. It also remembers every output Skeptic
 * wrote there (reports, --json, --sarif, --events), so that none of them is ever reviewed as source.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, realpath, rename, writeFile } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { gitToplevel } from '../scope/git';
import { userCacheRoot } from '../io/userCache';

/** `<user cache>/skeptic/<name>-<hash of the repository's real path>`. */
export async function repositoryStateDir(cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const root = await realpath((await gitToplevel(cwd)) ?? cwd).catch(() => resolve(cwd));
  const id = createHash('sha256').update(root).digest('hex').slice(0, 16);
  return join(userCacheRoot(env), 'skeptic', `${basename(root) || 'root'}-${id}`);
}

export const resultsDir = (stateDir: string) => join(stateDir, 'results');

const OUTPUTS_FILE = 'outputs.json';
const Outputs = z.array(z.string());

/** Absolute paths of what Skeptic wrote for this repository; [] when none is recorded (or the record is unreadable). */
export async function knownOutputs(stateDir: string): Promise<string[]> {
  try {
    const parsed = Outputs.safeParse(JSON.parse(await readFile(join(stateDir, OUTPUTS_FILE), 'utf8')));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** Adds written outputs to the record (whole-file replace, so a reader never sees half of it). */
export async function recordOutputs(stateDir: string, paths: string[]): Promise<void> {
  const all = [...new Set([...(await knownOutputs(stateDir)), ...paths.map((p) => resolve(p))])].sort();
  await mkdir(stateDir, { recursive: true });
  const tmp = join(stateDir, `${OUTPUTS_FILE}.${process.pid}.tmp`);
  await writeFile(tmp, JSON.stringify(all, null, 2));
  await rename(tmp, join(stateDir, OUTPUTS_FILE));
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
