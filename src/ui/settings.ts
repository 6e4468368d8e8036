/**
 * Skeptic's settings, read per resource by the table of choices (app/contributions.ts) and sent to the worker
 * as read, under the same field names: the worker's job builder (src/app/buildJob.ts) checks them and applies
 * the defaults. In an untrusted workspace the settings that choose where code is sent or what is read
 * (provider, region, project, profile,
 * endpoint, models, context files) come from user settings only.
 */
import * as vscode from 'vscode';
import type { ReviewTarget } from '../app/choices';
import { RESTRICTED_SETTINGS, SETTINGS } from '../app/contributions';
import type { StartParams } from '../app/protocol';

/** The settings half of the choices, as read. */
export type SettingsAsRead = {
  choices: Omit<StartParams['choices'], 'cwd' | 'scope' | 'mode'>;
  severityMap: StartParams['severityMap'];
};

const RESTRICTED = new Set<string>(RESTRICTED_SETTINGS);

/** The settings that apply to a review of `target` (its folder's, read by the table of choices). */
export function readSettings(target: ReviewTarget): SettingsAsRead {
  const config = vscode.workspace.getConfiguration('skeptic', vscode.Uri.file(target.cwd));
  // Each value's type is what package.json declares; a hand-edited settings file may still hold junk, which the worker discards.
  const get = (key: string): unknown => {
    if (!vscode.workspace.isTrusted && RESTRICTED.has(key)) {
      const seen = config.inspect(key);
      return plain(seen?.globalValue ?? seen?.defaultValue);
    }
    return plain(config.get(key));
  };
  const { severityMap, ...read } = Object.fromEntries(
    Object.entries(SETTINGS).map(([field, key]) => [field, get(key)]),
  ) as Record<keyof typeof SETTINGS, unknown>;
  // skeptic.model overrides the per-reviewer models too, as its description says.
  if (read.model) read.reviewerModels = undefined;
  // Files and folders can be large and need no answer this minute; a change is reviewed live.
  if (target.scope.kind !== 'paths') read.batch = undefined;
  return { choices: read as SettingsAsRead['choices'], severityMap: severityMap as SettingsAsRead['severityMap'] };
}

/** Configuration objects are read-only proxies, which postMessage cannot clone: the worker gets plain copies. */
function plain(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}
