/**
 * Skeptic's settings, read per resource through typed keys and sent to the worker as read: the worker's job
 * builder (src/app/buildJob.ts) checks them and applies the defaults. In an untrusted workspace the settings
 * that choose where code is sent or what is read (endpoint, models, context files) come from user settings only.
 */
import * as vscode from 'vscode';
import { SETTINGS } from '../app/contributions';
import type { HostMessage } from '../app/protocol';

type SettingsAsRead = Extract<HostMessage, { type: 'start' }>['settings'];

const RESTRICTED = new Set<string>([
  SETTINGS.baseUrl,
  SETTINGS.model,
  SETTINGS.modelPerStep,
  SETTINGS.contextFiles,
  SETTINGS.reviewerModels,
]);

export function readSettings(scope: vscode.ConfigurationScope | undefined): SettingsAsRead {
  const config = vscode.workspace.getConfiguration('skeptic', scope);
  // Each value's type is what package.json declares; a hand-edited settings file may still hold junk, which the worker discards.
  const get = <T>(key: string): T | undefined => {
    if (!vscode.workspace.isTrusted && RESTRICTED.has(key)) {
      const seen = config.inspect<T>(key);
      return plain(seen?.globalValue ?? seen?.defaultValue);
    }
    return plain(config.get<T>(key));
  };
  return {
    model: get(SETTINGS.model),
    modelPerStep: get(SETTINGS.modelPerStep),
    maxConcurrency: get(SETTINGS.maxConcurrency),
    requestTimeout: get(SETTINGS.requestTimeout),
    maxAttempts: get(SETTINGS.maxAttempts),
    effort: get(SETTINGS.effort),
    baseUrl: get(SETTINGS.baseUrl),
    excludes: get(SETTINGS.excludes),
    contextFiles: get(SETTINGS.contextFiles),
    reportFolder: get(SETTINGS.reportFolder),
    confirmThreshold: get(SETTINGS.confirmThreshold),
    maxCalls: get(SETTINGS.maxCalls),
    batch: get(SETTINGS.batch),
    batchTimeout: get(SETTINGS.batchTimeout),
    severityMap: get(SETTINGS.severityMap),
    includeUntracked: get(SETTINGS.includeUntracked),
    cacheResults: get(SETTINGS.cacheResults),
    prices: get(SETTINGS.prices),
    fullFanout: get(SETTINGS.fullFanout),
    reviewerModels: get(SETTINGS.reviewerModels),
  };
}

/** Configuration objects are read-only proxies, which postMessage cannot clone: the worker gets plain copies. */
function plain<T>(value: T | undefined): T | undefined {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as T);
}
