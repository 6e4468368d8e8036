import { LENS_ROLES, type LensRole } from './reviewers';

/** Model ids, in one place. Steps 1–3 run on a Sonnet-class model; the challenger and synthesis, which
 * decide what the user sees, default to the deeper model. Each is settable per step. */
export type StagedStep = 'curate' | 'analyze' | 'review' | 'challenge' | 'synthesize';
export const STAGED_STEPS: StagedStep[] = ['curate', 'analyze', 'review', 'challenge', 'synthesize'];
/** The steps asked once per file (synthesis is asked once per run). */
export type FileStep = Exclude<StagedStep, 'synthesize'>;
export const FILE_STEPS: readonly FileStep[] = ['curate', 'analyze', 'review', 'challenge'];

export type StepModels = Record<StagedStep, string>;

export const SONNET = 'claude-sonnet-5-5';
export const OPUS = 'claude-opus-5-5';

export const DEFAULT_STEP_MODELS: StepModels = {
  curate: SONNET,
  analyze: SONNET,
  review: SONNET,
  challenge: OPUS,
  synthesize: OPUS,
};

/** `model` replaces every step's default; `perStep` then overrides single steps. */
export function resolveStepModels(model?: string, perStep: Partial<StepModels> = {}): StepModels {
  const base = Object.fromEntries(STAGED_STEPS.map((s) => [s, model ?? DEFAULT_STEP_MODELS[s]])) as StepModels;
  return { ...base, ...perStep };
}

/**
 * Model per lens role, in one table. Security and logic need deep reasoning, performance and the
 * narrower extras are pattern work for a mid model, and a validator answers one yes/no question on a
 * small one. The cross-repo check reasons about contracts between repositories: the deep model.
 */
export const HAIKU = 'claude-haiku-5-5';

export type LensModels = Record<LensRole, string>;

export const DEFAULT_LENS_MODELS: LensModels = {
  security: OPUS,
  logic: OPUS,
  performance: SONNET,
  types: SONNET,
  'silent-failures': SONNET,
  'spec-compliance': SONNET,
  comments: SONNET,
  tests: SONNET,
  validator: HAIKU,
  'cross-repo': OPUS,
};

/** Effort levels the API accepts; absent means the model's own default. */
export const EFFORTS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;
export type Effort = (typeof EFFORTS)[number];

/**
 * Staged mode's effort for the steps that reason about defects, Step 3 (review) and Step 4 (challenge), when
 * none is chosen: their self-challenge and their verdicts happen inside one forced record, and an explicit
 * effort gives that reasoning its room. The other steps classify and describe, at the model's default.
 */
export const DEFAULT_STAGED_EFFORT: Effort = 'high';
const REASONING_STEPS: readonly StagedStep[] = ['review', 'challenge'];

/** The effort a staged step's requests send: the chosen one for every step, else the default for Steps 3 and 4. */
export function stagedEffort(step: StagedStep, chosen?: Effort): Effort | undefined {
  return chosen ?? (REASONING_STEPS.includes(step) ? DEFAULT_STAGED_EFFORT : undefined);
}

/** Lens mode's default effort, as the seed recommends for code review. */
export const DEFAULT_LENS_EFFORT: Effort = 'xhigh';

/** `model` replaces every role's default; `perRole` then overrides single roles. */
export function resolveLensModels(model?: string, perRole: Partial<LensModels> = {}): LensModels {
  const base = Object.fromEntries(LENS_ROLES.map((r) => [r, model ?? DEFAULT_LENS_MODELS[r]])) as LensModels;
  return { ...base, ...perRole };
}
