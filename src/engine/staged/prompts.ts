/**
 * Prompts of the staged pipeline. A call about a file carries its model's system text — the common preamble,
 * the noise rules (shared with synthesis and lens mode), then the briefs of the steps that model runs and
 * the rule sets they apply — and, after the file, a short directive naming its step and the record to submit.
 * Steps 1–3 run on one model and Step 4 on another (model/models.ts), and the prompt cache is per model, so
 * each gets only its own briefs: the tool list, the system text and the file form one cached prefix that
 * every call of that model about the file reads (docs/caching.md). Synthesis, which sees no file, keeps its
 * own system prompt.
 */
import common from '../../../prompts/common.md';
import noise from '../../../prompts/noise.md';
import curate from '../../../prompts/step1-curate.md';
import analyze from '../../../prompts/step2-analyze.md';
import review from '../../../prompts/step3-review.md';
import challenge from '../../../prompts/step4-challenge.md';
import synthesize from '../../../prompts/step5-synthesize.md';
import synthesizePart from '../../../prompts/step5-part.md';
import synthesizeMerge from '../../../prompts/step5-merge.md';
import rulesFile from '../../../prompts/rules-file.md';
import rulesFunction from '../../../prompts/rules-function.md';
import rulesGlobal from '../../../prompts/rules-global.md';

import type { FileStep } from '../../model/models';

const compose = (...parts: string[]) => parts.map((p) => p.trim()).join('\n\n');

const STEPS_INTRO =
  '# The file steps\n\nThe briefs of the three steps that read a file before its findings are challenged follow, each with the rule set it applies. Each call does exactly one step: the directive after the source names it and the record to submit, and that brief is your task.';

const CHALLENGE_INTRO =
  "# The rules findings were raised under\n\nThe challenger judges every finding by the rule it was raised under: the file-level rules F1 to F3 and the function-level rules A1 to A8 follow, then the challenger's brief, which is your task.";

/** The system text of Steps 1–3 (curate, analyze, review): their briefs and the rule sets they apply. */
export const FILE_SYSTEM = compose(common, noise, STEPS_INTRO, curate, analyze, rulesFile, review, rulesFunction);

/** The system text of Step 4 (challenge): the rule sets it judges by, then its brief. */
export const CHALLENGE_SYSTEM = compose(common, noise, CHALLENGE_INTRO, rulesFile, rulesFunction, challenge);

/** The system text of a file step's calls. */
export const fileSystem = (step: FileStep): string => (step === 'challenge' ? CHALLENGE_SYSTEM : FILE_SYSTEM);

/** The one step-specific line of a file call, after the file. */
export const STEP_DIRECTIVES = {
  curate: 'Your step: Step 1, Curate.',
  analyze: 'Your step: Step 2, Analyze, applying the file-level rules F1 to F3.',
  review: 'Your step: Step 3, Review functions, applying the function-level rules A1 to A8.',
  // The challenger judges findings by the same rules they were raised under.
  challenge: 'Your step: Step 4, Challenge, judging each finding by the rule (A1 to A8, F1 to F3) it was raised under.',
} as const;

export const SYNTHESIS_SYSTEM = compose(common, noise, synthesize, rulesGlobal);

/** A review too large for one synthesis: each part is synthesized over its own files, then the parts are merged. */
export const SYNTHESIS_PART_SYSTEM = compose(common, noise, synthesize, synthesizePart, rulesGlobal);
export const SYNTHESIS_MERGE_SYSTEM = compose(common, noise, synthesizeMerge, rulesGlobal);
