/**
 * The team's `.skeptic/dismissed.json` as the extension's *Dismiss… → For the team* writes it (through
 * io/teamDismissals.ts, the engine's own reader and writer): a committed file is as untrusted as the code,
 * so a link in its place is never written through, a pipe never read, a huge file never rewritten, and two
 * windows dismissing at once both keep their dismissal.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addTeamDismissal, MAX_DISMISSAL_FILE_BYTES } from '../../src/io/teamDismissals';
import { parseDismissalFile, type Dismissal } from '../../src/model/dismissals';
import { put } from '../helpers/tree';

const record = (n: number): Dismissal => ({
  fingerprint: n.toString(16).padStart(20, '0'),
  rule_id: 'A1',
  file: 'cart.ts',
  function: null,
  code: '',
  finding: `finding ${n}`,
  reason: 'wont_fix',
});

describe('the team dismissal file, as the extension writes it', () => {
  const folder = () => mkdtemp(join(tmpdir(), 'skeptic-team-'));
  const teamFile = (root: string) => join(root, '.skeptic/dismissed.json');

  it('adds to a regular file, and twenty dismissals at once all land', async () => {
    const root = await folder();
    await Promise.all(Array.from({ length: 20 }, (_, i) => addTeamDismissal(root, record(i + 1))));
    const kept = parseDismissalFile(readFileSync(teamFile(root), 'utf8'));
    assert.equal(kept.length, 20);
    assert.deepEqual(readdirSync(join(root, '.skeptic')).sort(), ['.gitignore', 'dismissed.json']);
  });

  it('a dismissed.json that links out of the folder is left alone, and so is its target', async () => {
    const root = await folder();
    const outside = join(await folder(), 'elsewhere.json');
    writeFileSync(outside, 'OUTSIDE\n');
    await put(root, '.skeptic/.gitignore', '*\n');
    symlinkSync(outside, teamFile(root));
    await assert.rejects(addTeamDismissal(root, record(1)), /\.skeptic\/dismissed\.json is a symbolic link/);
    assert.equal(readFileSync(outside, 'utf8'), 'OUTSIDE\n');
    assert.ok(lstatSync(teamFile(root)).isSymbolicLink());
  });

  it('a .skeptic folder that links out of the folder is refused before anything is written', async () => {
    const root = await folder();
    const outside = await folder();
    symlinkSync(outside, join(root, '.skeptic'));
    await assert.rejects(addTeamDismissal(root, record(1)), /\.skeptic leads out of .* through a symbolic link/);
    assert.deepEqual(readdirSync(outside), []);
  });

  it('a pipe in its place is refused at once, not waited on', async () => {
    const root = await folder();
    await put(root, '.skeptic/.gitignore', '*\n');
    execFileSync('mkfifo', [teamFile(root)]);
    await assert.rejects(addTeamDismissal(root, record(1)), /is not a regular file \(a pipe, socket or device\)/);
  });

  it('a file over the cap is not rewritten', async () => {
    const root = await folder();
    const huge = JSON.stringify({ version: 1, dismissed: [] }) + ' '.repeat(MAX_DISMISSAL_FILE_BYTES);
    await put(root, '.skeptic/dismissed.json', huge);
    await assert.rejects(addTeamDismissal(root, record(1)), /is larger than 1 MiB; Skeptic leaves it as it is/);
    assert.equal(readFileSync(teamFile(root), 'utf8').length, huge.length);
  });
});
