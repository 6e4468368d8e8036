/**
 * A hash of every prompt file, both modes: part of every result-cache key, so a release that edits any
 * prompt re-asks every unit instead of serving answers given under the old wording.
 */
import { createHash } from 'node:crypto';
import { BRIEFS, LENS_SYSTEM, VALIDATOR_SYSTEM } from './lenses/prompts';
import { SYSTEM_PROMPTS } from './staged/prompts';

export const PROMPT_VERSION = createHash('sha256').update(JSON.stringify({ staged: SYSTEM_PROMPTS, lens: { LENS_SYSTEM, VALIDATOR_SYSTEM, BRIEFS } })).digest('hex').slice(0, 16);
