/**
 * The last answers of Steps 1 and 2 for each path, and whether the file's findings went to the challenge,
 * kept in the result cache beside the units. A run writes them whenever Step 1 or 2 of a file was asked
 * anew; the forecast of the next run (forecast.ts) reads them for a file whose text changed since, whose
 * Step 1 and 2 will be asked again: the functions, their roles and batching, and whether it will be
 * challenged are most likely what they were, so the Step 3 keys are computed from them.
 */
import { z } from 'zod';
import { FileAnalysis, Step1Record } from '../../model/records';
import type { UnitCache } from '../unitCache';

export const LastAnswers = z.object({ step1: Step1Record, analysis: FileAnalysis.nullable(), challenged: z.boolean() });
export type LastAnswers = z.infer<typeof LastAnswers>;

/** Per path only: after a model, effort or prompt change the answers are still the best guess (zod drops an outdated shape). */
export const lastAnswersKey = (cache: UnitCache, path: string) => cache.namedKey({ kept: 'last-answers', path });
