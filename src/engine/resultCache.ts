/**
 * Finished sub-agent records on disk, keyed by a hash of everything that decides the answer: the version of
 * the prompt files, model, system prompt, record schema, effort and the whole user turn (project context,
 * the file and its companion, the packet). Re-reviewing unchanged code costs no calls, and a run that was interrupted resumes: every unit
 * it finished is written here the moment it is accepted.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { readOwnFile, RefusedRead } from '../io/regularFile';
import { createNew, replaceFile } from '../io/safeWrite';
import { join } from 'node:path';

/** Bump when the cached shape or the key's ingredients change meaning. 2: each entry names its own key. */
const FORMAT = 2;
/** A finished unit's record is a few kilobytes: an entry far larger is not one Skeptic wrote. */
const MAX_ENTRY_BYTES = 4 << 20;
/** A temp file this old was left by a run that died between write and rename (kill -9): nobody will rename it. */
const STALE_TMP_MS = 10 * 60_000;
/** A shard folder's name: the first two hex digits of its entries' keys. */
const SHARD = /^[0-9a-f]{2}$/;

export class ResultCache {
  /** Per shard folder, the entries it held when first looked at (a snapshot reader's); null: it could not be listed. */
  private readonly listings = new Map<string, Promise<Set<string> | null>>();

  /**
   * `warn` hears of an entry that is not a regular file (a pipe, a link): it is ignored, as a miss. A
   * `snapshot` reader (the estimate's forecast, which writes nothing) lists each shard folder once and takes
   * a key missing from it as a miss without opening anything: on a large tree most keys miss, and a failed
   * open per key cost more than the rest of the forecast.
   */
  constructor(
    private readonly dir: string,
    private readonly warn: (message: string) => void = () => {},
    private readonly snapshot = false,
  ) {}

  /**
   * Checks before the first call that `dir` is (or can be made) a writable folder, and clears temp files
   * that killed runs left behind. Throws an error that says what is wrong with the folder.
   */
  static async prepare(dir: string): Promise<void> {
    try {
      await mkdir(dir, { recursive: true });
      const probe = join(dir, `.probe.${process.pid}.${Date.now()}.tmp`);
      await createNew(probe, '');
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
    for (const shard of shards.filter((d) => d.isDirectory() && SHARD.test(d.name))) {
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

  /**
   * The stored value, or undefined on a miss or an unreadable entry (which then simply gets recomputed). An
   * entry answers only for the key it was written under: one copied or planted under another name is a miss.
   */
  async get(key: string): Promise<unknown> {
    if (this.snapshot && !listedOrUnknown(await this.listing(key.slice(0, 2)), key)) return undefined;
    let text: string | null;
    try {
      text = await readOwnFile(this.path(key), MAX_ENTRY_BYTES);
    } catch (err) {
      if (err instanceof RefusedRead && err.why !== 'oversized' && err.why !== 'unreadable')
        this.warn(`result cache entry ${this.path(key)} ${err.message}; it is ignored`);
      return undefined;
    }
    try {
      const entry = text === null ? null : (JSON.parse(text) as { key?: unknown; value?: unknown } | null);
      return entry?.key === key ? entry.value : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Written whole or not at all: a reader never sees half an entry, and nothing is written through a link or
   * outside the cache folder. Best effort: an entry that cannot be written (something in its way) only means
   * the next run asks again; the review's result is not at stake.
   */
  async put(key: string, value: unknown): Promise<void> {
    await replaceFile(this.path(key), JSON.stringify({ key, value }), { root: this.dir }).catch(() => undefined);
  }

  /**
   * For each key, whether an entry may be stored under it: false where a snapshot reader's listing has none.
   * A look per shard folder for a whole tree's keys, where a `get` each would wait once per key.
   */
  async mayHold(keys: string[]): Promise<boolean[]> {
    if (!this.snapshot) return keys.map(() => true);
    const folders = [...new Set(keys.map((key) => key.slice(0, 2)))];
    const listed = new Map(await Promise.all(folders.map(async (f) => [f, await this.listing(f)] as const)));
    return keys.map((key) => listedOrUnknown(listed.get(key.slice(0, 2))!, key));
  }

  /** Whether any entry may be stored: false where a snapshot reader's folder holds no shard folder at all. */
  async holdsAny(): Promise<boolean> {
    if (!this.snapshot) return true;
    const top = await this.listing('');
    return !top || [...top].some((name) => SHARD.test(name));
  }

  /** The names in a folder of the cache ('' its top), empty when there is none, null when it cannot be listed. */
  private listing(folder: string): Promise<Set<string> | null> {
    let names = this.listings.get(folder);
    if (!names) {
      // A shard folder the top does not hold is not listed at all.
      names = (folder ? this.listing('') : Promise.resolve(null)).then((top) =>
        top?.has(folder) === false
          ? new Set<string>()
          : readdir(join(this.dir, folder)).then(
              (list) => new Set(list),
              (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? new Set<string>() : null),
            ),
      );
      this.listings.set(folder, names);
    }
    return names;
  }

  private path(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }
}

/** Whether a shard folder's listing holds the key's entry, or could not be taken (null: look for it). */
const listedOrUnknown = (listing: Set<string> | null, key: string) => listing?.has(`${key}.json`) !== false;
