/**
 * Skeptic's settings, read per resource through typed keys. In an untrusted workspace the settings that
 * choose where code is sent or what is read (endpoint, models, context files) come from user settings only.
 */
import * as vscode from 'vscode';
import { LIMITS, SETTINGS } from '../app/contributions';
import { ModelPrice, type PriceOverrides } from '../model/pricing';


export interface UiSettings {
  model: string;
  modelPerStep: Record<string, string>;
  maxConcurrency: number;
  requestTimeout: number;
  maxAttempts: number;
  effort: '' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';
  baseUrl: string;
  excludes: string[];
  contextFiles: string[];
  reportFolder: string;
  confirmThreshold: number;
  severityMap: Record<string, string>;
  includeUntracked: boolean;
  cacheResults: boolean;
  fullFanout: boolean;
  reviewerModels: Record<string, string>;
  /** Valid entries of skeptic.prices (a malformed one is ignored, the list price stands). */
  prices: PriceOverrides;
}

const RESTRICTED = new Set<string>([SETTINGS.baseUrl, SETTINGS.model, SETTINGS.modelPerStep, SETTINGS.contextFiles, SETTINGS.reviewerModels]);

export function readSettings(scope: vscode.ConfigurationScope | undefined): UiSettings {
  const config = vscode.workspace.getConfiguration('skeptic', scope);
  const get = <T>(key: string, fallback: T): T => {
    if (!vscode.workspace.isTrusted && RESTRICTED.has(key)) {
      const seen = config.inspect<T>(key);
      return seen?.globalValue ?? seen?.defaultValue ?? fallback;
    }
    return config.get<T>(key, fallback);
  };
  return {
    model: get(SETTINGS.model, ''),
    modelPerStep: get(SETTINGS.modelPerStep, {}),
    maxConcurrency: get(SETTINGS.maxConcurrency, LIMITS.concurrency.default),
    requestTimeout: get(SETTINGS.requestTimeout, LIMITS.requestTimeout.default),
    maxAttempts: get(SETTINGS.maxAttempts, LIMITS.maxAttempts.default),
    effort: get(SETTINGS.effort, ''),
    baseUrl: get(SETTINGS.baseUrl, ''),
    excludes: get(SETTINGS.excludes, []),
    contextFiles: get(SETTINGS.contextFiles, []),
    reportFolder: get(SETTINGS.reportFolder, ''),
    confirmThreshold: get(SETTINGS.confirmThreshold, LIMITS.confirmThreshold.default),
    severityMap: get(SETTINGS.severityMap, {}),
    includeUntracked: get(SETTINGS.includeUntracked, true),
    cacheResults: get(SETTINGS.cacheResults, true),
    fullFanout: get(SETTINGS.fullFanout, false),
    reviewerModels: get(SETTINGS.reviewerModels, {}),
    prices: Object.fromEntries(Object.entries(get<Record<string, unknown>>(SETTINGS.prices, {})).flatMap(([model, price]) => {
      const parsed = ModelPrice.safeParse(price);
      return parsed.success ? [[model, parsed.data]] : [];
    })),
  };
}
