/**
 * Step 5: one sub-agent reads the pipeline's records — never source — and writes the cross-file view
 * and the global findings G1–G4. When the records do not fit one request (or are too many files for one
 * answer), it goes by parts: synthesisParts.ts.
 */
import { userContent } from '../layout';
import {
  SynthesisResult,
  type CrossFileFinding,
  type FileAnalysis,
  type FileEntry,
  type Step1Record,
} from '../../model/records';
import type { UnitOutcome, UnitSpec } from '../unit';
import type { Finding } from '../../model/finding';
import { SYNTHESIS_SYSTEM } from './prompts';
import { lineErrors } from '../source';
import { MAX_TOKENS, type StageContext, type StageSetup } from './context';
import { parseLocation } from '../../model/location';
import { fitsOneAnswer, REPLY_ROOM, synthesizeByParts, type Ask } from './synthesisParts';

/** Plans by parts tried before synthesis is reported as not fitting (each refusal teaches the window guard). */
const MAX_PLANS = 3;

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

/** The run's Step 5; `planned` hears how many units it will ask (one, or the parts and their merges), `answered` each answer. */
export async function synthesize(
  ctx: StageContext,
  input: SynthesisInput,
  progress: { planned: (units: number) => void; answered: () => void },
): Promise<UnitOutcome<SynthesisResult>> {
  const ask: Ask = async (spec) => {
    const outcome = await ctx.runner.run(spec);
    progress.answered();
    return outcome;
  };
  return (await synthesizeWith(ctx, input, ask, progress.planned))!;
}

/**
 * Step 5 with `ask` answering its units: the runner for a run, the result cache for a forecast (which
 * answers undefined for a unit it cannot know, and then so does this). One request when the records fit it,
 * else by parts; a part refused as too long (the window guard has learned by then) is planned again.
 */
export async function synthesizeWith(
  setup: StageSetup,
  input: SynthesisInput,
  ask: Ask,
  planned: (units: number) => void = () => undefined,
): Promise<UnitOutcome<SynthesisResult> | undefined> {
  const whole = synthesisSpec(setup, input);
  if (fitsOneAnswer(input) && setup.fits(whole, REPLY_ROOM)) {
    planned(1);
    const outcome = await ask(whole);
    if (!outcome || outcome.ok || !outcome.tooLong) return outcome;
  }
  let outcome: UnitOutcome<SynthesisResult> | undefined;
  for (let plan = 0; plan < MAX_PLANS; plan++) {
    outcome = await synthesizeByParts(setup, input, ask, planned);
    if (!outcome || outcome.ok || !outcome.tooLong) return outcome;
  }
  return outcome;
}

/** The request of Step 5 (the run's and the forecast's). */
export function synthesisSpec(ctx: StageSetup, input: SynthesisInput): UnitSpec<SynthesisResult> {
  return {
    step: 'synthesize',
    label: 'Step 5 synthesize',
    model: ctx.models.synthesize,
    system: SYNTHESIS_SYSTEM,
    record: SynthesisResult,
    // Project context files are conventions, not source under review; no tools, so no source can be read.
    content: userContent({ context: ctx.context, packet: synthesisPacket(input) }),
    tools: false,
    maxTokens: MAX_TOKENS,
    check: (r) => checkSynthesis(r, input.lineCounts),
    salvage: (r) => salvageSynthesis(r, input.lineCounts),
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
