/**
 * What Step 0 learns about a file's content, kept between runs in the per-user cache folder and keyed by the
 * content itself: the git blob id (the SHA-1 of "blob <size>\0<bytes>"). Where git already knows a file's id
 * (an unmodified tracked file, scope/git.ts), Step 0 and the plan use what is stored without reading the
 * file; where a file is read, the id is computed from the very bytes read, so a changed or swapped file can
 * only find what was learnt about its own content. Nothing here decides what is sent: every read for a
 * prompt or a tool goes through the review roots' access rule, which judges the bytes it read.
 *
 * The store is 256 shard files (by the id's first two hex digits), each a line per content ("<id> <json>"),
 * at most SHARD_BYTES (the oldest lines go first), read as regular files only; a line that does not parse
 * or fails its schema is ignored (and replaced when that content is judged again).
 */
import { createHash } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { readRegularFile } from '../io/regularFile';
import type { FunctionInventory } from '../model/functions';
import { mapLimit } from '../model/pool';

/** Bump when a field changes meaning: every stored line of another format is ignored. 2: functions keep their signature line. */
const FORMAT = 2;
/** Per shard: 256 of them bound the store at 64 MiB on disk, and what one run holds in memory likewise. */
export const SHARD_BYTES = 256 * 1024;
const SHARDS_AT_ONCE = 4;

/**
 * A function as stored: [qualified name, kind, visibility, start line, end line, signature line or null]. The
 * signature line is what an outline shows of the function (engine/source.ts) and the estimate sizes.
 */
const StoredFunction = z.tuple([
  z.string(),
  z.string(),
  z.enum(['public', 'internal', 'private']),
  z.number().int().positive(),
  z.number().int().positive(),
  z.number().int().positive().nullable(),
]);

const StoredFacts = z.object({
  f: z.literal(FORMAT),
  bytes: z.number().int().nonnegative(),
  /** UTF-16 length of the text (what token estimates count) and its lines (model/lines.ts). */
  chars: z.number().int().nonnegative(),
  lines: z.number().int().nonnegative(),
  /** The start is not text: a NUL byte, or not UTF-8. */
  binary: z.boolean(),
  /** A generated-file marker in the first lines, or one enormous first line. */
  generated: z.boolean(),
  /** It ends in a source-map comment. */
  mapped: z.boolean(),
  /** The first secret found, by the scan whose rules hash to `rules` (secretContent.ts). */
  secret: z
    .object({ rules: z.string(), hit: z.object({ line: z.number().int().positive(), kind: z.string() }).nullable() })
    .optional(),
  /** Functions found by the finder version `finder` for the language `language`; null: none can be found. */
  functions: z
    .object({
      finder: z.string(),
      language: z.string(),
      parser: z.enum(['syntax', 'regex']).nullable(),
      list: z.array(StoredFunction),
    })
    .optional(),
});
type StoredFacts = z.infer<typeof StoredFacts>;

export interface ContentFacts {
  bytes: number;
  chars: number;
  lines: number;
  binary: boolean;
  generated: boolean;
  mapped: boolean;
  secret?: { rules: string; hit: { line: number; kind: string } | null };
  functions?: { finder: string; language: string; inventory: FunctionInventory | null };
}

/** The git blob id of `bytes` (what `git hash-object` prints in a SHA-1 repository). */
export function blobId(bytes: Buffer): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

const ID = /^[0-9a-f]{40}$/;

export class FactStore {
  /** Per shard: each id's line as read (parsed when asked for), or undefined while loading failed. */
  private readonly shards = new Map<string, Promise<Map<string, string>>>();
  private readonly parsed = new Map<string, ContentFacts | null>();
  private readonly dirty = new Map<string, Set<string>>();

  /** `dir`: the folder of shard files; undefined keeps facts for this process only. */
  constructor(private readonly dir: string | undefined) {}

  /** What is known about the content with id `id`, or undefined. */
  async get(id: string): Promise<ContentFacts | undefined> {
    if (!ID.test(id)) return undefined;
    const known = this.parsed.get(id);
    if (known !== undefined) return known ?? undefined;
    const line = (await this.shard(id.slice(0, 2))).get(id);
    const stored = line === undefined ? null : fromLine(line);
    this.parsed.set(id, stored);
    return stored ?? undefined;
  }

  /** What this process already holds about `id` (read from the store or learnt), without a read: as `get` once that has answered. */
  held(id: string): ContentFacts | undefined {
    return this.parsed.get(id) ?? undefined;
  }

  /** Adds to what is known about `id` (kept on the next flush, unless nothing changes). */
  async add(id: string, facts: ContentFacts | Partial<ContentFacts>): Promise<void> {
    if (!ID.test(id)) return;
    const known = await this.get(id);
    // Every field the very value known (a content judged again as it was): no shard to write again.
    if (known && Object.entries(facts).every(([key, value]) => known[key as keyof ContentFacts] === value)) return;
    const merged = { ...known, ...facts };
    if (!isWhole(merged)) return;
    this.parsed.set(id, merged);
    const shard = id.slice(0, 2);
    const ids = this.dirty.get(shard) ?? new Set<string>();
    ids.add(id);
    this.dirty.set(shard, ids);
  }

  /**
   * Writes what was added since the last flush, each shard merged with what other runs wrote meanwhile, whole
   * or not at all (a temp file renamed over it). Best effort: a fact that cannot be kept is learnt again.
   */
  async flush(): Promise<void> {
    const dirty = [...this.dirty];
    this.dirty.clear();
    if (!this.dir || !dirty.length) return;
    await mkdir(this.dir, { recursive: true }).catch(() => undefined);
    // A few shards at a time: each is read, rebuilt and written as one string (all 256 at once held tens of MB).
    await mapLimit(dirty, SHARDS_AT_ONCE, ([shard, ids]) => this.write(shard, ids));
  }

  private async write(shard: string, ids: Set<string>): Promise<void> {
    const path = join(this.dir!, `${shard}.facts`);
    const lines = await readShard(path);
    for (const id of ids) {
      const facts = this.parsed.get(id);
      lines.delete(id);
      if (facts) lines.set(id, JSON.stringify(toStored(facts)));
    }
    // The newest last; over the cap, the oldest go (each line measured only then).
    const out = [...lines].map(([id, json]) => `${id} ${json}\n`);
    let text = out.join('');
    let size = Buffer.byteLength(text);
    if (size > SHARD_BYTES) {
      let first = 0;
      while (size > SHARD_BYTES && first < out.length) size -= Buffer.byteLength(out[first++]!);
      text = out.slice(first).join('');
    }
    const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
    try {
      await writeFile(tmp, text);
      await rename(tmp, path);
    } catch {
      await rm(tmp, { force: true }).catch(() => undefined);
    }
  }

  private shard(name: string): Promise<Map<string, string>> {
    let shard = this.shards.get(name);
    if (!shard) {
      shard = this.dir ? readShard(join(this.dir, `${name}.facts`)) : Promise.resolve(new Map());
      this.shards.set(name, shard);
    }
    return shard;
  }
}

/** A shard's lines by id; empty when it is missing, not a regular file, over twice the cap, or unreadable. */
async function readShard(path: string): Promise<Map<string, string>> {
  const lines = new Map<string, string>();
  const text = await readRegularFile(path, 2 * SHARD_BYTES).then(
    (b) => b.toString('utf8'),
    () => '',
  );
  for (const line of text.split('\n')) {
    const space = line.indexOf(' ');
    if (space === 40) lines.set(line.slice(0, 40), line.slice(41));
  }
  return lines;
}

function fromLine(json: string): ContentFacts | null {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  const stored = StoredFacts.safeParse(value);
  if (!stored.success) return null;
  const { f: _format, functions, ...rest } = stored.data;
  return {
    ...rest,
    ...(functions
      ? {
          functions: {
            finder: functions.finder,
            language: functions.language,
            inventory: functions.parser
              ? {
                  parser: functions.parser,
                  functions: functions.list.map(
                    ([qualified_name, kind, visibility, start_line, end_line, signature_line]) => ({
                      qualified_name,
                      kind,
                      visibility,
                      start_line,
                      end_line,
                      ...(signature_line === null ? {} : { signature_line }),
                    }),
                  ),
                }
              : null,
          },
        }
      : {}),
  };
}

function toStored(facts: ContentFacts): StoredFacts {
  const { functions, ...rest } = facts;
  return {
    f: FORMAT,
    ...rest,
    ...(functions
      ? {
          functions: {
            finder: functions.finder,
            language: functions.language,
            parser: functions.inventory?.parser ?? null,
            list: (functions.inventory?.functions ?? []).map((fn): z.infer<typeof StoredFunction> => [
              fn.qualified_name,
              fn.kind,
              fn.visibility,
              fn.start_line,
              fn.end_line,
              fn.signature_line ?? null,
            ]),
          },
        }
      : {}),
  };
}

function isWhole(facts: Partial<ContentFacts>): facts is ContentFacts {
  return (
    facts.bytes !== undefined &&
    facts.chars !== undefined &&
    facts.lines !== undefined &&
    facts.binary !== undefined &&
    facts.generated !== undefined &&
    facts.mapped !== undefined
  );
}

/** One job's facts: the store, and the content id each file had when it was last judged (by absolute path). */
export class Step0Facts {
  private readonly ids = new Map<string, string>();

  constructor(readonly store: FactStore = new FactStore(undefined)) {}

  /** The file at `abs` was judged with this content. */
  judged(abs: string, id: string): void {
    this.ids.set(abs, id);
  }

  /** The content id the file at `abs` had when last judged, if it was. */
  idOf(abs: string): string | undefined {
    return this.ids.get(abs);
  }

  /** As `of`, at once: judging a file asks the store for its content's facts, so they are held from then on. */
  known(abs: string): ContentFacts | undefined {
    const id = this.ids.get(abs);
    return id === undefined ? undefined : this.store.held(id);
  }

  /** What is known about the file at `abs` as last judged, without reading it. */
  async of(abs: string): Promise<{ id: string; facts: ContentFacts } | undefined> {
    const id = this.ids.get(abs);
    const facts = id === undefined ? undefined : await this.store.get(id);
    return id !== undefined && facts ? { id, facts } : undefined;
  }
}
