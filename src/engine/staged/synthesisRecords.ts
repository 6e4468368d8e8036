/**
 * What Step 5 reads and how its answer is checked, for the one synthesis request (synthesize.ts) and the
 * parts and merges of a large review (synthesisParts.ts) alike: the records packet, and the cross-file
 * places checked against the reviewed files' lines.
 */
import type { Finding } from '../../model/finding';
import { parseLocation } from '../../model/location';
import type { CrossFileFinding, FileAnalysis, FileEntry, Step1Record } from '../../model/records';
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
  return {
    review_roots: input.reviewRoots,
    file_entries: input.entries,
    step1_results: input.step1,
    // Findings reach synthesis only after the filters: the analyses go without their raw file-level findings.
    file_analyses: input.analyses.map(({ file_level_findings: _dropped, ...rest }) => rest),
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
