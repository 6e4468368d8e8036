/**
 * The Message Batches a run submitted, kept in the repository's state folder: for each batch its id, the
 * review it was sent for and, per request, the custom_id and a hash of the request. A run stopped before its
 * batches ended (Ctrl-C, its --timeout) leaves them running; the next run of the same scope builds the same
 * requests, finds them here and collects their results instead of paying for them again. A request goes once
 * a run has read its result (a message handed to its unit, or one to ask anew), a batch once it holds none or
 * the API no longer keeps it (29 days): what is left is what no run has collected. Runs of one repository
 * share the file, so each change is made under its lock to the file as it is then.
 */
import { dirname } from 'node:path';
import { z } from 'zod';
import { withFileLock } from '../io/fileLock';
import { readOwnFile, RefusedRead } from '../io/regularFile';
import { ensureFolder, replaceFile } from '../io/safeWrite';
import { SetupError } from '../model/setup';

/** Far more than a ledger of 100,000-request batches holds: a bigger file is not one Skeptic wrote. */
const MAX_LEDGER_BYTES = 64 << 20;

/** The ledger is there but is no file Skeptic can read (a pipe, a device, a link): said, never waited on. */
export class LedgerRefused extends SetupError {}

/** Batch results stay downloadable this long after the batch was created. */
const KEPT_MS = 29 * 24 * 3600_000;

const Entry = z.object({
  id: z.string().min(1),
  created_at: z.string(),
  /** What the batch was sent for ("staged review of shop"), for `skeptic batches`; older ledgers lack it. */
  review: z.string().optional(),
  /** custom_id → hash of the request sent under it. */
  requests: z.record(z.string(), z.string()),
});
type LedgerEntry = z.infer<typeof Entry>;
const Entries = z.array(Entry);
type Change = (entries: LedgerEntry[]) => LedgerEntry[];

export interface LedgerOptions {
  /** What this run's batches are for, kept with each it adds. */
  review?: string;
  /** How the file is held while it is rewritten (the lock file other runs honour). */
  lock?: typeof withFileLock;
}

export class BatchLedger {
  private writing: Promise<void> = Promise.resolve();
  /** Changes not yet written. */
  private readonly queued: Change[] = [];
  private readonly review?: string;
  private readonly lock: typeof withFileLock;

  constructor(
    private readonly file: string,
    { review, lock = withFileLock }: LedgerOptions = {},
  ) {
    this.review = review;
    this.lock = lock;
  }

  /**
   * The batches the API still keeps; a malformed ledger counts as empty (its batches are then simply paid
   * again). One that is not a regular file (a FIFO would block the run for good, SIGTERM ignored) is never
   * opened for reading: LedgerRefused says so.
   */
  async load(now = Date.now()): Promise<LedgerEntry[]> {
    let text: string | null;
    try {
      text = await readOwnFile(this.file, MAX_LEDGER_BYTES);
    } catch (err) {
      if (err instanceof RefusedRead)
        throw new LedgerRefused(`the batch ledger ${this.file} ${err.message}; delete it to start a new one`);
      throw err;
    }
    try {
      const parsed = Entries.safeParse(JSON.parse(text ?? '[]'));
      return parsed.success ? parsed.data.filter((e) => now - Date.parse(e.created_at) < KEPT_MS) : [];
    } catch {
      return [];
    }
  }

  add(entry: Omit<LedgerEntry, 'review'>): Promise<void> {
    return this.update((all) => [...all, { ...entry, ...(this.review ? { review: this.review } : {}) }]);
  }

  /** Forgets some requests of a batch (all of them when `customIds` is absent), and the batch once it holds none. */
  drop(id: string, customIds?: Iterable<string>): Promise<void> {
    const gone = customIds && new Set(customIds);
    return this.update((all) =>
      all.flatMap((e) => {
        if (e.id !== id) return [e];
        const requests = Object.fromEntries(Object.entries(e.requests).filter(([c]) => gone && !gone.has(c)));
        return Object.keys(requests).length ? [{ ...e, requests }] : [];
      }),
    );
  }

  /**
   * Re-reads, changes and replaces the file under its lock: what other runs changed meanwhile is kept, and a
   * reader never sees half a ledger. The changes that queue while one write is under way go together in the
   * next, so a round of many batches rewrites the file a few times, not once per batch. Best effort, like the
   * result cache.
   */
  private update(change: Change): Promise<void> {
    this.queued.push(change);
    this.writing = this.writing.then(async () => {
      const changes = this.queued.splice(0);
      if (!changes.length) return;
      try {
        await ensureFolder(dirname(this.file));
        await this.lock(`${this.file}.lock`, async () =>
          replaceFile(
            this.file,
            JSON.stringify(
              changes.reduce((all, c) => c(all), await this.load()),
              null,
              1,
            ),
          ),
        );
      } catch {
        // A ledger that cannot be written only means a rerun pays for these requests again.
      }
    });
    return this.writing;
  }
}
