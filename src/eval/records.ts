/** The judge's answer for one (golden comment, finding) pair: the record its structured output must match. */
import { z } from 'zod';

export const JudgeVerdict = z
  .object({
    match: z.boolean(),
    confidence: z.number().min(0).max(1),
    reason: z.string().min(1),
  })
  .meta({ title: 'JudgeVerdict' });
export type JudgeVerdict = z.infer<typeof JudgeVerdict>;
