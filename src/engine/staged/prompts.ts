/**
 * Prompts of the staged pipeline. A call about a file carries its model's system text: what every file step
 * shares (the common preamble, the noise rules also used by synthesis and lens mode, and the rule sets F1–F3
 * and A1–A8 that findings are raised and judged by), then the briefs of the steps that model runs, and after
 * the file a one-line directive naming its step. The prompt cache is per model, so the tools, this text and
 * the file form one cached prefix that every call of that model about the file reads, while a model never
 * carries a brief of a step it does not run (docs/caching.md measures this against sending each brief after
 * the file). Synthesis, which sees no file, keeps its own system prompt.
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

import { FILE_STEPS, type FileStep, type StepModels } from '../../model/models';

const compose = (...parts: string[]) => parts.map((p) => p.trim()).join('\n\n');

/** What every call about a file is told, whatever its step. */
export const FILE_SHARED = compose(common, noise, rulesFile, rulesFunction);

/** Each file step's brief. */
export const STEP_BRIEFS: Record<FileStep, string> = {
  curate: curate.trim(),
  analyze: analyze.trim(),
  review: review.trim(),
  challenge: challenge.trim(),
};

/** The heading of a model's briefs; the common text says the line after the source names the one to follow. */
export const STEPS_INTRO = '# Step briefs\n\nFollow the one that the line after the source names.';

/**
 * The system text of a file step's calls: the shared text, then the briefs of every file step its model runs.
 * Composed once per model: every call of a step asks for it, and each composition was a new ~50 kB string.
 */
export function fileSystem(models: StepModels, step: FileStep): string {
  const own = FILE_STEPS.filter((s) => models[s] === models[step]);
  const which = own.join(' ');
  let text = composed.get(which);
  if (text === undefined) {
    text = compose(FILE_SHARED, STEPS_INTRO, ...own.map((s) => STEP_BRIEFS[s]));
    composed.set(which, text);
  }
  return text;
}
const composed = new Map<string, string>();

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
