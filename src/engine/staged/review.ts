/**
 * Step 3: the 8-rule review of a file's functions — one call per solo function, one per batch of up
 * to 8 — then the completeness check, which re-runs every function no reply answered for, solo.
 */
import { BatchReview, PerFunctionReview, type FileAnalysis, type FunctionRow, type Step1Record, type Verdict } from '../../model/records';
import type { FailedUnit } from '../../model/finding';
import { lineErrors } from '../source';
import { fileCall, type FileUnderReview, type StageContext } from './context';
import { missingFunctions, planReviews } from './batching';

export interface ReviewOutcome {
  reviews: PerFunctionReview[];
  failed: FailedUnit[];
  /** Functions the completeness check had to re-run solo. */
  recovered: string[];
}

/** Only the breadcrumbs of Steps 1–2 reach Step 3, never the whole records. */
function breadcrumbs(file: FileUnderReview, step1: Step1Record, analysis: FileAnalysis) {
  return {
    file_path: file.entry.path,
    companion_path: file.entry.companion_path,
    brutal_one_line: analysis.brutal_one_line,
    invariants: analysis.invariants,
    risk_flags: analysis.risk_flags,
    concurrency_present: step1.concurrency_present,
    ...(file.changedRanges ? { changed_ranges: file.changedRanges } : {}),
  };
}

const functionFields = (f: FunctionRow) => ({
  function_qualified_name: f.qualified_name,
  kind: f.kind,
  visibility: f.visibility,
  role_in_file: f.role_in_file,
  start_line: f.start_line,
});

export async function reviewFunctions(
  ctx: StageContext,
  file: FileUnderReview,
  step1: Step1Record,
  analysis: FileAnalysis,
  functions: FunctionRow[],
  onReviewed: (count: number) => void,
): Promise<ReviewOutcome> {
  const crumbs = breadcrumbs(file, step1, analysis);
  const plan = planReviews(functions);
  const first = await Promise.all([
    ...plan.solo.map((f) => reviewSolo(ctx, file, crumbs, f)),
    ...plan.batches.map((b) => reviewBatch(ctx, file, crumbs, b)),
  ]);
  const reviews = first.flatMap((r) => r.reviews);
  onReviewed(reviews.length);

  const missing = missingFunctions(functions, reviews.map((r) => r.function_qualified_name));
  const rerun = await Promise.all(missing.map((f) => reviewSolo(ctx, file, crumbs, f)));
  const recovered = rerun.flatMap((r) => r.reviews);
  onReviewed(recovered.length);
  return {
    reviews: [...reviews, ...recovered],
    failed: rerun.flatMap((r) => r.failed),
    recovered: recovered.map((r) => r.function_qualified_name),
  };
}

interface UnitResult {
  reviews: PerFunctionReview[];
  failed: FailedUnit[];
}

async function reviewSolo(ctx: StageContext, file: FileUnderReview, crumbs: object, fn: FunctionRow): Promise<UnitResult> {
  const label = `Step 3 review ${file.entry.path} ${fn.qualified_name}`;
  const outcome = await fileCall(ctx, file, 'review', {
    label,
    record: PerFunctionReview,
    packet: { ...crumbs, ...functionFields(fn) },
    check: (r) => verdictLineErrors(r.function_qualified_name, r.verdicts, file),
  });
  if (!outcome.ok) return { reviews: [], failed: [{ step: 'review', file: file.entry.path, unit: fn.qualified_name, reason: outcome.reason }] };
  // The name and start line are the keys the pipeline asked with; keep them as asked.
  return { reviews: [{ ...outcome.value, file_path: file.entry.path, function_qualified_name: fn.qualified_name, start_line: fn.start_line }], failed: [] };
}

/** A failed batch is not reported here: its functions are missing, and the completeness check re-runs them. */
async function reviewBatch(ctx: StageContext, file: FileUnderReview, crumbs: object, batch: FunctionRow[]): Promise<UnitResult> {
  const asked = new Set(batch.map((f) => f.qualified_name));
  const outcome = await fileCall(ctx, file, 'review', {
    label: `Step 3 review ${file.entry.path} batch of ${batch.length}`,
    record: BatchReview,
    packet: { ...crumbs, functions: batch.map(functionFields) },
    check: (b) => checkBatch(b, asked, file),
  });
  if (!outcome.ok) return { reviews: [], failed: [] };
  return { reviews: outcome.value.reviews.map((r) => ({ ...r, file_path: file.entry.path })), failed: [] };
}

/** A batch answers only for the functions it was asked about, each at most once. Omissions are left to the completeness check. */
export function checkBatch(batch: BatchReview, asked: Set<string>, file: FileUnderReview): string[] {
  const errors: string[] = [];
  const seen = new Set<string>();
  batch.reviews.forEach((r, i) => {
    const name = r.function_qualified_name;
    if (!asked.has(name)) errors.push(`reviews.${i}: "${name}" was not asked for; review only ${[...asked].map((n) => `"${n}"`).join(', ')}`);
    else if (seen.has(name)) errors.push(`reviews.${i}: "${name}" is reviewed twice`);
    seen.add(name);
    errors.push(...verdictLineErrors(name, r.verdicts, file));
  });
  return errors;
}

function verdictLineErrors(fn: string, verdicts: Verdict[], file: FileUnderReview): string[] {
  return verdicts.flatMap((v) => lineErrors(`${fn} ${v.rule_id}`, v.line, file.primary.lines.length));
}
