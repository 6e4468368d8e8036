/**
 * What an endpoint said once and need not be asked again, remembered per endpoint in the user's cache folder:
 * what it refused with a 400 (structured outputs, a forced tool choice, cache_control), so the next run starts
 * with the fallback instead of meeting the 400 again; and each model's input window as its Models API states it
 * (or that it states none), so a rerun answered from the result cache sends the endpoint nothing at all.
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
/** Per model: the window the endpoint states, or null when it answered without one. */
const Windows = z.record(z.string(), z.int().positive().nullable());
const Facts = z.object({ refused: z.array(Refusable).default([]), windows: Windows.default({}) });
type Facts = z.infer<typeof Facts>;
/** Per endpoint; an endpoint's bare list of refusals is how earlier versions wrote the file. */
const Remembered = z.record(
  z.string(),
  z.union([z.array(Refusable).transform((refused): Facts => ({ refused, windows: {} })), Facts]),
);
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
    return this.askAgain ? [] : (this.all()[this.endpoint]?.refused ?? []);
  }

  /** The model's window as the endpoint stated it (null: it states none); undefined when it was never asked. */
  windowOf(model: string): number | null | undefined {
    return this.askAgain ? undefined : this.all()[this.endpoint]?.windows[model];
  }

  /** Adds one refusal. Best effort: a failed write only means the next run meets the 400 once more. */
  remember(what: Refusable): Promise<void> {
    return this.update((facts) => ({ ...facts, refused: [...new Set([...facts.refused, what])] }));
  }

  /** Keeps what the endpoint answered about the model's window (null: that it states none). */
  rememberWindow(model: string, window: number | null): Promise<void> {
    return this.update((facts) => ({ ...facts, windows: { ...facts.windows, [model]: window } }));
  }

  /** Changes this endpoint's facts under the file's lock, keeping what other runs wrote. */
  private update(change: (facts: Facts) => Facts): Promise<void> {
    this.saving = this.saving.then(async () => {
      try {
        await ensureFolder(dirname(this.file));
        await withFileLock(`${this.file}.lock`, async () => {
          const all = this.all();
          const facts = change(all[this.endpoint] ?? { refused: [], windows: {} });
          await replaceFile(this.file, JSON.stringify({ ...all, [this.endpoint]: facts }, null, 1));
        });
      } catch {
        // Nothing to keep it in: this run still holds what it learned.
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
