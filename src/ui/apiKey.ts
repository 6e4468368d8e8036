/** The Anthropic API key: kept in SecretStorage (never settings or logs), with the environment as a fallback. */
import * as vscode from 'vscode';
import { PROVIDER_SETTINGS, SECRET_API_KEY } from '../app/contributions';
import { needsApiKey, PROVIDER_NAMES, resolveProvider } from '../model/providers';
import { readSettings } from './settings';
import type { Notices } from './notices';

export async function apiKey(secrets: vscode.SecretStorage): Promise<string | undefined> {
  return (await secrets.get(SECRET_API_KEY))?.trim() || process.env.ANTHROPIC_API_KEY?.trim() || undefined;
}

export async function promptForApiKey(secrets: vscode.SecretStorage, notices: Notices): Promise<boolean> {
  const key = await vscode.window.showInputBox({
    title: 'Skeptic: Anthropic API key',
    prompt: `${noKeyNeeded() ?? ''}Stored in VS Code secret storage, never in settings.`,
    password: true,
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim().length < 10 ? 'That does not look like an API key.' : undefined),
  });
  if (!key) return false;
  await secrets.store(SECRET_API_KEY, key.trim());
  void notices.info('Skeptic: API key saved.');
  return true;
}

/** Where the configured provider signs with its cloud's credentials, Set API Key says so first. */
function noKeyNeeded(): string | undefined {
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!cwd) return undefined;
  try {
    const { choices } = readSettings({ cwd, scope: { kind: 'paths', paths: [] } });
    const { provider } = resolveProvider({ ...choices, via: PROVIDER_SETTINGS }, process.env);
    return needsApiKey(provider)
      ? undefined
      : `Reviews go to ${PROVIDER_NAMES[provider]}, which needs no Anthropic key (its own credentials sign the calls); a key saved here is used only with the Anthropic API. `;
  } catch {
    return undefined; // a provider setting that cannot work is reported when a review starts
  }
}

/**
 * The error a review without a (working) key shows, with the fix one click away; once a key is saved, the
 * review it interrupted starts again (`resume`). Does not wait for the user.
 */
export function offerToSetKey(
  message: string,
  notices: Notices,
  secrets: vscode.SecretStorage,
  resume: () => Promise<void>,
): void {
  void notices.error(message, 'Set API Key').then(async (choice) => {
    if (choice === 'Set API Key' && (await promptForApiKey(secrets, notices))) await resume();
  });
}
