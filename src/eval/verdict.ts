/**
 * The judge's answer for one (golden comment, finding) pair: the record its structured output must match.
 * Its fields in the Martian benchmark's order, the reasoning before the answer it supports.
 */
import { z } from 'zod';

export const JudgeVerdict = z
  .object({
    reasoning: z.string().min(1),
    match: z.boolean(),
    confidence: z.number().min(0).max(1),
  })
  .meta({ title: 'JudgeVerdict' });
export type JudgeVerdict = z.infer<typeof JudgeVerdict>;

/** One judged pair, by index into the PR's golden comments and findings. */
export interface Judgement {
  golden: number;
  finding: number;
  /** null when the judge call failed after its retries and repairs: counted as no match, and reported. */
  verdict: JudgeVerdict | null;
  error?: string;
}
