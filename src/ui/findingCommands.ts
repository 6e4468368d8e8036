/** The commands that act on one finding: from the lightbulb, the Problems row and the findings view. */
import { join } from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS } from '../app/contributions';
import type { Finding } from '../model/finding';
import { fixPrompt } from '../model/fixPrompt';
import { PRIORITY_ORDER } from '../model/order';
import type { Priority } from '../model/records';
import { CHAT_COMMAND } from './codeActions';
import type { DismissChoice, Dismissals } from './dismiss';
import type { FindingStore } from './findingStore';
import type { FindingsTree } from './findingsTree';
import type { Notices } from './notices';

/** Lines of context around a finding when the editor knows no enclosing function. */
const CONTEXT_LINES = 15;

export interface FindingCommandDeps {
  store: FindingStore;
  dismissals: Dismissals;
  tree: FindingsTree;
  notices: Notices;
  showInReport: (finding: Finding) => Promise<void>;
}

export function registerFindingCommands(deps: FindingCommandDeps): vscode.Disposable[] {
  const { store, notices } = deps;
  /** Commands get a fingerprint (code actions) or a view node (the findings view's inline action). */
  const resolve = (arg: unknown): Finding | undefined => {
    const print = typeof arg === 'string' ? arg : (arg as { finding?: Finding } | undefined)?.finding?.fingerprint;
    const found = print ? store.find(print) : undefined;
    if (!found) void notices.info('Skeptic: that finding is no longer in the last review.');
    return found;
  };
  return [
    vscode.commands.registerCommand(COMMANDS.dismiss, async (arg: unknown, choice?: Partial<DismissChoice>) => {
      const f = resolve(arg);
      return f ? deps.dismissals.dismiss(f, choice) : false;
    }),
    vscode.commands.registerCommand(COMMANDS.copyFixPrompt, async (arg: unknown) => {
      const f = resolve(arg);
      if (!f) return undefined;
      const prompt = fixPrompt(f, await functionCode(store.folder, f));
      await vscode.env.clipboard.writeText(prompt);
      void notices.info('Skeptic: fix prompt copied; paste it into your coding agent.');
      return prompt;
    }),
    vscode.commands.registerCommand(COMMANDS.fixWithChat, async (arg: unknown) => {
      const f = resolve(arg);
      if (f)
        await vscode.commands.executeCommand(CHAT_COMMAND, {
          query: fixPrompt(f, await functionCode(store.folder, f)),
        });
    }),
    vscode.commands.registerCommand(COMMANDS.showInReport, async (arg: unknown) => {
      const f = resolve(arg);
      if (f) await deps.showInReport(f);
    }),
    vscode.commands.registerCommand(COMMANDS.revealFinding, async (arg: unknown) => {
      const f = resolve(arg);
      if (!f) return;
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(join(store.folder, f.file)));
      const line = Math.max(0, Math.min(f.line - 1, doc.lineCount - 1));
      await vscode.window.showTextDocument(doc, { selection: new vscode.Range(line, 0, line, 0) });
    }),
    vscode.commands.registerCommand(COMMANDS.filterFindings, async (priorities?: Priority[]) => {
      const labels: Record<Priority, string> = {
        must_fix: 'Must fix',
        should_fix: 'Should fix',
        nice_to_have: 'Nice to have',
      };
      const chosen =
        priorities ??
        (
          await vscode.window.showQuickPick(
            PRIORITY_ORDER.map((p) => ({ label: labels[p], priority: p, picked: deps.tree.filter.has(p) })),
            { canPickMany: true, title: 'Show Skeptic findings of these priorities' },
          )
        )?.map((i) => i.priority);
      if (chosen) deps.tree.setFilter(chosen);
    }),
  ];
}

/** The code of the function a finding is in: the innermost symbol the editor knows around its line, else a window of lines. */
async function functionCode(
  folder: string,
  f: Finding,
): Promise<{ text: string; firstLine: number; language: string } | null> {
  try {
    const uri = vscode.Uri.file(join(folder, f.file));
    const doc = await vscode.workspace.openTextDocument(uri);
    const line = Math.max(0, Math.min(f.line - 1, doc.lineCount - 1));
    const symbols =
      (await vscode.commands.executeCommand<vscode.DocumentSymbol[] | undefined>(
        'vscode.executeDocumentSymbolProvider',
        uri,
      )) ?? [];
    let range = new vscode.Range(
      Math.max(0, line - CONTEXT_LINES),
      0,
      Math.min(doc.lineCount - 1, line + CONTEXT_LINES),
      0,
    );
    const callable = new Set([vscode.SymbolKind.Function, vscode.SymbolKind.Method, vscode.SymbolKind.Constructor]);
    const visit = (list: vscode.DocumentSymbol[]) => {
      for (const s of list) {
        if (!s.range.contains(new vscode.Position(line, 0))) continue;
        if (callable.has(s.kind)) range = s.range;
        visit(s.children);
      }
    };
    visit(symbols);
    const full = new vscode.Range(range.start.line, 0, range.end.line, doc.lineAt(range.end.line).text.length);
    return { text: doc.getText(full), firstLine: range.start.line + 1, language: doc.languageId };
  } catch {
    return null;
  }
}
