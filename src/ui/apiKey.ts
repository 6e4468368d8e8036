/** The Anthropic API key: kept in SecretStorage (never settings or logs), with the environment as a fallback. */
import * as vscode from 'vscode';
import { CHOICES, PROVIDER_SETTINGS, SECRET_API_KEY } from '../app/contributions';
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

const USE_EDITOR_MODELS = "Use the Editor's Models";

/**
 * The error a review without a (working) key shows, with the fix one click away — and, where the editor has
 * language models, the choice of reviewing with them (skeptic.provider "vscode-lm", in the user settings);
 * once either is done, the review it interrupted starts again (`resume`). Resolves once the error is shown; does
 * not wait for the user's answer.
 */
export async function offerToSetKey(
  message: string,
  notices: Notices,
  secrets: vscode.SecretStorage,
  resume: () => Promise<void>,
): Promise<void> {
  const hasModels = await vscode.lm.selectChatModels().then(
    (models) => models.length > 0,
    () => false,
  );
  void notices.error(message, 'Set API Key', ...(hasModels ? [USE_EDITOR_MODELS] : [])).then(async (choice) => {
    if (choice === 'Set API Key' && (await promptForApiKey(secrets, notices))) await resume();
    if (choice === USE_EDITOR_MODELS) {
      await vscode.workspace
        .getConfiguration('skeptic')
        .update(CHOICES.provider.setting, 'vscode-lm', vscode.ConfigurationTarget.Global);
      await resume();
    }
  });
}
