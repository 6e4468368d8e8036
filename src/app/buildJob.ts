/**
 * The one place a ReviewJob is made, from the extension's settings or the CLI's flags alike: defaults
 * and ranges come from LIMITS, models are resolved per step and per role, and what a settings file may
 * hold that makes no sense (a string for a number, an unknown step) falls back instead of failing.
 */
import { join } from 'node:path';
import type { Dismissal } from '../model/dismissals';
import {
  EFFORTS,
  resolveLensModels,
  resolveStepModels,
  STAGED_STEPS,
  type Effort,
  type LensModels,
  type StepModels,
} from '../model/models';
import type { PriceOverrides } from '../model/pricing';
import { ModelEntry } from './prices';
import { LENS_ROLES, MAX_REVIEWERS } from '../model/reviewers';
import { LIMITS } from './contributions';
import { resultsDir } from './state';
import type { ReviewJob } from './job';
import type { ReviewRequest, Settings } from './protocol';
import { REPORTS_FOLDER } from '../model/skepticFolder';

/** What the user chose; everything but the scope, the folder and the key may be left out. Fields named as
 * in ReviewJob mean the same there; the others are raw choices that buildJob resolves and clamps. */
export interface JobChoices
  extends
    Pick<ReviewJob, 'cwd' | 'scope' | 'apiKey'>,
    Partial<
      Pick<
        ReviewJob,
        | 'mode'
        | 'excludes'
        | 'contextFiles'
        | 'includeUntracked'
        | 'force'
        | 'concurrency'
        | 'maxAttempts'
        | 'baseURL'
        | 'cacheDir'
        | 'stateDir'
        | 'prices'
        | 'dismissals'
        | 'confirmOver'
        | 'maxCalls'
        | 'refresh'
        | 'outputs'
      >
    > {
  /** One model for every step and role; the maps below then override single ones (unknown names and empty ids are ignored). */
  model?: string;
  stepModels?: Record<string, unknown>;
  reviewerModels?: Record<string, unknown>;
  lens?: { fullFanout?: boolean; maxReviewers?: number; spec?: string; rubric?: string; repositories?: string[] };
  /** Seconds per request attempt. */
  requestTimeout?: number;
  /** Through the Message Batches API; `batchTimeout`: seconds the whole batch run may take. */
  batch?: boolean;
  batchTimeout?: number;
  /** Empty or unknown: the model's default (lens mode: xhigh). */
  effort?: string;
}

export function buildJob(c: JobChoices): ReviewJob {
  const model = c.model?.trim() || undefined;
  const effort = EFFORTS.find((e) => e === c.effort);
  const lens = c.lens ?? {};
  return {
    cwd: c.cwd,
    scope: c.scope,
    ...(c.mode === 'lenses'
      ? {
          mode: 'lenses' as const,
          lens: {
            fullFanout: lens.fullFanout ?? false,
            ...(lens.maxReviewers !== undefined
              ? { maxReviewers: clamp(lens.maxReviewers, { default: MAX_REVIEWERS, min: 1, max: MAX_REVIEWERS }) }
              : {}),
            ...(lens.spec ? { spec: lens.spec } : {}),
            ...(lens.rubric ? { rubric: lens.rubric } : {}),
            models: resolveLensModels(model, known<LensModels>(LENS_ROLES, c.reviewerModels)),
            repositories: lens.repositories ?? [],
          },
        }
      : {}),
    excludes: c.excludes ?? [],
    includeUntracked: c.includeUntracked ?? true,
    force: c.force ?? false,
    contextFiles: c.contextFiles ?? [],
    models: resolveStepModels(model, known<StepModels>(STAGED_STEPS, c.stepModels)),
    concurrency: clamp(c.concurrency, LIMITS.concurrency),
    timeoutMs: clamp(c.requestTimeout, LIMITS.requestTimeout) * 1000,
    maxAttempts: clamp(c.maxAttempts, LIMITS.maxAttempts),
    ...(effort ? { effort: effort satisfies Effort } : {}),
    apiKey: c.apiKey,
    ...(c.baseURL ? { baseURL: c.baseURL } : {}),
    ...(c.cacheDir ? { cacheDir: c.cacheDir } : {}),
    ...(c.stateDir ? { stateDir: c.stateDir } : {}),
    ...(c.prices && Object.keys(c.prices).length ? { prices: c.prices } : {}),
    ...(c.dismissals?.length ? { dismissals: c.dismissals } : {}),
    confirmOver: clamp(c.confirmOver, LIMITS.confirmThreshold),
    ...(Number.isInteger(c.maxCalls) && c.maxCalls! > 0 ? { maxCalls: c.maxCalls } : {}),
    ...(c.refresh ? { refresh: true } : {}),
    ...(c.batch ? { batch: { timeoutMs: clamp(c.batchTimeout, LIMITS.batchTimeout) * 1000 } } : {}),
    outputs: c.outputs ?? {},
  };
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

/** The extension's job: the request, the settings as the host read them, the key and the repository's state folder. */
export function jobFromSettings(
  request: ReviewRequest,
  s: Settings,
  apiKey: string,
  stateDir?: string,
  dismissals?: Dismissal[],
): ReviewJob {
  return buildJob({
    cwd: request.folder,
    scope: request.scope,
    ...(request.mode ? { mode: request.mode } : {}),
    model: s.model,
    stepModels: s.modelPerStep,
    // skeptic.model overrides the per-reviewer models too, as its description says.
    reviewerModels: s.model ? {} : s.reviewerModels,
    lens: { fullFanout: s.fullFanout ?? false },
    excludes: s.excludes,
    contextFiles: s.contextFiles,
    includeUntracked: s.includeUntracked,
    concurrency: s.maxConcurrency,
    requestTimeout: s.requestTimeout,
    maxAttempts: s.maxAttempts,
    effort: s.effort,
    apiKey,
    ...(s.baseUrl ? { baseURL: s.baseUrl } : {}),
    ...(stateDir ? { stateDir, ...(s.cacheResults !== false ? { cacheDir: resultsDir(stateDir) } : {}) } : {}),
    prices: validPrices(s.prices),
    confirmOver: s.confirmThreshold,
    ...(s.maxCalls ? { maxCalls: s.maxCalls } : {}),
    // Files and folders can be large and need no answer this minute; a change is reviewed live.
    batch: s.batch === true && request.scope.kind === 'paths',
    batchTimeout: s.batchTimeout,
    // Reports stay out of the way by default: Skeptic's own folder keeps them out of git.
    outputs: { reportDir: join(request.folder, s.reportFolder || REPORTS_FOLDER) },
    ...(dismissals?.length ? { dismissals } : {}),
  });
}

/** The well-formed entries of skeptic.prices; a malformed one is left out and the list price stands. */
function validPrices(map: Record<string, unknown> = {}): PriceOverrides {
  return Object.fromEntries(
    Object.entries(map).flatMap(([model, price]) => {
      const parsed = ModelEntry.safeParse(price);
      return parsed.success ? [[model, parsed.data]] : [];
    }),
  );
}
