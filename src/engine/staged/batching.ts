/** Step 3's partition of a file's functions into solo calls and batches, and the completeness check. */
import type { FunctionRow } from '../../model/records';

export const MAX_BATCH = 8;

export interface ReviewPlan {
  solo: FunctionRow[];
  batches: FunctionRow[][];
}

/** `solo_review: true` functions get a call each; the rest go in order into batches of at most 8. */
export function planReviews(functions: FunctionRow[], maxBatch = MAX_BATCH): ReviewPlan {
  const solo = functions.filter((f) => f.solo_review);
  const rest = functions.filter((f) => !f.solo_review);
  const batches: FunctionRow[][] = [];
  for (let i = 0; i < rest.length; i += maxBatch) batches.push(rest.slice(i, i + maxBatch));
  return { solo, batches };
}

/** What a plan of `solo` functions alone and `batched` more comes to in calls (in expected values, for the estimate). */
export const reviewCalls = (solo: number, batched: number) => solo + Math.ceil(batched / MAX_BATCH);

/** The functions of the inventory that no review answered for: expected − reviewed. */
export function missingFunctions(expected: FunctionRow[], reviewed: Iterable<string>): FunctionRow[] {
  const done = new Set(reviewed);
  return expected.filter((f) => !done.has(f.qualified_name));
}
