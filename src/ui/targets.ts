/** Turns what a command was invoked on (Explorer selection, editor, Source Control) into review requests. */
import { dirname, relative, sep } from 'node:path';
import * as vscode from 'vscode';
import { git } from '../io/git';
import type { Notices } from './notices';
import type { ReviewTarget } from '../app/choices';

/** Files and folders grouped by the workspace folder that holds them: each is reviewed within its own folder. */
export function requestsForUris(uris: vscode.Uri[], mode?: 'lenses'): ReviewTarget[] {
  const byFolder = new Map<string, string[]>();
  for (const uri of uris.filter((u) => u.scheme === 'file')) {
    const folder = vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath ?? dirname(uri.fsPath);
    const rel = relative(folder, uri.fsPath).split(sep).join('/') || '.';
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), rel]);
  }
  return [...byFolder].map(([cwd, paths]) => ({
    cwd,
    ...(mode ? { mode } : {}),
    scope: { kind: 'paths', paths },
  }));
}

/** The arguments VS Code passes to an Explorer / editor command: the clicked item and the whole selection. */
export function selectedUris(clicked: unknown, selection: unknown): vscode.Uri[] {
  if (Array.isArray(selection) && selection.every((u) => u instanceof vscode.Uri) && selection.length > 0)
    return selection as vscode.Uri[];
  if (clicked instanceof vscode.Uri) return [clicked];
  const active = vscode.window.activeTextEditor?.document.uri;
  return active ? [active] : [];
}

/** The folder a change review runs in: the Source Control repository clicked, else the active file's, else a pick. */
export async function folderForChanges(arg: unknown): Promise<string | undefined> {
  const root = (arg as { rootUri?: unknown } | undefined)?.rootUri;
  if (root instanceof vscode.Uri) return root.fsPath;
  const folders = vscode.workspace.workspaceFolders ?? [];
  const active = vscode.window.activeTextEditor?.document.uri;
  const owner = active ? vscode.workspace.getWorkspaceFolder(active) : undefined;
  if (owner) return owner.uri.fsPath;
  if (folders.length <= 1) return folders[0]?.uri.fsPath;
  const pick = await vscode.window.showWorkspaceFolderPick({ placeHolder: 'Review the changes of which folder?' });
  return pick?.uri.fsPath;
}

/** Asks for the base of a branch review among the repository's local and remote branches. */
export async function pickBase(folder: string, notices: Notices): Promise<string | undefined> {
  let refs: string[] = [];
  try {
    refs = (
      await git(
        ['for-each-ref', '--format=%(refname:short)', '--sort=-committerdate', 'refs/heads', 'refs/remotes'],
        folder,
      )
    )
      .split('\n')
      .filter((r) => r && !r.endsWith('/HEAD'));
  } catch (err) {
    void notices.error(`Skeptic: ${(err as Error).message}`);
    return undefined;
  }
  const preferred = ['main', 'master', 'origin/main', 'origin/master', 'develop'];
  refs.sort((a, b) => (preferred.includes(b) ? 1 : 0) - (preferred.includes(a) ? 1 : 0));
  return vscode.window.showQuickPick(refs, {
    title: 'Review branch changes since…',
    placeHolder: 'the base branch (changes since the merge-base are reviewed)',
  });
}

/** The Git extension's API, as far as it is read here: each repository's root and its commit message box. */
interface GitApi {
  repositories: Array<{ rootUri: vscode.Uri; inputBox: { value: string } }>;
}

/** The commit message typed in Source Control for the repository at `folder` (or holding it), if any. */
export function commitMessageFor(folder: string): string | undefined {
  try {
    const git = vscode.extensions.getExtension<{ getAPI(version: 1): GitApi }>('vscode.git');
    if (!git?.isActive) return undefined;
    const repos = git.exports.getAPI(1).repositories;
    const owner = repos
      .filter((r) => folder === r.rootUri.fsPath || folder.startsWith(r.rootUri.fsPath + sep))
      .sort((a, b) => b.rootUri.fsPath.length - a.rootUri.fsPath.length)[0];
    return owner?.inputBox.value || undefined;
  } catch {
    // The Git extension disabled or changed: a review without a stated intent, as before.
    return undefined;
  }
}
