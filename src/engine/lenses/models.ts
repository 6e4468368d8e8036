/**
 * Model per lens role, in one table. Security and logic need deep reasoning, performance and the
 * narrower extras are pattern work for a mid model, and a validator answers one yes/no question on a
 * small one. The cross-repo check reasons about contracts between repositories: the deep model.
 */
import { OPUS, SONNET } from '../models';
import { LENS_ROLES, type LensRole } from './reviewers';

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

/** Lens mode's default effort, as the seed recommends for code review. */
export const DEFAULT_LENS_EFFORT = 'xhigh';

/** `model` replaces every role's default; `perRole` then overrides single roles. */
export function resolveLensModels(model?: string, perRole: Partial<LensModels> = {}): LensModels {
  const base = Object.fromEntries(LENS_ROLES.map((r) => [r, model ?? DEFAULT_LENS_MODELS[r]])) as LensModels;
  return { ...base, ...perRole };
}
