/**
 * A file's steps over its records, for the run and its forecast alike (walk.ts): the requests each step makes
 * (curateCall, analyzeFile, reviewFunctions, challengeCall), the records they settle into, and the file's
 * outcome, findings and failures. Who answers a request is the interpreter's `ask`: the run asks the model, the
 * forecast the result cache. An answer the forecast cannot know before the run asks makes the walk inexact;
 * it then goes on with the path's last answers (lastAnswers.ts) where it has them.
 */
import type { CodeFunction } from '../../model/functions';
import type { FileOutcome } from '../../model/events';
import type { FailedUnit, FilteredFinding, Finding } from '../../model/finding';
import type { Filtered } from '../../model/filter';
import type { FileStep } from '../../model/models';
import type { ChallengeResult, FileAnalysis, FileEntry, Step1Record } from '../../model/records';
import type { UnitOutcome } from '../unit';
import { analyzeFile, settleAnalysis } from './analyze';
import { planReviews } from './batching';
import { challengeCall } from './challenge';
import type { Ask, FileUnderReview, FitSetup } from './context';
import { curateCall, settleStep1 } from './curate';
import { functionsTouched } from './diffScope';
import { afterChallenge, findingsToChallenge, type FilterRequest } from './fileFilters';
import { lastAnswersKey, type LastAnswers } from './lastAnswers';
import type { Progress } from './progress';
import { reviewFunctions } from './review';
import { walk, type FileSteps } from './walk';

/** What answers a file's requests, and what else its walk does: the run's and the forecast's. */
export interface StepInterpreter {
  ask: Ask;
  /** The parser's functions, which Step 2 is reconciled with. */
  parsed(): Promise<CodeFunction[] | undefined>;
  /** For an answer not known before the run asks: what it most likely is (the path's last answers). */
  guess?: LastAnswers;
  /** A request the run will make that cannot be built yet, its input not all known (the forecast counts it). */
  unknownCall?(step: FileStep): void;
  /** The run's: the calls a step expects (default: the guess until Step 2 answers), for its schedule. */
  expect?(step: FileStep, units?: number): void;
  /** The run's progress counters. */
  progress?: Pick<Progress, 'total' | 'advance'>;
  /** The run's: keeps the path's last answers for the next forecast. */
  keep?(answers: LastAnswers): Promise<void>;
}

/** A file's walk: its outcome, findings and failures, and what the forecast reads of it. */
export interface FileWalk {
  outcome: FileOutcome;
  findings: Finding[];
  filtered: FilteredFinding[];
  failed: FailedUnit[];
  lineCount: number;
  recovered: number;
  /** For the report's notes: what was left out to fit the window, what reconciling Step 2 with the parser changed. */
  notes: string[];
  /** Every answer so far was known (always, for the run). */
  exact: boolean;
  /** Step 1 keeps the file, or would as far as anyone knows: then synthesis runs. */
  analysed: boolean;
  /** Nothing is known from this step on, neither answered nor guessed: the estimate sizes it. */
  unknownFrom?: 'curate' | 'analyze';
  /** Step 3's functions: answered from the result cache, and asked. */
  functions: { cached: number; asked: number };
}

/** A file's walk before its first step. */
export function fileWalk(entry: FileEntry): FileWalk {
  return {
    outcome: { path: entry.path, companion_path: entry.companion_path, status: 'reviewed', functions_reviewed: 0 },
    findings: [],
    filtered: [],
    failed: [],
    lineCount: 0,
    recovered: 0,
    notes: [],
    exact: true,
    analysed: false,
    functions: { cached: 0, asked: 0 },
  };
}

export function failRun(run: FileWalk, step: string, reason: string, unit = run.outcome.path): FileWalk {
  run.outcome.status = 'failed';
  run.outcome.reason = `${step}: ${reason}`;
  run.failed.push({ step, file: run.outcome.path, unit, reason });
  return run;
}

/** Steps 1–4 of a loaded file, its requests answered by `it`. */
export async function walkFile(
  setup: FitSetup,
  req: FilterRequest,
  file: FileUnderReview,
  it: StepInterpreter,
): Promise<FileWalk> {
  const run = fileWalk(file.entry);
  run.lineCount = file.primary.lines.length;
  await walk(recordSteps({ setup, req, file, it, run }));
  return run;
}

type Answered<T> = Extract<UnitOutcome<T>, { ok: true }>;

interface OneFile {
  setup: FitSetup;
  req: FilterRequest;
  file: FileUnderReview;
  it: StepInterpreter;
  run: FileWalk;
}

function recordSteps(
  one: OneFile,
): FileSteps<Answered<Step1Record>, Answered<FileAnalysis>, Filtered<Finding, FilteredFinding>> {
  const { setup, req, file, it, run } = one;
  const ask: Ask = async (step, call) => {
    const answer = await it.ask(step, call);
    if (!answer) run.exact = false;
    return answer;
  };
  return {
    async curate() {
      const answer = await ask('curate', curateCall(file));
      it.progress?.advance('curate');
      const step1 = answer ?? guessed(it.guess?.step1);
      if (!step1) {
        // Unknown: sized as a file that goes the whole way, as most source files do.
        run.unknownFrom = 'curate';
        run.analysed = true;
        return undefined;
      }
      if (!step1.ok) return void failRun(run, 'curate', step1.reason);
      run.outcome.step1 = settleStep1(file, step1.value);
      return { ...step1, value: run.outcome.step1 };
    },
    kept: (step1) => keptInPipeline(one, step1),
    async analyze(step1) {
      it.expect?.('analyze');
      // The parse began once the run's first request was out (pipeline.ts); it is needed now.
      file.inventory = await it.parsed();
      it.progress?.total('analyze', 1);
      const answer = (await analyzeFile(setup, ask, file, step1.value)) ?? guessed(it.guess?.analysis);
      it.progress?.advance('analyze');
      if (!answer) return void (run.unknownFrom = 'analyze');
      if (!answer.ok) return void failRun(run, 'analyze', answer.reason);
      const { value, reconciled } = settleAnalysis(file, step1.value, answer.value);
      run.outcome.analysis = value;
      if (reconciled) noteReconciled(run, file, reconciled);
      return { ...answer, value };
    },
    async review(step1, analysis) {
      const changed = file.changedRanges;
      const { functions: all } = analysis.value;
      const functions = changed ? functionsTouched(all, run.lineCount, changed) : all;
      it.progress?.total('review', functions.length);
      const plan = planReviews(functions);
      it.expect?.('review', plan.solo.length + plan.batches.length);
      const of = { file, step1: step1.value, analysis: analysis.value, functions };
      const reviewed = await reviewFunctions(setup, ask, of, (n) => it.progress?.advance('review', n));
      run.outcome.functions_reviewed = reviewed.reviews.length;
      run.recovered = reviewed.recovered.length;
      run.failed.push(...reviewed.failed);
      run.functions = reviewed.functions;
      return findingsToChallenge(req, step1.value, analysis.value, reviewed.reviews);
    },
    // Some findings not known yet (the forecast's): the file goes if any known one does, or if it did last time.
    challenged: (findings) => (findings.kept.length > 0 || (!run.exact && (it.guess?.challenged ?? false)) ? 1 : 0),
    challenge: (step1, analysis, findings, share) => challengeStep(one, { step1, analysis, findings, share }),
  };
}

/** An answer not known taken as its guess; undefined: neither. */
const guessed = <T>(guess: T | null | undefined): Answered<T> | undefined =>
  guess ? { ok: true, value: guess, repairs: 0 } : undefined;

/** All of the file, or (classified out of the pipeline: skipped) none; a path's last answers are kept from its first Step 1 on. */
async function keptInPipeline({ setup, file, it, run }: OneFile, step1: Answered<Step1Record>): Promise<number> {
  const { path } = file.entry;
  const { value } = step1;
  // The forecast reads only files whose last answers are kept.
  if (it.keep) {
    const firstAnswer = !step1.cached && !(await setup.cache.has(lastAnswersKey(setup.cache, path)));
    if (!value.include_in_pipeline || firstAnswer) await it.keep({ step1: value, analysis: null, challenged: false });
  }
  if (!value.include_in_pipeline) {
    run.outcome.status = 'skipped';
    run.outcome.reason = `classified as ${value.primary_kind} (review_as ${value.review_as})`;
    return 0;
  }
  run.analysed = true;
  return 1;
}

/** Step 2's function list against the parser's, in the outcome, and said when they differ. */
function noteReconciled(
  run: FileWalk,
  file: FileUnderReview,
  { added = [], rejected = [], corrected = [] }: NonNullable<FileOutcome['reconciled']>,
): void {
  run.outcome.reconciled = { added, rejected, corrected };
  if (added.length || rejected.length)
    run.notes.push(
      `${file.entry.path}: Step 2 left out ${added.length} of the parser's functions (reviewed anyway) and listed ${rejected.length} the file does not have (ignored)`,
    );
}

/** Step 4 where asked, the filters after it into the file's findings, and the file's last answers kept. */
async function challengeStep(
  { setup, req, file, it, run }: OneFile,
  a: {
    step1: Answered<Step1Record>;
    analysis: Answered<FileAnalysis>;
    findings: Filtered<Finding, FilteredFinding>;
    /** All of the file, or none: whether Step 4 is asked. */
    share: number;
  },
): Promise<void> {
  const { entry } = file;
  const asked = a.share > 0;
  run.filtered.push(...a.findings.dropped);
  let survivors = a.findings.kept;
  if (!run.exact) return void (asked && it.unknownCall?.('challenge'));
  let ruling: ChallengeResult | undefined;
  if (asked) {
    it.expect?.('challenge', 0);
    run.outcome.challenged = true;
    it.progress?.total('challenge', 1);
    const outcome = await it.ask('challenge', challengeCall(setup, file, a.analysis.value, survivors));
    it.progress?.advance('challenge');
    // Not known before the run asks: nor are the file's findings.
    if (!outcome) return void (run.exact = false);
    if (outcome.ok) ruling = outcome.value;
    else {
      // The challenger could not run: keep the findings, marked, rather than lose them.
      run.failed.push({ step: 'challenge', file: entry.path, unit: entry.path, reason: outcome.reason });
      survivors = survivors.map((f) => ({ ...f, unchallenged: true }));
    }
  }
  const final = afterChallenge(req, survivors, ruling);
  run.filtered.push(...final.dropped);
  run.findings = final.kept;
  if (it.keep && (!a.step1.cached || !a.analysis.cached))
    await it.keep({ step1: a.step1.value, analysis: a.analysis.value, challenged: a.findings.kept.length > 0 });
  if (run.failed.length > 0) {
    run.outcome.status = 'failed';
    run.outcome.reason = run.failed.map((u) => `${u.step} ${u.unit}: ${u.reason}`).join('; ');
  }
}
