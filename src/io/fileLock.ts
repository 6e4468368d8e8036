/**
 * A lock file beside a record that several processes update (the state folder's list of outputs): made with
 * O_EXCL, so two runs finishing at once take turns at read-modify-write and neither update is lost. A lock
 * left by a run that died (kill -9) is taken over once it is older than any update could take.
 */
import { lstat, rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { createNew } from './safeWrite';

/** An update holds the lock for milliseconds; one this old was left behind. */
const STALE_MS = 10_000;
const RETRY_MS = 20;

export async function withFileLock<T>(lockPath: string, update: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      await createNew(lockPath, `${process.pid}\n`);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const held = await lstat(lockPath).catch(() => null);
      if (held && Date.now() - held.mtimeMs > STALE_MS) await rm(lockPath, { force: true });
      else await sleep(RETRY_MS);
    }
  }
  try {
    return await update();
  } finally {
    await rm(lockPath, { force: true });
  }
}
