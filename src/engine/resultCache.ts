/**
 * Finished sub-agent records on disk, keyed by a hash of everything that decides the answer: the version of
 * the prompt files, model, system prompt, record schema, effort and the whole user turn (project context,
 * the file and its companion, the packet). Re-reviewing unchanged code costs no calls, and a run that was interrupted resumes: every unit
 * it finished is written here the moment it is accepted.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Bump when the cached shape or the key's ingredients change meaning. */
const FORMAT = 1;

export class ResultCache {
  constructor(private readonly dir: string) {}

  static key(parts: object): string {
    return createHash('sha256').update(JSON.stringify({ format: FORMAT, ...parts })).digest('hex');
  }

  /** The stored value, or undefined on a miss or an unreadable entry (which then simply gets recomputed). */
  async get(key: string): Promise<unknown> {
    try {
      return JSON.parse(await readFile(this.path(key), 'utf8')) as unknown;
    } catch {
      return undefined;
    }
  }

  /** Written whole or not at all: a reader never sees half an entry. */
  async put(key: string, value: unknown): Promise<void> {
    const path = this.path(key);
    await mkdir(join(this.dir, key.slice(0, 2)), { recursive: true });
    const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(tmp, JSON.stringify(value));
    await rename(tmp, path);
  }

  private path(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }
}
