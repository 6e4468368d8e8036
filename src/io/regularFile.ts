/**
 * The one way Skeptic opens a file it may send: never through a final symlink, never blocking (a FIFO or a
 * device is refused the moment it is opened, not when a writer shows up), only a regular file, and never
 * more than a size cap. Every reader (Step 0, the tools, the context-file loader, the prompt builders)
 * goes through here, so a tree that swaps a file for a link or a pipe after Step 0 gains nothing.
 */
import { constants } from 'node:fs';
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';

export type ReadRefusal = 'missing' | 'symlink' | 'not_regular' | 'oversized' | 'unreadable';

/** Its message says why without naming the file ("is not a regular file …"): callers put the name first. */
export class RefusedRead extends Error {
  constructor(
    readonly why: ReadRefusal,
    message: string,
  ) {
    super(message);
  }
}

/** O_NOFOLLOW and O_NONBLOCK do not exist on Windows; there the regular-file check still holds. */
const FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** The whole file, or RefusedRead saying why not. */
export async function readRegularFile(abs: string, maxBytes: number): Promise<Buffer> {
  let handle;
  try {
    handle = await open(abs, FLAGS);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new RefusedRead('missing', 'does not exist');
    if (code === 'ELOOP' || code === 'EMLINK') throw new RefusedRead('symlink', 'is a symbolic link');
    throw new RefusedRead('unreadable', `cannot be read (${code ?? 'error'})`);
  }
  try {
    const st = await handle.stat();
    if (!st.isFile())
      throw new RefusedRead(
        'not_regular',
        `is not a regular file (${st.isDirectory() ? 'a folder' : 'a pipe, socket or device'})`,
      );
    if (st.size > maxBytes) throw new RefusedRead('oversized', `is larger than ${formatBytes(maxBytes)}`);
    // The file may grow between stat and read: read at most one byte past the cap to notice.
    const buf = Buffer.alloc(Math.min(st.size, maxBytes) + 1);
    let got = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, got, buf.length - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
      if (got > maxBytes) throw new RefusedRead('oversized', `is larger than ${formatBytes(maxBytes)}`);
      if (got === buf.length) break;
    }
    return buf.subarray(0, got);
  } catch (err) {
    if (err instanceof RefusedRead) throw err;
    throw new RefusedRead(
      'unreadable',
      `cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  } finally {
    await handle.close();
  }
}

export function formatBytes(n: number): string {
  return n >= 1 << 20 ? `${Math.round(n / (1 << 20))} MiB` : n >= 1024 ? `${Math.round(n / 1024)} KiB` : `${n} bytes`;
}

/**
 * One of Skeptic's own files (dismissals, cache entries, state, usage history): its text, or null when there
 * is none. Opened like a file under review (a regular file only, never through a final link, never blocking,
 * at most `maxBytes`), so a `.skeptic/dismissed.json` that is a pipe or a link to /dev/stdin cannot hang a
 * run; anything else throws RefusedRead, which the caller turns into a warning.
 */
export async function readOwnFile(abs: string, maxBytes: number): Promise<string | null> {
  try {
    return (await readRegularFile(abs, maxBytes)).toString('utf8');
  } catch (err) {
    if (err instanceof RefusedRead && err.why === 'missing') return null;
    throw err;
  }
}

/**
 * The same rule, synchronously, for a reader that cannot wait (the finding screen, inside an event): the text,
 * or null for anything that is not a regular file of at most `maxBytes`.
 */
export function readRegularFileSync(abs: string, maxBytes: number): string | null {
  let fd: number;
  try {
    fd = openSync(abs, FLAGS);
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    return st.isFile() && st.size <= maxBytes ? readFileSync(fd, 'utf8') : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
