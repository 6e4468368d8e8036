/** Step 2: the file's story, its function inventory and the file-level rules F1–F3, in one read. */
import { FileAnalysis, type Step1Record } from '../../model/records';
import type { UnitOutcome } from '../unit';
import { lineErrors, type SourceFile } from '../source';
import { MAX_TOKENS, type Ask, type FileCall, type FileUnderReview, type FitSetup } from './context';
import { stepRule } from './fileRules';
import { parseLocation } from '../../model/location';
import type { LineRange } from '../../model/lines';
import { reconcile, type Reconciliation } from './reconcile';
import {
  ANALYZE_OUTPUT_CAP,
  mergeParts,
  rowsMinTokens,
  partBudget,
  partErrors,
  partPacket,
  planParts,
  type InventoryPart,
} from './analyzeParts';

/** Functions are listed only for code and test code. */
const hasFunctions = (step1: Step1Record) => step1.review_as === 'code_review' || step1.primary_kind === 'test_code';

/** Room for one row per inventory function (about 80 tokens each) beyond the usual budget, up to 64k. */
const analyzeMaxTokens = (functions: number) =>
  Math.min(ANALYZE_OUTPUT_CAP, Math.max(MAX_TOKENS, 4_000 + 100 * functions));
/** At the least, the rows and the story. */
const analyzeMinTokens = (functions: number) => Math.min(ANALYZE_OUTPUT_CAP, rowsMinTokens(functions));

/** Step 2's answer, from one call or its parts merged; undefined where an answer is known only once the run asks. */
export async function analyzeFile(
  ctx: FitSetup,
  ask: Ask,
  file: FileUnderReview,
  step1: Step1Record,
): Promise<UnitOutcome<FileAnalysis> | undefined> {
  const parts = await analyzeParts(ctx, file, step1);
  const calls = parts ? parts.map((p) => analyzeCall(file, step1, p)) : [analyzeCall(file, step1)];
  const answers = await Promise.all(calls.map((call) => ask('analyze', call)));
  if (!answers.every((a) => a !== undefined)) return undefined;
  return parts ? mergeParts(answers, parts) : answers[0];
}

/** Step 2's parts when the inventory and its answer do not fit one request (analyzeParts.ts); undefined: one call. */
function analyzeParts(ctx: FitSetup, file: FileUnderReview, step1: Step1Record): Promise<InventoryPart[] | undefined> {
  const functions = inventoryFor(file, step1)?.length ?? 0;
  return planParts(ctx, file, functions, (part) => analyzeCall(file, step1, part));
}

/** The request of Step 2, or of one part of it (the run's and the forecast's). */
function analyzeCall(file: FileUnderReview, step1: Step1Record, part?: InventoryPart): FileCall<FileAnalysis> {
  const inventory = inventoryFor(file, step1);
  const rows = inventory && part ? inventory.slice(part.from, part.to) : inventory;
  return {
    label: `Step 2 analyze ${file.entry.path}${part ? ` part ${part.index + 1}/${part.of}` : ''}`,
    record: FileAnalysis,
    packet: {
      ...step1,
      companion_path: file.entry.companion_path,
      // The rows Step 2 copies; the signature line only places the outline.
      ...(rows ? { function_inventory: rows.map(({ signature_line: _, ...row }) => row) } : {}),
      ...(part && inventory ? partPacket(part, inventory.length) : {}),
    },
    // Functions to list with no inventory to copy: how to find them, for this call alone.
    ...(!inventory && hasFunctions(step1) ? { rule: stepRule('no-inventory') } : {}),
    check: (a) => [...checkAnalysis(a, file, step1), ...(part ? partErrors(a, part) : [])],
    // Outlined in windows, a call lists the functions of its own rows.
    ...(rows ? { about: rows.map((f): LineRange => [f.start_line, f.end_line]) } : {}),
    ...(part
      ? partBudget(part)
      : inventory
        ? { maxTokens: analyzeMaxTokens(inventory.length), minTokens: analyzeMinTokens(inventory.length) }
        : {}),
  };
}

/** An answer made the file's record: its own path, and its functions reconciled with the parser's where it knows them. */
export function settleAnalysis(
  file: FileUnderReview,
  step1: Step1Record,
  answer: FileAnalysis,
): { value: FileAnalysis; reconciled?: Reconciliation } {
  const inventory = inventoryFor(file, step1);
  const value = { ...answer, file_path: file.entry.path };
  if (!inventory) return { value };
  const reconciled = reconcile(value.functions, inventory);
  return { value: { ...value, functions: reconciled.functions }, reconciled };
}

const inventoryFor = (file: FileUnderReview, step1: Step1Record) =>
  file.inventory && hasFunctions(step1) ? file.inventory : undefined;

/**
 * Functions are listed only for code and test code; each is unique and starts on a real line. Where the
 * parser's inventory is known its rows are reconciled instead: their names and lines need no repair turn.
 */
export function checkAnalysis(a: FileAnalysis, file: FileUnderReview, step1: Step1Record): string[] {
  const errors: string[] = [];
  const lineCount = file.primary.lines.length;
  if (!hasFunctions(step1) && a.functions.length > 0)
    errors.push(`functions must be empty for a ${step1.primary_kind} file reviewed as ${step1.review_as}`);
  const seen = new Set<string>();
  if (!file.inventory)
    a.functions.forEach((f, i) => {
      if (seen.has(f.qualified_name))
        errors.push(
          `functions.${i}: qualified_name "${f.qualified_name}" appears twice; names must be unique within the file (disambiguate overloads)`,
        );
      seen.add(f.qualified_name);
      errors.push(...lineErrors(`functions.${i} (${f.qualified_name}) start_line`, f.start_line, lineCount));
      if (f.end_line != null) {
        errors.push(...lineErrors(`functions.${i} (${f.qualified_name}) end_line`, f.end_line, lineCount));
        if (f.end_line < f.start_line)
          errors.push(
            `functions.${i} (${f.qualified_name}): end_line ${f.end_line} is before start_line ${f.start_line}`,
          );
      }
    });
  a.file_level_findings.forEach((f, i) => {
    if (f.priority === 'must_fix' && f.rule_id !== 'F1')
      errors.push(`file_level_findings.${i}: ${f.rule_id} can never be must_fix (at most should_fix)`);
    errors.push(...locationErrors(`file_level_findings.${i}`, f.location, file));
  });
  return errors;
}

function locationErrors(what: string, location: string, file: FileUnderReview): string[] {
  if (/^file-wide$/i.test(location.trim())) return [];
  const parsed = parseLocation(location);
  if (!parsed) return [`${what}: location "${location}" must be "path:line", "path:start-end" or "file-wide"`];
  const target = targetFile(parsed.path, file);
  if (!target) return [`${what}: location "${location}" names a file other than ${file.entry.path}`];
  return [
    ...lineErrors(`${what} location`, parsed.line, target.lines.length),
    ...lineErrors(`${what} location end`, parsed.end ?? null, target.lines.length),
  ];
}

function targetFile(path: string | null, file: FileUnderReview): SourceFile | null {
  if (path === null || path === file.entry.path) return file.primary;
  if (file.companion && path === file.companion.path) return file.companion;
  return null;
}
