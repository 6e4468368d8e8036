/**
 * Step 2 of a file whose function inventory, with the answer that lists it, does not fit one request: the
 * inventory goes in contiguous parts, each a call with the file (or its outline) as context, cached as a unit of
 * its own. Part 1 also tells the file's story and applies F1–F3 to the whole file, as the single call does;
 * the later parts describe their functions only. The parts are merged in inventory order into one record.
 */
import type { FileAnalysis } from '../../model/records';
import type { UnitOutcome } from '../unit';
import { fileSpec, MIN_TOKENS, type FileCall, type FileUnderReview, type FitSetup, type StageSetup } from './context';

/** The most output a Step 2 request asks for (the models' output limit). */
export const ANALYZE_OUTPUT_CAP = 64_000;
/** Output for the story and the file-level findings, and per function row: the least, and the budget asked. */
const BASE_MIN = 1_000;
const ROW_MIN = 80;
const BASE_MAX = 4_000;
const ROW_MAX = 100;

/** The least output the record of `rows` functions can do with (uncapped: more than the cap means it must split). */
export const rowsMinTokens = (rows: number) => Math.max(MIN_TOKENS, BASE_MIN + ROW_MIN * rows);
/** The output a part of `rows` functions asks for: room for rows as long as a real model writes them. */
const partMaxTokens = (rows: number) => Math.min(ANALYZE_OUTPUT_CAP, Math.max(MIN_TOKENS, BASE_MAX + ROW_MAX * rows));

/** Rows [from, to) of the inventory, part `index` (from 0) of `of`. */
export interface InventoryPart {
  index: number;
  of: number;
  from: number;
  to: number;
}

/** What a part's packet adds, so the model knows which rows are its own and whether the story is its to tell. */
export function partPacket(part: InventoryPart, functions: number): object {
  return {
    inventory_part: { part: part.index + 1, of: part.of, first_row: part.from + 1, last_row: part.to, functions },
  };
}

/** A part's output budget: the rows it lists, within the cap. */
export function partBudget(part: InventoryPart): Pick<FileCall<unknown>, 'maxTokens' | 'minTokens'> {
  const rows = part.to - part.from;
  return { maxTokens: partMaxTokens(rows), minTokens: Math.min(ANALYZE_OUTPUT_CAP, rowsMinTokens(rows)) };
}

/** The later parts leave the file-wide fields to part 1. */
export function partErrors(a: FileAnalysis, part: InventoryPart): string[] {
  if (part.index === 0) return [];
  return (['invariants', 'risk_flags', 'file_level_findings'] as const)
    .filter((k) => a[k].length > 0)
    .map((k) => `${k} must be empty in part ${part.index + 1} of ${part.of}: part 1 answers it for the whole file`);
}

/** `of` near-equal contiguous ranges of `n` rows. */
function ranges(n: number, of: number): InventoryPart[] {
  const size = Math.ceil(n / of);
  const parts: InventoryPart[] = [];
  for (let from = 0; from < n; from += size)
    parts.push({ index: parts.length, of: 0, from, to: Math.min(n, from + size) });
  return parts.map((p) => ({ ...p, of: parts.length }));
}

/**
 * How Step 2 of the file goes at its present view: undefined, one call as always (no inventory to split, or the
 * whole of it fits with its answer); else the parts, each fitting at its full output budget; [] when not even
 * one function per call fits.
 */
export function partsAtView(
  setup: StageSetup,
  file: FileUnderReview,
  functions: number,
  call: (part: InventoryPart | undefined) => FileCall<FileAnalysis>,
): InventoryPart[] | undefined {
  if (functions === 0) return undefined;
  const fits = (part: InventoryPart | undefined, atMax: boolean) => {
    const spec = fileSpec(setup, file, 'analyze', call(part));
    return setup.fits(atMax ? { ...spec, minTokens: spec.maxTokens } : spec);
  };
  if (rowsMinTokens(functions) <= ANALYZE_OUTPUT_CAP && fits(undefined, false)) return undefined;
  // The most rows a part can hold, probed on the first rows; then parts of equal size, more if one does not fit.
  const probe = (rows: number) => fits({ index: 0, of: 2, from: 0, to: rows }, true);
  if (!probe(1)) return [];
  let lo = 1;
  let hi = functions;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (probe(mid)) lo = mid;
    else hi = mid - 1;
  }
  for (let of = Math.max(2, Math.ceil(functions / lo)); of <= functions; of++) {
    const parts = ranges(functions, of);
    if (parts.every((p) => fits(p, true))) return parts;
  }
  return [];
}

/**
 * The parts of the file's Step 2, cutting the file's view (fit.ts) while not even one function per call fits;
 * undefined: one call, as it always went.
 */
export async function planParts(
  ctx: FitSetup,
  file: FileUnderReview,
  functions: number,
  call: (part: InventoryPart | undefined) => FileCall<FileAnalysis>,
): Promise<InventoryPart[] | undefined> {
  for (;;) {
    const parts = partsAtView(ctx, file, functions, call);
    if (parts === undefined || parts.length > 0) return parts;
    // Nothing more to cut: the single call fails with the window's reason, never sent cut.
    if (!(await ctx.shrink(file))) return undefined;
  }
}

/** The parts' answers as one record: part 1's story and file-level findings, every part's functions in order. */
export function mergeParts(outcomes: UnitOutcome<FileAnalysis>[], parts: InventoryPart[]): UnitOutcome<FileAnalysis> {
  const failed = outcomes.findIndex((o) => !o.ok);
  if (failed >= 0) {
    const o = outcomes[failed]!;
    return o.ok ? o : { ...o, reason: `part ${failed + 1} of ${parts.length}: ${o.reason}` };
  }
  const values = outcomes.map((o) => (o.ok ? o.value : undefined)!);
  const leftOut = outcomes.flatMap((o) => (o.ok ? (o.leftOut ?? []) : []));
  return {
    ok: true,
    value: { ...values[0]!, functions: values.flatMap((v) => v.functions) },
    repairs: outcomes.reduce((n, o) => n + (o.ok ? o.repairs : 0), 0),
    ...(leftOut.length ? { leftOut } : {}),
    ...(outcomes.every((o) => o.cached) ? { cached: true as const } : {}),
  };
}
