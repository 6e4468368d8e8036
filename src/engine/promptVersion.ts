/**
 * A hash of every prompt file, both modes: part of every result-cache key, so a release that edits any
 * prompt re-asks every unit instead of serving answers given under the old wording.
 */
import { createHash } from 'node:crypto';
import { BRIEFS, LENS_SYSTEM, VALIDATOR_BRIEF } from './lenses/prompts';
import {
  FILE_SYSTEM,
  STEP_DIRECTIVES,
  SYNTHESIS_MERGE_SYSTEM,
  SYNTHESIS_PART_SYSTEM,
  SYNTHESIS_SYSTEM,
} from './staged/prompts';

export const PROMPT_VERSION = createHash('sha256')
  .update(
    JSON.stringify({
      staged: { FILE_SYSTEM, STEP_DIRECTIVES, SYNTHESIS_SYSTEM, SYNTHESIS_PART_SYSTEM, SYNTHESIS_MERGE_SYSTEM },
      lens: { LENS_SYSTEM, VALIDATOR_BRIEF, BRIEFS },
    }),
  )
  .digest('hex')
  .slice(0, 16);
