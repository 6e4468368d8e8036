/** Lens mode's prompt version: every lens result-cache key carries it (see ../promptVersion.ts). */
import { promptVersion } from '../promptVersion';
import { BRIEFS, LENS_SYSTEM, VALIDATOR_BRIEF } from './prompts';

export const LENS_PROMPT_VERSION = promptVersion({ LENS_SYSTEM, VALIDATOR_BRIEF, BRIEFS });
