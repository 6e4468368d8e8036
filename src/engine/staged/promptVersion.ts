/** Staged mode's prompt version: every staged result-cache key carries it (see ../promptVersion.ts). */
import { promptVersion } from '../promptVersion';
import {
  CHALLENGE_SYSTEM,
  FILE_SYSTEM,
  STEP_DIRECTIVES,
  SYNTHESIS_MERGE_SYSTEM,
  SYNTHESIS_PART_SYSTEM,
  SYNTHESIS_SYSTEM,
} from './prompts';

export const STAGED_PROMPT_VERSION = promptVersion({
  FILE_SYSTEM,
  CHALLENGE_SYSTEM,
  STEP_DIRECTIVES,
  SYNTHESIS_SYSTEM,
  SYNTHESIS_PART_SYSTEM,
  SYNTHESIS_MERGE_SYSTEM,
});
