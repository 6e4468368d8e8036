/**
 * The team's `.skeptic/dismissed.json`, read and written one way for the engine and the extension alike. It
 * is committed, so it is as untrusted as the code: it is read as one of Skeptic's own files (a regular file
 * only, never through a link, never blocking, at most 1 MiB), and written through a temp file and a rename
 * inside the folder, under a lock, so a link in its place is never written through and two windows
 * dismissing at once both keep their dismissal.
 */
import { join } from 'node:path';
import { parseDismissalFile, TEAM_DISMISSALS_PATH, withDismissal, type Dismissal } from '../model/dismissals';
import { withFileLock } from './fileLock';
import { readOwnFile } from './regularFile';
import { replaceFile } from './safeWrite';
import { ensureSkepticFolder } from './skepticFolder';

/** A team file larger than this is not a list of dismissals anyone reviews: it is ignored (read) or left alone (write). */
export const MAX_DISMISSAL_FILE_BYTES = 1 << 20;

/**
 * The file's text in `root`, or null when there is none. Anything but a regular file under the cap (a link,
 * a pipe, a device, a huge file) throws RefusedRead, whose message says why ("is a symbolic link").
 */
export function readTeamFile(root: string): Promise<string | null> {
  return readOwnFile(join(root, TEAM_DISMISSALS_PATH), MAX_DISMISSAL_FILE_BYTES);
}

/**
 * Adds `add` to the team file in `root` (replacing a dismissal of the same fingerprint). A file that is
 * refused or malformed is left as it is, and the error says what is wrong with it.
 */
export async function addTeamDismissal(root: string, add: Dismissal): Promise<void> {
  await ensureSkepticFolder(root);
  const path = join(root, TEAM_DISMISSALS_PATH);
  await withFileLock(`${path}.lock`, async () => {
    const text = await readTeamFile(root).catch((err: Error) =>
      Promise.reject(new Error(`${TEAM_DISMISSALS_PATH} ${err.message}; Skeptic leaves it as it is`)),
    );
    const existing = text === null ? [] : parseDismissalFile(text);
    await replaceFile(path, withDismissal(existing, add), { root, shown: TEAM_DISMISSALS_PATH });
  });
}
