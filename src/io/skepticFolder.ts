/** Creates `.skeptic/` (model/skepticFolder.ts) with the .gitignore that keeps all but the dismissals out of git. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SKEPTIC_FOLDER } from '../model/skepticFolder';

const GITIGNORE =
  "# Written by Skeptic: its reports stay out of git; the team's dismissals are meant to be committed.\n*\n!dismissed.json\n";

/** Creates `<root>/.skeptic/` with its .gitignore (left alone when one is there); returns the folder. */
export async function ensureSkepticFolder(root: string): Promise<string> {
  const dir = join(root, SKEPTIC_FOLDER);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, '.gitignore'), GITIGNORE, { flag: 'wx' }).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err;
  });
  return dir;
}
