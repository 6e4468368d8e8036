/** Model ids, in one place. Steps 1–3 run on a Sonnet-class model; the challenger and synthesis, which
 * decide what the user sees, default to the deeper model. Each is settable per step. */
export type StagedStep = 'curate' | 'analyze' | 'review' | 'challenge' | 'synthesize';
export const STAGED_STEPS: StagedStep[] = ['curate', 'analyze', 'review', 'challenge', 'synthesize'];

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
