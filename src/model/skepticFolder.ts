/**
 * `.skeptic/` in a workspace folder: the extension's reports (under `reports/`) and the team's dismissals
 * (`dismissed.json`). The folder ignores itself in git through its own .gitignore, except the dismissal
 * file, which a team commits and reviews like any other configuration.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const SKEPTIC_FOLDER = '.skeptic';
export const REPORTS_FOLDER = `${SKEPTIC_FOLDER}/reports`;

const GITIGNORE = '# Written by Skeptic: its reports stay out of git; the team\'s dismissals are meant to be committed.\n*\n!dismissed.json\n';

/** Creates `<root>/.skeptic/` with its .gitignore (left alone when one is there); returns the folder. */
export async function ensureSkepticFolder(root: string): Promise<string> {
  const dir = join(root, SKEPTIC_FOLDER);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, '.gitignore'), GITIGNORE, { flag: 'wx' }).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err;
  });
  return dir;
}
