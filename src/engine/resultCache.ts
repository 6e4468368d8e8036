/**
 * Finished sub-agent records on disk, keyed by a hash of everything that decides the answer: the version of
 * the prompt files, model, system prompt, record schema, effort and the whole user turn (project context,
 * the file and its companion, the packet). Re-reviewing unchanged code costs no calls, and a run that was interrupted resumes: every unit
 * it finished is written here the moment it is accepted.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Bump when the cached shape or the key's ingredients change meaning. */
const FORMAT = 1;
/** A temp file this old was left by a run that died between write and rename (kill -9): nobody will rename it. */
const STALE_TMP_MS = 10 * 60_000;

export class ResultCache {
  constructor(private readonly dir: string) {}

  /**
   * Checks before the first call that `dir` is (or can be made) a writable folder, and clears temp files
   * that killed runs left behind. Throws an error that says what is wrong with the folder.
   */
  static async prepare(dir: string): Promise<void> {
    try {
      await mkdir(dir, { recursive: true });
      const probe = join(dir, `.probe.${process.pid}.tmp`);
      await writeFile(probe, '');
      await rm(probe);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const why =
        code === 'EEXIST' || code === 'ENOTDIR'
          ? 'a file is in the way'
          : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
            ? 'it is not writable'
            : (code ?? (err as Error).message);
      throw new Error(`--cache-dir ${dir} cannot be used: ${why}`);
    }
    const shards = await readdir(dir, { withFileTypes: true });
    for (const shard of shards.filter((d) => d.isDirectory() && /^[0-9a-f]{2}$/.test(d.name))) {
      for (const name of await readdir(join(dir, shard.name)).catch(() => [])) {
        const file = join(dir, shard.name, name);
        if (
          name.endsWith('.tmp') &&
          Date.now() - ((await stat(file).catch(() => null))?.mtimeMs ?? Date.now()) > STALE_TMP_MS
        )
          await rm(file, { force: true });
      }
    }
  }

  static key(parts: object): string {
    return createHash('sha256')
      .update(JSON.stringify({ format: FORMAT, ...parts }))
      .digest('hex');
  }

  /** The stored value, or undefined on a miss or an unreadable entry (which then simply gets recomputed). */
  async get(key: string): Promise<unknown> {
    try {
      return JSON.parse(await readFile(this.path(key), 'utf8')) as unknown;
    } catch {
      return undefined;
    }
  }

  /**
   * Written whole or not at all: a reader never sees half an entry. Best effort: an entry that cannot be
   * written (something in its way) only means the next run asks again; the review's result is not at stake.
   */
  async put(key: string, value: unknown): Promise<void> {
    const path = this.path(key);
    const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
    try {
      await mkdir(join(this.dir, key.slice(0, 2)), { recursive: true });
      await writeFile(tmp, JSON.stringify(value));
      await rename(tmp, path);
    } catch {
      await rm(tmp, { force: true }).catch(() => undefined);
    }
  }

  private path(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }
}
