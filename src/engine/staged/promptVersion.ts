/** Staged mode's prompt version: every staged result-cache key carries it (see ../promptVersion.ts). */
import { promptVersion } from '../promptVersion';
import {
  FILE_SHARED,
  STEP_DIRECTIVES,
  STEP_BRIEFS,
  STEPS_INTRO,
  SYNTHESIS_MERGE_SYSTEM,
  SYNTHESIS_PART_SYSTEM,
  SYNTHESIS_SYSTEM,
} from './prompts';
import { FILE_RULES } from './fileRules';

export const STAGED_PROMPT_VERSION = promptVersion({
  FILE_SHARED,
  FILE_RULES,
  STEP_DIRECTIVES,
  STEP_BRIEFS,
  STEPS_INTRO,
  SYNTHESIS_SYSTEM,
  SYNTHESIS_PART_SYSTEM,
  SYNTHESIS_MERGE_SYSTEM,
});
