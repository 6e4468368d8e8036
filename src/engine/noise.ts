/**
 * The deterministic half of the noise rules (prompts/noise.md), for both modes: a finding labelled with a
 * category that is never a finding is removed, with its reason, before anyone spends a call on it.
 */
import { NOISE_CATEGORIES, type Category, type NoiseCategory } from '../model/categories';
import { languageOf } from '../model/languages';
import { judgeEach, type Filter } from '../model/filter';
import type { ContextFile } from '../model/records';

/** Languages where memory-safety defects are real (elsewhere the claim is noise). */
const MEMORY_UNSAFE = new Set(['c', 'cpp', 'objective-c', 'objc']);

export interface NoiseRules {
  /** The project's context files ask for tests: a missing test is then a finding. */
  testsRequired: boolean;
}

/** Whether any context file speaks of tests (a project that asks for them says so there). */
export function noiseRules(context: ContextFile[]): NoiseRules {
  return { testsRequired: context.some((c) => /\b(tests?|testing|test coverage)\b/i.test(c.text)) };
}

/** Why a finding in `category` about `file` is never a finding; null when it stays. */
export function noiseReason(category: Category | null | undefined, file: string, rules: NoiseRules): string | null {
  if (!category || !(category in NOISE_CATEGORIES)) return null;
  if (category === 'missing_tests' && rules.testsRequired) return null;
  if (category === 'memory_safety' && MEMORY_UNSAFE.has(languageOf(file))) return null;
  return NOISE_CATEGORIES[category as NoiseCategory];
}

/** Splits findings into those kept and those removed, each removal with its reason. */
export function dropNoise<T extends { category?: Category | null; file: string }>(
  rules: NoiseRules,
): Filter<T, { finding: T; reason: string }> {
  return judgeEach<T, { finding: T; reason: string }>((f) => {
    const reason = noiseReason(f.category, f.file, rules);
    return reason ? { drop: { finding: f, reason: `${f.category}: ${reason}` } } : { keep: f };
  });
}
