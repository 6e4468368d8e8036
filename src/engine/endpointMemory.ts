/**
 * What an endpoint refused with a 400 (structured outputs, a forced tool choice, cache_control), remembered per
 * endpoint in the user's cache folder, so the next run starts with the fallback instead of meeting the 400 again.
 * Keyed by the endpoint as shown (no user info, every query value replaced): nothing secret is written. `--refresh`
 * asks the endpoint again; deleting the file forgets every endpoint.
 */
import { dirname } from 'node:path';
import { z } from 'zod';
import type { Capability } from '../model/providers';
import { withFileLock } from '../io/fileLock';
import { readRegularFileSync } from '../io/regularFile';
import { ensureFolder, replaceFile } from '../io/safeWrite';

/** The capabilities a server may refuse, and so the ones remembered. */
const Refusable = z.enum(['structuredOutputs', 'forcedToolChoice', 'promptCache']);
export type Refusable = z.infer<typeof Refusable> & Capability;
const Remembered = z.record(z.string(), z.array(Refusable));
/** A file of thousands of endpoints is far below this; a bigger one is not ours. */
const MAX_BYTES = 1 << 20;

export class EndpointMemory {
  private saving: Promise<void> = Promise.resolve();

  /** `askAgain` (--refresh): recall nothing, so the endpoint is asked again; what it refuses is still kept. */
  private readonly endpoint: string;

  constructor(
    readonly file: string,
    endpoint: string,
    private readonly askAgain = false,
  ) {
    // One key however the address is written (`http://h` and `http://h/` are one endpoint).
    this.endpoint = URL.canParse(endpoint) ? new URL(endpoint).href : endpoint;
  }

  /** What this endpoint refused before: none when the file is missing, malformed, or not a regular file. */
  recall(): Refusable[] {
    return this.askAgain ? [] : (this.all()[this.endpoint] ?? []);
  }

  /** Adds one refusal under the file's lock, keeping what other runs wrote. Best effort: a failed write only means the next run meets the 400 once more. */
  remember(what: Refusable): Promise<void> {
    this.saving = this.saving.then(async () => {
      try {
        await ensureFolder(dirname(this.file));
        await withFileLock(`${this.file}.lock`, async () => {
          const all = this.all();
          const known = new Set(all[this.endpoint] ?? []).add(what);
          await replaceFile(this.file, JSON.stringify({ ...all, [this.endpoint]: [...known] }, null, 1));
        });
      } catch {
        // Nothing to keep it in: the fallback still holds for this run.
      }
    });
    return this.saving;
  }

  private all(): z.infer<typeof Remembered> {
    try {
      const parsed = Remembered.safeParse(JSON.parse(readRegularFileSync(this.file, MAX_BYTES) ?? '{}'));
      return parsed.success ? parsed.data : {};
    } catch {
      return {};
    }
  }
}
