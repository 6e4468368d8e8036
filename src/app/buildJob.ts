/**
 * The one place a ReviewJob is made, from the ReviewChoices of any surface (the extension's settings, the
 * CLI's flags, the evaluation): defaults and ranges come from LIMITS, models are resolved per step and per
 * role, the result cache is chosen, and what a settings file may hold that makes no sense (a string for a
 * number, an unknown step) falls back instead of failing.
 */
import { join, resolve } from 'node:path';
import type { Dismissal } from '../model/dismissals';
import type { EditorModels } from '../model/editorModels';
import {
  DEFAULT_LENS_EFFORT,
  EFFORTS,
  resolveLensModels,
  resolveStepModels,
  STAGED_STEPS,
  type Effort,
  type LensModels,
  type StepModels,
} from '../model/models';
import { withPremiums, type PriceOverrides } from '../model/pricing';
import { providerModelId, regionalPremium, resolveProvider, type Env, type ProviderConfig } from '../model/providers';
import { ModelEntry } from './prices';
import { defaultMaxReviewers, LENS_ROLES } from '../model/reviewers';
import type { ScopeSpec } from '../model/scope';
import { REPORTS_FOLDER } from '../model/skepticFolder';
import type { ReviewChoices } from './choices';
import { PRIORITY_ORDER } from '../model/order';
import type { Priority } from '../model/records';
import { OPTIONS } from './choiceTable';
import { LIMITS, PROVIDER_SETTINGS } from './contributions';
import { resultsDir } from './state';
import type { LensOptions, ReviewJob } from './job';

/** What the surface knows beyond the user's choices: the key, the repository's state folder, the user's dismissals. */
export interface JobContext {
  apiKey: string;
  /** This repository's state folder (app/state.ts); with it, the result cache defaults to the repository's own. */
  stateDir?: string;
  dismissals?: Dismissal[];
  /** Where the calls go, as the surface resolved it (it knows the environment); absent: the Anthropic API at `baseUrl`. */
  provider?: ProviderConfig;
  /** The extension host's language models (the worker's way to them), for provider vscode-lm. */
  editor?: EditorModels;
}

/** The scope is resolved first: `auto` is detected where the review runs (app/autoScope.ts). */
export function buildJob(c: ReviewChoices & { scope: ScopeSpec }, context: JobContext): ReviewJob {
  const effort = EFFORTS.find((e) => e === c.effort);
  const { apiKey, stateDir, dismissals, editor } = context;
  const cacheDir = cachePolicy(c, stateDir);
  const reportFolder = c.reportFolder === undefined ? undefined : join(c.cwd, c.reportFolder || REPORTS_FOLDER);
  const defined = <T extends object>(o: T) =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as ReviewJob['outputs'];
  const provider: ProviderConfig = context.provider ?? {
    provider: 'anthropic',
    chosenBy: 'the default',
    skipAuth: false,
    ...(c.baseUrl ? { baseUrl: { value: c.baseUrl, from: 'baseUrl' } } : {}),
  };
  const { models, lensModels, prices } = modelsAndPrices(c, provider);
  return {
    cwd: c.cwd,
    scope: c.scope,
    ...(c.intent?.text.trim() ? { intent: c.intent } : {}),
    ...(c.mode === 'lenses' ? { mode: 'lenses' as const, lens: lensOptions(c, { models: lensModels, effort }) } : {}),
    excludes: c.excludes ?? [],
    includeUntracked: c.includeUntracked ?? OPTIONS.includeUntracked.setting.default,
    force: c.force ?? false,
    contextFiles: c.contextFiles ?? [],
    models,
    maxConcurrency: clamp(c.maxConcurrency, LIMITS.maxConcurrency),
    requestTimeout: clamp(c.requestTimeout, LIMITS.requestTimeout),
    maxAttempts: clamp(c.maxAttempts, LIMITS.maxAttempts),
    ...(effort ? { effort: effort satisfies Effort } : {}),
    apiKey,
    provider,
    ...(editor ? { editor } : {}),
    ...(cacheDir ? { cacheDir } : {}),
    ...(stateDir ? { stateDir } : {}),
    ...(Object.keys(prices).length ? { prices } : {}),
    ...(dismissals?.length ? { dismissals } : {}),
    confirmThreshold: clamp(c.confirmThreshold, LIMITS.confirmThreshold),
    ...(Number.isInteger(c.maxCalls) && c.maxCalls! > 0 ? { maxCalls: c.maxCalls } : {}),
    ...(Number.isFinite(c.maxCostUsd) && c.maxCostUsd! > 0
      ? { maxCostUsd: Math.min(c.maxCostUsd!, LIMITS.maxCostUsd.max) }
      : {}),
    ...(PRIORITY_ORDER.includes(c.minPriority as Priority) ? { minPriority: c.minPriority as Priority } : {}),
    ...(c.refresh ? { refresh: true } : {}),
    ...(c.batch ? { batch: { batchTimeout: clamp(c.batchTimeout, LIMITS.batchTimeout) } } : {}),
    outputs: defined({ out: c.out, reportFolder, json: c.json, sarif: c.sarif, events: c.events }),
  };
}

/** Lens mode's options, decided: fan-out, the reviewer cap, the models per role and the effort sent. */
function lensOptions(c: ReviewChoices, decided: { models: LensModels; effort: Effort | undefined }): LensOptions {
  const fullFanout = c.fullFanout ?? OPTIONS.fullFanout.setting.default;
  return {
    fullFanout,
    maxReviewers: clamp(c.maxReviewers, { ...OPTIONS.maxReviewers.limit, default: defaultMaxReviewers(fullFanout) }),
    ...(c.spec ? { spec: c.spec } : {}),
    ...(c.rubric ? { rubric: c.rubric } : {}),
    models: decided.models,
    effort: decided.effort ?? DEFAULT_LENS_EFFORT,
    repositories: c.repositories ?? [],
  };
}

/** The models per step and per role, as the provider names them, and the prices of those the run uses. */
function modelsAndPrices(c: ReviewChoices, provider: ProviderConfig) {
  const model = c.model?.trim() || undefined;
  // Skeptic's model names become the provider's ids; an id the user gave goes through as it is.
  const ids = <T extends Record<string, string>>(models: T): T =>
    Object.fromEntries(Object.entries(models).map(([k, m]) => [k, providerModelId(provider.provider, m)])) as T;
  const models = ids(resolveStepModels(model, known<StepModels>(STAGED_STEPS, c.modelPerStep)));
  const lensModels = ids(resolveLensModels(model, known<LensModels>(LENS_ROLES, c.reviewerModels)));
  const used = [...Object.values(models), ...(c.mode === 'lenses' ? Object.values(lensModels) : [])];
  const prices = withPremiums(c.prices ? validPrices(c.prices) : {}, used, (id) =>
    regionalPremium(provider.provider, provider.region?.value, id),
  );
  return { models, lensModels, prices };
}

/**
 * The result cache, for every surface: none when the user turned it off, else the folder they named, else
 * the repository's own under its state folder (shared by the CLI and the extension); none without either.
 */
function cachePolicy(c: Pick<ReviewChoices, 'cwd' | 'cacheResults' | 'cacheDir'>, stateDir: string | undefined) {
  if (c.cacheResults === false) return undefined;
  if (c.cacheDir) return resolve(c.cwd, c.cacheDir);
  return stateDir ? resultsDir(stateDir) : undefined;
}

/** A whole number within the range; anything else gets the default. */
export function clamp(value: unknown, limit: { default: number; min: number; max: number }): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return limit.default;
  return Math.min(limit.max, Math.max(limit.min, Math.floor(value)));
}

/** The entries of `map` that name a known step or role with a non-empty model id. */
function known<T extends Record<string, string>>(
  names: readonly string[],
  map: Record<string, unknown> = {},
): Partial<T> {
  return Object.fromEntries(
    Object.entries(map).filter(([name, id]) => names.includes(name) && typeof id === 'string' && id.trim() !== ''),
  ) as Partial<T>;
}

/** The provider the extension's settings choose, else the environment's (the worker shares the host's). */
export function providerFromSettings(c: ReviewChoices, env: Env): ProviderConfig {
  return resolveProvider({ ...c, via: PROVIDER_SETTINGS }, env);
}

/** The well-formed entries of a price map; a malformed one is left out and the list price stands. */
function validPrices(map: Record<string, unknown>): PriceOverrides {
  return Object.fromEntries(
    Object.entries(map).flatMap(([model, price]) => {
      const parsed = ModelEntry.safeParse(price);
      return parsed.success ? [[model, parsed.data]] : [];
    }),
  );
}
