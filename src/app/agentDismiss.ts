/**
 * Dismissing a finding by its fingerprint, as an agent does (the MCP `dismiss` tool): into the team's
 * `.skeptic/dismissed.json` — the file the editor's *Dismiss…* writes, through the same writer — or the
 * user's own list. The editor keeps a user's list in its workspace state, out of reach of another process,
 * so the command line's is a file in the repository's state folder, which every CLI and MCP review reads.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { addTeamDismissal } from '../io/teamDismissals';
import { readOwnFile } from '../io/regularFile';
import { withFileLock } from '../io/fileLock';
import { ensureFolder, replaceFile } from '../io/safeWrite';
import { Dismissal, type DismissalReason } from '../model/dismissals';
import { keptFinding } from './agentReview';
import { MAX_STATE_FILE_BYTES } from './state';

const userFile = (stateDir: string) => join(stateDir, 'dismissed.json');
const UserList = z.array(z.unknown());

/** The user's own dismissals kept for the command line; none when there are none or the file is unreadable. */
export async function userDismissals(stateDir: string): Promise<Dismissal[]> {
  try {
    const text = await readOwnFile(userFile(stateDir), MAX_STATE_FILE_BYTES);
    const list = text === null ? [] : UserList.parse(JSON.parse(text));
    return list.flatMap((d) => {
      const one = Dismissal.safeParse(d);
      return one.success ? [one.data] : [];
    });
  } catch {
    return [];
  }
}

export interface DismissRequest {
  fingerprint: string;
  reason: DismissalReason;
  note?: string;
  /** team: the committed file everyone's reviews read; user: this user's reviews only. */
  who: 'team' | 'user';
}

/** Thrown when no kept review has the fingerprint: nothing is written. */
export class UnknownFingerprint extends Error {}

/** Writes the dismissal; returns it. The finding is looked up in the kept reviews, for the record's file and rule. */
export async function dismissByFingerprint(
  where: { cwd: string; stateDir: string },
  req: DismissRequest,
): Promise<Dismissal> {
  const finding = await keptFinding(where.stateDir, req.fingerprint);
  if (!finding)
    throw new UnknownFingerprint(
      `no kept review has a finding with fingerprint ${req.fingerprint}; review the scope first and copy a fingerprint from its findings`,
    );
  const record: Dismissal = {
    fingerprint: finding.fingerprint,
    rule_id: finding.rule,
    file: finding.file,
    function: finding.function,
    code: '',
    finding: finding.action,
    reason: req.reason,
    ...(req.note?.trim() ? { note: req.note.trim() } : {}),
    date: new Date().toISOString().slice(0, 10),
  };
  if (req.who === 'team') await addTeamDismissal(where.cwd, record);
  else {
    await ensureFolder(where.stateDir);
    await withFileLock(`${userFile(where.stateDir)}.lock`, async () => {
      const kept = (await userDismissals(where.stateDir)).filter((d) => d.fingerprint !== record.fingerprint);
      await replaceFile(userFile(where.stateDir), JSON.stringify([...kept, record], null, 2) + '\n');
    });
  }
  return record;
}
