/** Creates `.skeptic/` (model/skepticFolder.ts) with the .gitignore that keeps all but the dismissals out of git. */
import { join } from 'node:path';
import { SKEPTIC_FOLDER } from '../model/skepticFolder';
import { createNew, ensureFolder } from './safeWrite';

const GITIGNORE =
  "# Written by Skeptic: its reports stay out of git; the team's dismissals are meant to be committed.\n*\n!dismissed.json\n";

/** Creates `<root>/.skeptic/` with its .gitignore (left alone when one is there); returns the folder. */
export async function ensureSkepticFolder(root: string): Promise<string> {
  const dir = join(root, SKEPTIC_FOLDER);
  // A `.skeptic` that links out of the folder is refused: nothing of Skeptic's is written through it.
  await ensureFolder(dir, { root, shown: SKEPTIC_FOLDER });
  await createNew(join(dir, '.gitignore'), GITIGNORE).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err;
  });
  return dir;
}
