/**
 * What Step 5 reads and how its answer is checked, for the one synthesis request (synthesize.ts) and the
 * parts and merges of a large review (synthesisParts.ts) alike: the records packet, and the cross-file
 * places checked against the reviewed files' lines.
 *
 * A file whose records alone do not fit one request goes shorter where they grow with the file, its function
 * rows: first the rows of the functions with surviving findings in full and the others by name, then those
 * rows and only the number of the others. The report's notes say so.
 */
import type { Finding } from '../../model/finding';
import { parseLocation } from '../../model/location';
import type { CrossFileFinding, FileAnalysis, FileEntry, FunctionRow, Step1Record } from '../../model/records';
import { lineErrors } from '../source';

export interface SynthesisInput {
  reviewRoots: string[];
  entries: FileEntry[];
  step1: Step1Record[];
  analyses: FileAnalysis[];
  /** Surviving findings only (post-challenge, post-tiebreak). */
  findings: Finding[];
  /** Line counts of the reviewed files, for checking cited locations. */
  lineCounts: Map<string, number>;
  /** Files whose function rows go shorter than in full, to fit the window. */
  rowForms?: ReadonlyMap<string, ShortRows>;
}

/** How a file's function rows go when they do not fit in full, longer first: the others' names, then their number. */
const SHORT_ROWS = ['names', 'count'] as const;
type ShortRows = (typeof SHORT_ROWS)[number];

/** The input with `path`'s rows in their next shorter form; undefined when none is left or it has no rows. */
export function shortenRows(input: SynthesisInput, path: string): SynthesisInput | undefined {
  const now = input.rowForms?.get(path);
  const form = SHORT_ROWS[now ? SHORT_ROWS.indexOf(now) + 1 : 0];
  if (!form || !input.analyses.some((a) => a.file_path === path && a.functions.length > 0)) return undefined;
  return { ...input, rowForms: new Map([...(input.rowForms ?? []), [path, form]]) };
}

/** The report's notes for the files whose rows went shorter. */
export function rowNotes(input: SynthesisInput): string[] {
  const forms = input.rowForms;
  if (!forms?.size) return [];
  const flagged = flaggedFunctions(input.findings);
  return input.analyses.flatMap((a) => {
    const form = forms.get(a.file_path);
    if (!form) return [];
    const listed = shortRows(a.functions, form, flagged.get(a.file_path)).functions.length;
    const others = a.functions.length - listed;
    const rest = form === 'names' ? `only the names of the other ${others}` : `only the number of the other ${others}`;
    return [
      `${a.file_path}: synthesis read the rows of ${listed} of its ${a.functions.length} functions (those with findings) and ${rest}, to fit the model's context window`,
    ];
  });
}

/** The functions of each file that a surviving finding is about: their rows are kept in every form. */
function flaggedFunctions(findings: Finding[]): Map<string, Set<string>> {
  const flagged = new Map<string, Set<string>>();
  for (const f of findings) if (f.function) flagged.set(f.file, (flagged.get(f.file) ?? new Set()).add(f.function));
  return flagged;
}

/** A file's rows in a short form: the flagged rows in full, and what stands for the others. */
function shortRows(rows: FunctionRow[], form: ShortRows, flagged: Set<string> | undefined) {
  const others = rows.filter((r) => !flagged?.has(r.qualified_name));
  return {
    functions: rows.filter((r) => flagged?.has(r.qualified_name)),
    // Said in the packet, so that the model does not take `functions` for the whole inventory.
    functions_not_listed: {
      count: others.length,
      ...(form === 'names' ? { names: others.map((r) => r.qualified_name) } : {}),
      why: 'the whole inventory does not fit this request: only the functions with surviving findings are listed in full',
    },
  };
}

/** Keeps the synthesis and the cross-file findings whose places check out; says in plain words why the others were dropped. */
export function salvageSynthesis<R extends { cross_file_findings: CrossFileFinding[] }>(
  result: R,
  lineCounts: Map<string, number>,
): { value: R; leftOut: string[] } {
  const leftOut: string[] = [];
  const kept = result.cross_file_findings.filter((f) => {
    const problems = f.locations.flatMap((loc) => locationProblem(loc, lineCounts)?.user ?? []);
    if (problems.length)
      leftOut.push(
        `cross-file finding ${f.rule_id} "${f.action.trim().replace(/\.$/, '')}" dropped: ${problems.join('; ')}`,
      );
    return problems.length === 0;
  });
  return { value: { ...result, cross_file_findings: kept }, leftOut };
}

export function synthesisPacket(input: SynthesisInput) {
  const finding = (f: Finding) => ({
    file_path: f.file,
    rule_id: f.rule_id,
    function_qualified_name: f.function,
    line: f.line,
    priority: f.priority,
    confidence: f.confidence,
    action: f.action,
    rationale: f.rationale,
  });
  const flagged = input.rowForms?.size ? flaggedFunctions(input.findings) : undefined;
  return {
    review_roots: input.reviewRoots,
    file_entries: input.entries,
    step1_results: input.step1,
    // Findings reach synthesis only after the filters: the analyses go without their raw file-level findings.
    file_analyses: input.analyses.map(({ file_level_findings: _dropped, ...rest }) => {
      const form = input.rowForms?.get(rest.file_path);
      return form ? { ...rest, ...shortRows(rest.functions, form, flagged?.get(rest.file_path)) } : rest;
    }),
    function_findings: input.findings.filter((f) => f.source === 'function_rule').map(finding),
    file_level_findings: input.findings.filter((f) => f.source === 'file_rule').map(finding),
  };
}

/** Every cross-file location is "path:line" in a reviewed file, on a line that exists. */
export function checkSynthesis(
  result: { cross_file_findings: CrossFileFinding[] },
  lineCounts: Map<string, number>,
): string[] {
  return result.cross_file_findings.flatMap((f, i) =>
    f.locations.flatMap((loc, j) => {
      const problem = locationProblem(loc, lineCounts);
      return problem ? [`cross_file_findings.${i}.locations.${j}: ${problem.repair}`] : [];
    }),
  );
}

/** What is wrong with one cited location: for the repair turn (the model's terms), and for the user. */
function locationProblem(loc: string, lineCounts: Map<string, number>): { repair: string; user: string } | null {
  const parsed = parseLocation(loc);
  if (!parsed?.path)
    return { repair: `"${loc}" must be "path:line"`, user: `cites "${loc}", which is not a file:line place` };
  const count = lineCounts.get(parsed.path);
  if (count === undefined)
    return {
      repair: `"${parsed.path}" is not one of the reviewed files`,
      user: `cites ${parsed.path}, which was not reviewed`,
    };
  const [error] = lineErrors('line', parsed.line, count);
  return error
    ? { repair: error, user: `cites ${parsed.path}:${parsed.line}, but ${parsed.path} has ${count} lines` }
    : null;
}
