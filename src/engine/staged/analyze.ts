/** Step 2: the file's story, its function inventory and the file-level rules F1–F3, in one read. */
import { FileAnalysis, type Step1Record } from '../../model/records';
import type { UnitOutcome } from '../unit';
import { lineErrors, type SourceFile } from '../source';
import { fileCall, MAX_TOKENS, MIN_TOKENS, type FileCall, type FileUnderReview, type StageContext } from './context';
import { parseLocation } from '../../model/location';
import { reconcile, type Reconciliation } from './reconcile';

/** Functions are listed only for code and test code. */
const hasFunctions = (step1: Step1Record) => step1.review_as === 'code_review' || step1.primary_kind === 'test_code';

/** Room for one row per inventory function (about 80 tokens each) beyond the usual budget, up to 64k. */
const analyzeMaxTokens = (functions: number) => Math.min(64_000, Math.max(MAX_TOKENS, 4_000 + 100 * functions));
/** At the least, the rows and the story. */
const analyzeMinTokens = (functions: number) => Math.min(64_000, Math.max(MIN_TOKENS, 1_000 + 80 * functions));

export type AnalyzeOutcome = UnitOutcome<FileAnalysis> & { reconciled?: Reconciliation };

export async function analyze(ctx: StageContext, file: FileUnderReview, step1: Step1Record): Promise<AnalyzeOutcome> {
  const outcome = await fileCall(ctx, file, 'analyze', analyzeCall(file, step1));
  return outcome.ok ? { ...outcome, ...settleAnalysis(file, step1, outcome.value) } : outcome;
}

/** The request of Step 2 (the run's and the forecast's). */
export function analyzeCall(file: FileUnderReview, step1: Step1Record): FileCall<FileAnalysis> {
  const inventory = inventoryFor(file, step1);
  return {
    label: `Step 2 analyze ${file.entry.path}`,
    record: FileAnalysis,
    packet: {
      ...step1,
      companion_path: file.entry.companion_path,
      // The rows Step 2 copies; the signature line only places the outline.
      ...(inventory ? { function_inventory: inventory.map(({ signature_line: _, ...row }) => row) } : {}),
    },
    check: (a) => checkAnalysis(a, file, step1),
    ...(inventory
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
