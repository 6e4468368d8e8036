/**
 * The Message Batches a run submitted, kept in the repository's state folder: for each batch its id and, per
 * request, the custom_id and a hash of the request. A run stopped before its batches ended (Ctrl-C, its
 * --timeout) leaves them running; the next run of the same scope builds the same requests, finds them here
 * and collects their results instead of paying for them again. Entries go once their results are collected
 * (a request whose result was not a message is dropped at once, so a rerun asks it anew) or once the API
 * no longer keeps them (29 days).
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';

/** Batch results stay downloadable this long after the batch was created. */
const KEPT_MS = 29 * 24 * 3600_000;

const Entry = z.object({
  id: z.string().min(1),
  created_at: z.string(),
  /** custom_id → hash of the request sent under it. */
  requests: z.record(z.string(), z.string()),
});
type Entry = z.infer<typeof Entry>;
const Entries = z.array(Entry);

export class BatchLedger {
  private entries: Entry[] = [];
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly file: string) {}

  /** Reads the ledger; an unreadable or malformed one counts as empty (its batches are then simply paid again). */
  async load(now = Date.now()): Promise<Entry[]> {
    try {
      const parsed = Entries.safeParse(JSON.parse(await readFile(this.file, 'utf8')));
      this.entries = parsed.success ? parsed.data.filter((e) => now - Date.parse(e.created_at) < KEPT_MS) : [];
    } catch {
      this.entries = [];
    }
    return this.entries;
  }

  add(entry: Entry): Promise<void> {
    this.entries.push(entry);
    return this.save();
  }

  /** Forgets some requests of a batch (all of them when `customIds` is absent), and the batch once it holds none. */
  drop(id: string, customIds?: Iterable<string>): Promise<void> {
    const entry = this.entries.find((e) => e.id === id);
    if (!entry) return this.writing;
    for (const c of customIds ?? Object.keys(entry.requests)) delete entry.requests[c];
    if (Object.keys(entry.requests).length === 0) this.entries = this.entries.filter((e) => e !== entry);
    return this.save();
  }

  /** Whole-file replace, one write at a time: a reader never sees half a ledger. Best effort, like the result cache. */
  private save(): Promise<void> {
    const snapshot = JSON.stringify(this.entries, null, 1);
    this.writing = this.writing.then(async () => {
      const tmp = `${this.file}.${process.pid}.tmp`;
      try {
        await mkdir(dirname(this.file), { recursive: true });
        await writeFile(tmp, snapshot);
        await rename(tmp, this.file);
      } catch {
        // A ledger that cannot be written only means a rerun pays for these requests again.
      }
    });
    return this.writing;
  }
}
