/** System prompts of the staged pipeline: the shared preamble, the stage's brief and the rules it applies. */
import common from '../../../prompts/common.md';
import curate from '../../../prompts/step1-curate.md';
import analyze from '../../../prompts/step2-analyze.md';
import review from '../../../prompts/step3-review.md';
import challenge from '../../../prompts/step4-challenge.md';
import synthesize from '../../../prompts/step5-synthesize.md';
import rulesFile from '../../../prompts/rules-file.md';
import rulesFunction from '../../../prompts/rules-function.md';
import rulesGlobal from '../../../prompts/rules-global.md';

const compose = (...parts: string[]) => parts.map((p) => p.trim()).join('\n\n');

export const SYSTEM_PROMPTS = {
  curate: compose(common, curate),
  analyze: compose(common, analyze, rulesFile),
  review: compose(common, review, rulesFunction),
  // The challenger judges findings by the same rules they were raised under.
  challenge: compose(common, challenge, rulesFunction, rulesFile),
  synthesize: compose(common, synthesize, rulesGlobal),
} as const;
