/** Registers every Skeptic command. The ids come from src/app/contributions.ts, as package.json's do. */
import * as vscode from 'vscode';
import { COMMANDS } from '../app/contributions';
import { promptForApiKey } from './apiKey';
import type { FindingStore } from './findingStore';
import type { Notices } from './notices';
import type { ReviewController } from './reviewController';
import { commandIntent } from './commandIntent';
import { commitMessageFor, folderForChanges, pickBase, requestsForUris, selectedUris } from './targets';

export function registerCommands(
  context: vscode.ExtensionContext,
  controller: ReviewController,
  store: FindingStore,
  notices: Notices,
): vscode.Disposable[] {
  const runAll = async (requests: ReturnType<typeof requestsForUris>) => {
    if (requests.length === 0) return void notices.info('Skeptic: select files or folders to review.');
    for (const r of requests) await controller.run(r);
  };
  // What the change is for: the command's `intent` argument, else (local changes) the Source Control commit message.
  const intentOf = (arg: unknown, folder?: string) => {
    const intent = commandIntent(arg, folder === undefined ? undefined : commitMessageFor(folder));
    return intent ? { intent } : {};
  };
  const changes = (kind: 'changes' | 'staged', mode?: 'lenses') => async (arg: unknown) => {
    const folder = await folderForChanges(arg);
    if (folder)
      await controller.run({ cwd: folder, ...(mode ? { mode } : {}), scope: { kind }, ...intentOf(arg, folder) });
  };
  return [
    vscode.commands.registerCommand(COMMANDS.reviewFiles, (clicked: unknown, selection: unknown) =>
      runAll(requestsForUris(selectedUris(clicked, selection))),
    ),
    // The CLI's default without a scope: the branch's open PR, else the uncommitted changes, else the folder.
    vscode.commands.registerCommand(COMMANDS.reviewAuto, async (arg: unknown) => {
      const cwd = await folderForChanges(arg);
      if (cwd) await controller.run({ cwd, scope: { kind: 'auto' }, ...intentOf(arg) });
    }),
    vscode.commands.registerCommand(COMMANDS.reviewChanges, changes('changes')),
    vscode.commands.registerCommand(COMMANDS.reviewStaged, changes('staged')),
    vscode.commands.registerCommand(COMMANDS.reviewBranch, async (arg: unknown) => {
      const folder = await folderForChanges(arg);
      const base = folder && (await pickBase(folder, notices));
      if (folder && base) await controller.run({ cwd: folder, scope: { kind: 'branch', base }, ...intentOf(arg) });
    }),
    vscode.commands.registerCommand(COMMANDS.quickReviewFiles, (clicked: unknown, selection: unknown) =>
      runAll(requestsForUris(selectedUris(clicked, selection), 'lenses')),
    ),
    vscode.commands.registerCommand(COMMANDS.quickReviewChanges, changes('changes', 'lenses')),
    vscode.commands.registerCommand(COMMANDS.cancel, () => controller.cancel()),
    vscode.commands.registerCommand(COMMANDS.showReport, () => controller.showLastReport()),
    vscode.commands.registerCommand(COMMANDS.clear, () => store.clear()),
    vscode.commands.registerCommand(COMMANDS.showLog, () => controller.log.show(true)),
    vscode.commands.registerCommand(COMMANDS.checkSetup, () => controller.checkSetup()),
    vscode.commands.registerCommand(COMMANDS.setApiKey, () => promptForApiKey(context.secrets, notices)),
  ];
}
