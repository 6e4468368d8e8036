/**
 * Dismissing a finding: the user's own list (workspace state) or the team's file in the repository
 * (`.skeptic/dismissed.json`). Either way the finding leaves every view at once, and later reviews leave
 * it out (the worker gets both lists through the job and the folder).
 */
import { join } from 'node:path';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import {
  Dismissal,
  DISMISSAL_REASONS,
  REASON_LABELS,
  TEAM_DISMISSALS_PATH,
  type DismissalReason,
} from '../model/dismissals';
import type { Finding } from '../model/finding';
import { addTeamDismissal } from '../io/teamDismissals';
import type { FindingStore } from './findingStore';
import type { Notices } from './notices';

const USER_KEY = 'skeptic.dismissals';
const UserList = z.array(Dismissal);

/** What a dismissal needs to know; the Dismiss… command asks for whatever a caller did not give. */
export interface DismissChoice {
  reason: DismissalReason;
  note?: string;
  scope: 'user' | 'team';
}

export class Dismissals {
  constructor(
    private readonly memento: vscode.Memento,
    private readonly store: FindingStore,
    private readonly notices: Notices,
  ) {}

  /** The user's own dismissals, for the next review's job. */
  own(): Dismissal[] {
    const parsed = UserList.safeParse(this.memento.get(USER_KEY) ?? []);
    return parsed.success ? parsed.data : [];
  }

  /** Asks why (and for whom) when `choice` is not given; returns false when the user backs out. */
  async dismiss(finding: Finding, choice?: Partial<DismissChoice>): Promise<boolean> {
    const full = await this.ask(choice ?? {});
    if (!full || !finding.fingerprint) return false;
    const record: Dismissal = {
      fingerprint: finding.fingerprint,
      rule_id: finding.rule_id,
      file: finding.file,
      function: finding.function,
      code: await this.codeAt(finding),
      finding: finding.action,
      reason: full.reason,
      ...(full.note?.trim() ? { note: full.note.trim() } : {}),
      date: new Date().toISOString().slice(0, 10),
    };
    try {
      // The engine's own reader and writer: a regular file under the cap only, never written through a link.
      if (full.scope === 'team') await addTeamDismissal(this.store.folder, record);
      else
        await this.memento.update(USER_KEY, [
          ...this.own().filter((d) => d.fingerprint !== record.fingerprint),
          record,
        ]);
    } catch (err) {
      void this.notices.error(`Skeptic could not save the dismissal: ${(err as Error).message}`);
      return false;
    }
    this.store.remove(finding.fingerprint);
    return true;
  }

  private async ask(given: Partial<DismissChoice>): Promise<DismissChoice | undefined> {
    const reason =
      given.reason ??
      (
        await vscode.window.showQuickPick(
          DISMISSAL_REASONS.map((r) => ({ label: REASON_LABELS[r], reason: r })),
          { title: 'Dismiss this finding', placeHolder: 'Why?' },
        )
      )?.reason;
    if (!reason) return undefined;
    const note =
      given.note ??
      (await vscode.window.showInputBox({
        title: 'Dismiss this finding',
        prompt: 'A note for your team and for later reviews (optional)',
        placeHolder: 'e.g. the caller already checks the index',
      }));
    if (note === undefined) return undefined;
    const scope =
      given.scope ??
      (
        await vscode.window.showQuickPick(
          [
            { label: 'Only for me', description: 'kept in this workspace', scope: 'user' as const },
            {
              label: 'For the team',
              description: `written to ${TEAM_DISMISSALS_PATH}, to commit`,
              scope: 'team' as const,
            },
          ],
          { title: 'Dismiss this finding', placeHolder: 'Who should stop seeing it?' },
        )
      )?.scope;
    return scope ? { reason, note, scope } : undefined;
  }

  private async codeAt(f: Finding): Promise<string> {
    try {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(join(this.store.folder, f.file)));
      return f.line >= 1 && f.line <= doc.lineCount ? doc.lineAt(f.line - 1).text.trim() : '';
    } catch {
      return '';
    }
  }
}
