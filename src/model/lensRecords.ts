/**
 * The records of lens mode. Every reviewer (and the cross-repo check) answers with one LensReview, so
 * the output schema — part of the cached prefix — is the same for every reviewer call of a run; the
 * validators answer with a LensValidation. Titles name the records in requests (the fake server keys on them).
 */
import { z } from 'zod';
import { categoryField } from './categories';

export const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'] as const;
export const Severity = z.enum(SEVERITIES);
export type Severity = z.infer<typeof Severity>;

/** Confidence below this is dropped by the self-critique contract (and again, deterministically, here). */
export const MIN_CONFIDENCE = 3;
export const MAX_REASON_WORDS = 10;

/** Reasons first: the evidence comes before the category, confidence and severity it supports. */
export const LensFinding = z.object({
  file: z.string().min(1),
  line: z.number().int().min(1),
  title: z.string().min(1).max(200),
  evidence: z.string().min(1),
  recommendation: z.string().min(1),
  category: categoryField(),
  confidence: z.number().int().min(1).max(5),
  severity: Severity,
});
export type LensFinding = z.infer<typeof LensFinding>;

export const LensReview = z.object({ findings: z.array(LensFinding) }).meta({ title: 'LensReview' });
export type LensReview = z.infer<typeof LensReview>;

export const wordCount = (s: string) => s.trim().split(/\s+/).filter(Boolean).length;

export const LensValidation = z
  .object({
    reason: z
      .string()
      .min(1)
      .refine((s) => wordCount(s) <= MAX_REASON_WORDS, `at most ${MAX_REASON_WORDS} words`),
    verdict: z.enum(['VALIDATED', 'REJECTED']),
  })
  .meta({ title: 'LensValidation' });
export type LensValidation = z.infer<typeof LensValidation>;
