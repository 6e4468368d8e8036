/**
 * Step 3: the 8-rule review of a file's functions — one call per solo function, one per batch of up
 * to 8 — then the completeness check, which re-runs every function no reply answered for, solo. Results
 * are cached per function (see functionKey), so an edit re-asks only the functions it touched.
 */
import {
  BatchReview,
  PerFunctionReview,
  type FileAnalysis,
  type FunctionRow,
  type Step1Record,
  type Verdict,
} from '../../model/records';
import type { FailedUnit } from '../../model/finding';
import type { LineRange } from '../../model/lines';
import { intentPacket } from '../../model/intent';
import { lineErrors } from '../source';
import { PrefixSharers } from '../sharers';
import { effortOf, warmKey, type Ask, type FileUnderReview, type StageSetup } from './context';
import { missingFunctions, planReviews, type ReviewPlan } from './batching';
import { functionRanges } from './diffScope';
import { fileSystem, STEP_DIRECTIVES } from './prompts';
import { ruleKey } from './fileRules';

export interface ReviewOutcome {
  /** The reviews known: all of them where every call is answered; else (the forecast's) those the cache holds. */
  reviews: PerFunctionReview[];
  failed: FailedUnit[];
  /** Functions the completeness check had to re-run solo. */
  recovered: string[];
  /** Functions answered from the result cache, and asked. */
  functions: { cached: number; asked: number };
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
    ...intentPacket(file.intent),
    ...removedCallers(file),
  };
}

/** Callers of functions the change removed: no row carries them, so every Step 3 call of the file does. */
function removedCallers(file: FileUnderReview) {
  const removed = Object.entries(file.callers ?? {}).filter(([name]) => name.endsWith(' (removed)'));
  return removed.length ? { callers_of_removed: Object.fromEntries(removed) } : {};
}

/** A function's row in a Step 3 packet: its fields and, where the change altered its signature, its callers. */
const rowOf = (file: FileUnderReview) => (f: FunctionRow) => {
  const callers = file.callers?.[f.qualified_name];
  return { ...functionFields(f), ...(callers ? { callers } : {}) };
};

const functionFields = (f: FunctionRow) => ({
  function_qualified_name: f.qualified_name,
  kind: f.kind,
  visibility: f.visibility,
  role_in_file: f.role_in_file,
  start_line: f.start_line,
  ...(f.end_line != null ? { end_line: f.end_line } : {}),
});

/**
 * A function's result-cache key: its own text and name, the file it lives in, and what its verdicts hang on
 * beyond that — the Step 3 prompt, model and effort, the project context files, whether concurrency rules
 * apply, and whether this is a diff review. Not the rest of the file, the companion or the Step 2
 * breadcrumbs: those change with any edit elsewhere (the breadcrumbs with every re-run of Step 2), and a
 * verdict about unchanged code rarely does. Lines come from the ranges Step 2 reported, the parser's where it knows the language.
 */
function functionKey(
  ctx: StageSetup,
  { file, step1 }: Pick<FunctionsOfFile, 'file' | 'step1'>,
  fn: FunctionRow,
  range: [number, number],
): string {
  return ctx.cache.keyFor(
    {
      model: ctx.models.review,
      ...effortOf(ctx, 'review'),
      system: fileSystem(ctx.models, 'review'),
      record: PerFunctionReview,
      tools: true,
    },
    {
      grain: 'function',
      instructions: STEP_DIRECTIVES.review,
      context: ctx.context,
      path: file.entry.path,
      // Positions left out: an edit above the function moves it without changing it.
      function: functionFields({ ...fn, start_line: 0, end_line: null }),
      text: file.primary.lines.slice(range[0] - 1, range[1]).join('\n'),
      concurrency_present: step1.concurrency_present,
      diff: Boolean(file.changedRanges),
      // The rules its request says for the file.
      ...ruleKey(file),
      // What the change removed in or just after the function, and what it is for: its verdicts hang on those too.
      ...removedIn(file, range),
      ...intentPacket(file.intent),
      ...removedCallers(file),
      ...(file.callers?.[fn.qualified_name] ? { callers: file.callers[fn.qualified_name] } : {}),
    },
  );
}

function removedIn(file: FileUnderReview, [from, to]: [number, number]) {
  // A deleted file's text bears on every function of a file that still uses it.
  const runs = file.primary.removed?.filter((r) => r.from || (r.before >= from && r.before <= to + 1));
  return runs?.length ? { removed: runs.map(({ base: _base, before: _before, ...r }) => r) } : {};
}

/** A cached review moved to where its function starts now (an edit above it shifts every line). */
function rebase(review: PerFunctionReview, fn: FunctionRow): PerFunctionReview {
  const shift = fn.start_line - review.start_line;
  return {
    ...review,
    start_line: fn.start_line,
    verdicts: review.verdicts.map((v) => ({ ...v, line: v.line === null ? null : v.line + shift })),
  };
}

/** The lines a function-level verdict may cite: the function's own, where its end is known. */
const linesOf = (f: FunctionRow): LineRange | null =>
  f.end_line != null && f.end_line >= f.start_line ? [f.start_line, f.end_line] : null;

/** A file's functions to review, with what Steps 1 and 2 said about the file. */
interface FunctionsOfFile {
  file: FileUnderReview;
  step1: Step1Record;
  analysis: FileAnalysis;
  functions: FunctionRow[];
}

/**
 * Each function's result-cache key, and its cached review moved to where the function starts now (null where
 * none is kept, or a cited line no longer fits): what a run reuses, and what its forecast counts as answered.
 */
async function recallReviews(ctx: StageSetup, of: FunctionsOfFile) {
  const { file, analysis, functions } = of;
  const ranges = functionRanges(analysis.functions, file.primary.lines.length);
  const keys = new Map(
    functions.map((f) => [f.qualified_name, functionKey(ctx, of, f, ranges.get(f.qualified_name)!)]),
  );
  const known = await Promise.all(
    functions.map(async (f) => {
      const stored = await ctx.cache.recall(keys.get(f.qualified_name)!, PerFunctionReview);
      const review = stored && rebase(stored, f);
      return review && verdictLineErrors(f, review.verdicts, file).length === 0 ? review : null;
    }),
  );
  return { keys, known };
}

/**
 * The functions the cache does not answer go solo or in batches, each call answered by `ask`; then every
 * function no reply answered for goes again, solo. Where an answer is not known before the run asks (the
 * forecast's), neither is what is missing: the reviews are those the cache holds.
 */
export async function reviewFunctions(
  ctx: StageSetup,
  ask: Ask,
  of: FunctionsOfFile,
  onReviewed: (count: number) => void,
): Promise<ReviewOutcome> {
  const { file, functions } = of;
  const crumbs = breadcrumbs(file, of.step1, of.analysis);
  const { keys, known } = await recallReviews(ctx, of);
  const cached = known.filter((r): r is PerFunctionReview => r !== null);
  onReviewed(cached.length);

  const todo = functions.filter((_, i) => known[i] === null);
  const plan = planReviews(todo);
  const unit: ReviewUnit = { ask, file, crumbs, ...fileSharers(ctx, file, plan) };
  const first = await Promise.all([
    ...plan.solo.map((f) => reviewSolo(unit, f)),
    ...plan.batches.map((b) => reviewBatch(unit, b)),
  ]);
  const counted = { functions: { cached: cached.length, asked: todo.length } };
  if (!first.every((r) => r !== undefined)) return { reviews: cached, failed: [], recovered: [], ...counted };
  const reviews = first.flatMap((r) => r.reviews);
  onReviewed(reviews.length);

  const missing = missingFunctions(
    todo,
    reviews.map((r) => r.function_qualified_name),
  );
  const rerun = await Promise.all(missing.map((f) => reviewSolo({ ask, file, crumbs }, f)));
  const recovered = rerun.flatMap((r) => r?.reviews ?? []);
  onReviewed(recovered.length);
  const fresh = [...reviews, ...recovered];
  // Kept with the start line it was asked at, which its verdict lines are relative to (see rebase).
  const askedAt = new Map(todo.map((f) => [f.qualified_name, f.start_line]));
  await Promise.all(
    fresh.map((r) =>
      ctx.cache.remember(keys.get(r.function_qualified_name)!, {
        ...r,
        start_line: askedAt.get(r.function_qualified_name) ?? r.start_line,
      }),
    ),
  );
  // In inventory order, whatever came from where: the challenge packet built from them is then the same on a rerun.
  const index = new Map(functions.map((f, i) => [f.qualified_name, i]));
  return {
    reviews: [...cached, ...fresh].sort(
      (a, b) => (index.get(a.function_qualified_name) ?? 0) - (index.get(b.function_qualified_name) ?? 0),
    ),
    failed: rerun.flatMap((r) => r?.failed ?? []),
    recovered: recovered.map((r) => r.function_qualified_name),
    ...counted,
  };
}

/**
 * Units that start together on a model where the file is not cached yet would each write it: one prime writes
 * it first. Every unit planned asks the model (Step 3 is cached per function, before the plan), so they count.
 */
function fileSharers(ctx: StageSetup, file: FileUnderReview, plan: ReviewPlan): { sharers?: PrefixSharers } {
  const units = plan.solo.length + plan.batches.length;
  return units > 1 && !file.warm.has(warmKey(ctx.models, 'review')) ? { sharers: new PrefixSharers(units) } : {};
}

/** What every review call about a file carries: who answers it, the file, Step 2's breadcrumbs, the units that prime the file first. */
interface ReviewUnit {
  ask: Ask;
  file: FileUnderReview;
  crumbs: object;
  sharers?: PrefixSharers;
}

interface UnitResult {
  reviews: PerFunctionReview[];
  failed: FailedUnit[];
}

/** A function's own call; undefined where its answer is not known before the run asks. */
async function reviewSolo(
  { ask, file, crumbs, sharers }: ReviewUnit,
  fn: FunctionRow,
): Promise<UnitResult | undefined> {
  const label = `Step 3 review ${file.entry.path} ${fn.qualified_name}`;
  const outcome = await ask('review', {
    label,
    record: PerFunctionReview,
    cacheKey: false,
    ...(sharers ? { primeFile: sharers.sharer() } : {}),
    packet: { ...crumbs, ...rowOf(file)(fn) },
    check: (r) => verdictLineErrors(fn, r.verdicts, file),
    ...excerpt([fn]),
  });
  if (!outcome) return undefined;
  if (!outcome.ok)
    return {
      reviews: [],
      failed: [{ step: 'review', file: file.entry.path, unit: fn.qualified_name, reason: outcome.reason }],
    };
  // The name and start line are the keys the pipeline asked with; keep them as asked.
  return {
    reviews: [
      {
        ...outcome.value,
        file_path: file.entry.path,
        function_qualified_name: fn.qualified_name,
        start_line: fn.start_line,
      },
    ],
    failed: [],
  };
}

/**
 * A failed batch is not reported here: its functions are missing, and the completeness check re-runs them.
 * A batch too long for the window (an outlined file's functions in full) goes again in halves.
 */
async function reviewBatch(unit: ReviewUnit, batch: FunctionRow[]): Promise<UnitResult | undefined> {
  const { ask, file, crumbs, sharers } = unit;
  const asked = new Map(batch.map((f) => [f.qualified_name, f]));
  const outcome = await ask('review', {
    label: `Step 3 review ${file.entry.path} batch of ${batch.length}`,
    record: BatchReview,
    cacheKey: false,
    ...(sharers ? { primeFile: sharers.sharer() } : {}),
    packet: { ...crumbs, functions: batch.map(rowOf(file)) },
    check: (b) => checkBatch(b, asked, file),
    ...excerpt(batch),
  });
  if (!outcome) return undefined;
  if (!outcome.ok && outcome.tooLong && batch.length > 1) {
    const half = Math.ceil(batch.length / 2);
    const halves = await Promise.all(
      [batch.slice(0, half), batch.slice(half)].map((b) => reviewBatch({ ask, file, crumbs }, b)),
    );
    return { reviews: halves.flatMap((h) => h?.reviews ?? []), failed: [] };
  }
  if (!outcome.ok) return { reviews: [], failed: [] };
  return { reviews: outcome.value.reviews.map((r) => ({ ...r, file_path: file.entry.path })), failed: [] };
}

/** For a file sent as an outline: the functions under review, in full. */
function excerpt(functions: FunctionRow[]): { excerpt?: LineRange[] } {
  const ranges = functions.map((f): LineRange => linesOf(f) ?? [f.start_line, f.start_line]);
  return { excerpt: ranges.sort((a, b) => a[0] - b[0]) };
}

/**
 * A batch answers for its own file, and only for the functions it was asked about, each at most once.
 * Omissions are left to the completeness check.
 */
export function checkBatch(batch: BatchReview, asked: Map<string, FunctionRow>, file: FileUnderReview): string[] {
  const errors: string[] = [];
  if (batch.file_path !== file.entry.path)
    errors.push(`file_path: "${batch.file_path}" is not the file under review; answer for "${file.entry.path}"`);
  const seen = new Set<string>();
  batch.reviews.forEach((r, i) => {
    const name = r.function_qualified_name;
    const fn = asked.get(name);
    if (!fn)
      errors.push(
        `reviews.${i}: "${name}" was not asked for; review only ${[...asked.keys()].map((n) => `"${n}"`).join(', ')}`,
      );
    else if (seen.has(name)) errors.push(`reviews.${i}: "${name}" is reviewed twice`);
    seen.add(name);
    if (fn) errors.push(...verdictLineErrors(fn, r.verdicts, file));
  });
  return errors;
}

/** Cited lines exist, and lie within the function (a finding elsewhere belongs to another function's review). */
function verdictLineErrors(fn: FunctionRow, verdicts: Verdict[], file: FileUnderReview): string[] {
  const own = linesOf(fn);
  return verdicts.flatMap((v) => {
    const exists = lineErrors(`${fn.qualified_name} ${v.rule_id}`, v.line, file.primary.lines.length);
    if (exists.length || v.line === null || !own || (v.line >= own[0] && v.line <= own[1])) return exists;
    return [
      `${fn.qualified_name} ${v.rule_id}: line ${v.line} is outside the function (lines ${own[0]}-${own[1]}); cite a line inside it`,
    ];
  });
}
