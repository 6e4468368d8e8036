/**
 * The lightbulb on a Skeptic diagnostic (in the editor and on the Problems row): Dismiss…, Copy Fix Prompt,
 * Fix with Chat (only where the host has a chat view) and Show in Report.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../app/contributions';
import type { ProblemsView } from './diagnostics';

/** The command a host with a chat view offers to open it with a query. */
export const CHAT_COMMAND = 'workbench.action.chat.open';

export class FindingActions implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(
    private readonly problems: ProblemsView,
    private readonly hasChat: () => boolean,
  ) {}

  provideCodeActions(
    doc: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    return context.diagnostics.flatMap((d) => {
      const finding = this.problems.findingFor(doc.uri, d);
      if (!finding?.fingerprint) return [];
      const action = (title: string, command: string) => {
        const a = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
        a.diagnostics = [d];
        a.command = { title, command, arguments: [finding.fingerprint] };
        return a;
      };
      return [
        action(`Skeptic: Dismiss ${finding.rule_id}…`, COMMANDS.dismiss),
        action('Skeptic: Copy Fix Prompt', COMMANDS.copyFixPrompt),
        ...(this.hasChat() ? [action('Skeptic: Fix with Chat', COMMANDS.fixWithChat)] : []),
        action('Skeptic: Show in Report', COMMANDS.showInReport),
      ];
    });
  }
}
