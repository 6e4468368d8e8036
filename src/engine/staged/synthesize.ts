/**
 * Step 5: one sub-agent reads the pipeline's records — never source — and writes the cross-file view
 * and the global findings G1–G4. When the records do not fit one request (or are too many files for one
 * answer), it goes by parts: synthesisParts.ts; a file whose records alone do not fit goes with its function
 * rows shortened (synthesisRecords.ts).
 */
import { userContent } from '../layout';
import { SynthesisMerge, SynthesisResult } from '../../model/records';
import type { UnitOutcome, UnitSpec } from '../unit';
import { SYNTHESIS_SYSTEM } from './prompts';
import { MAX_TOKENS, REPLY_ROOM, type StageContext, type StageSetup } from './context';
import { fitsOneAnswer, planParts, synthesizeByParts, type Ask } from './synthesisParts';
import { checkSynthesis, rowNotes, salvageSynthesis, synthesisPacket, type SynthesisInput } from './synthesisRecords';

/** Plans by parts tried before synthesis is reported as not fitting (each refusal teaches the window guard). */
const MAX_PLANS = 3;

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
 * else by parts, a file too large alone with its function rows shortened — one request again when that is
 * all it took; a part refused as too long (the window guard has learned by then) is planned again.
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
  for (let attempt = 0; attempt < MAX_PLANS; attempt++) {
    const plan = planParts(setup, input);
    const notes = rowNotes(plan.input);
    const shortened = synthesisSpec(setup, plan.input);
    if (notes.length && fitsOneAnswer(plan.input) && setup.fits(shortened, REPLY_ROOM)) {
      planned(1);
      outcome = await ask(shortened);
    } else outcome = await synthesizeByParts(setup, plan, ask, planned);
    if (!outcome || outcome.ok || !outcome.tooLong) return outcome && withNotes(outcome, notes);
  }
  return outcome;
}

/** What was left out of the records, said beside what the answer's salvage left out. */
function withNotes<T>(outcome: UnitOutcome<T>, notes: string[]): UnitOutcome<T> {
  if (!outcome.ok || notes.length === 0) return outcome;
  return { ...outcome, leftOut: [...notes, ...(outcome.leftOut ?? [])] };
}

/**
 * The calls Step 5 will make over `input`, `lookup` answering what the result cache holds: none, one, or the
 * parts it does not hold and then the merge over them (merges in rounds, which only a review of many hundred
 * parts needs, are not foreseen).
 */
export async function plannedSynthesisCalls(setup: StageSetup, input: SynthesisInput, lookup: Ask): Promise<number> {
  let asked = 0;
  let byParts = false;
  let merge = false;
  const outcome = await synthesizeWith(
    setup,
    input,
    async (spec) => {
      merge ||= (spec.record as unknown) === SynthesisMerge;
      const known = await lookup(spec);
      if (!known) asked++;
      return known;
    },
    (units) => (byParts ||= units > 1),
  );
  // A part not held: the merge over the parts' answers is asked after it.
  return asked + (outcome === undefined && byParts && !merge ? 1 : 0);
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
