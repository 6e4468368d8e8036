/**
 * The staged review: each file flows through its own chain (curate → analyze → review → completeness →
 * challenge → tiebreak) as fast as the concurrency limit allows; only synthesis waits for all files.
 * Findings are emitted the moment they survive. A cancelled or failed run returns what it finished.
 */
import { OUTLINE_ABOVE_BYTES } from '../../model/fileSize';
import type { CodeFunction, FunctionInventory } from '../../model/functions';
import { ReviewRun, type RunRequest } from '../reviewRun';
import type { UnitOutcome } from '../unit';
import type { EmitFn, FileOutcome, StagedResult } from '../../model/events';
import { Progress } from './progress';
import { STAGED_PROMPT_VERSION } from './promptVersion';
import type { ContextFile } from '../../model/records';
import { STAGED_STEPS, stagedEffort, type Effort, type StepModels } from '../../model/models';
import type {
  ChallengeResult,
  DiscoveryResult,
  FileAnalysis,
  FileEntry,
  PerFunctionReview,
  Step1Record,
  SynthesisResult,
} from '../../model/records';
import { toSourceFile } from '../source';
import type { FailedUnit, FilteredFinding, Finding, FindingFilter } from '../../model/finding';
import { chain, judgeEach, keepAll, type Filtered } from '../../model/filter';
import { analyze } from './analyze';
import { challenge } from './challenge';
import type { DismissalExample, FileUnderReview, StageContext } from './context';
import type { LineRange } from '../../model/lines';
import { curate } from './curate';
import { crossFileFindings } from './crossFile';
import { functionsTouched, keepChanged } from './diffScope';
import { applyChallenge, findingFromFileRule, findingsFromReview, tiebreak } from './filters';
import { sortFindings } from '../../model/order';
import { dropNoise, noiseRules } from '../noise';
import { reviewFunctions } from './review';
import { synthesize } from './synthesize';
import type { SynthesisInput } from './synthesisRecords';
import { fitFile, fitNote, shrink } from './fit';
import { lastAnswersKey, type LastAnswers } from './lastAnswers';
import { MAX_BATCH, planReviews } from './batching';
import { expectedUnits, Schedule } from './schedule';
import { Semaphore } from '../../model/semaphore';
import type { RemovedHunk } from '../../model/removed';
import type { Intent } from '../../model/intent';
import { keptUpTo, streamOf, type FileStream } from '../../model/fileStream';

export interface StagedRequest extends RunRequest {
  /** Paths in the discovery are relative to this folder. */
  cwd: string;
  discovery: DiscoveryResult;
  models: StepModels;
  effort?: Effort;
  /** The project context every file's prompt carries (CLAUDE.md and the --context-file files). */
  context: ContextFile[];
  /** For a diff review: each file's changed line ranges. */
  changedRanges?: Map<string, LineRange[]>;
  /** For a diff review: each file's removed lines, shown in its code block (engine/source.ts). */
  removedLines?: Map<string, RemovedHunk[]>;
  /** What the change is for, as stated (model/intent.ts): quoted in Steps 1, 3 and 4. */
  intent?: Intent;
  /** Per file, the unchanged callers of each function the change altered or removed: in Step 3's rows. */
  callers?: Map<string, Record<string, string[]>>;
  /** Findings this team dismissed before, with its reasons: the challenger weighs new findings against them. */
  dismissalExamples?: DismissalExample[];
  /** One file's functions as Step 0's parser finds them (src/app parses on demand); Step 2 is reconciled against these. */
  inventoryOf?: (path: string) => Promise<FunctionInventory | undefined>;
  /** A quick count of a file's functions, without its syntax tree: the scheduler's guess until Step 2 answers. */
  countFunctions?: (path: string, text: string) => number;
  /** Files reviewed at once (default: FILES_PER_SLOT per request slot, at least MIN_FILES_IN_FLIGHT). */
  filesInFlight?: number;
}

/** A run that starts on each file as Step 0 judges it (app/runJob.ts streams a paths scope's files so). */
export type StreamedRequest = FilesAside & { files: FileStream };
/** What a file's steps read of the request: everything but the scope's list of files. */
type FilesAside = Omit<StagedRequest, 'discovery'>;

/** Enough files in flight that every request slot has a call ready, at any step. */
const FILES_PER_SLOT = 4;
const MIN_FILES_IN_FLIGHT = 16;
/**
 * Files in flight however many requests the transport takes at once (a batch takes every one that is ready):
 * each holds its text, records and waiting requests (about 30 KB a file, measured on 4,000 Python files). A
 * scope of more goes in more batch rounds, as files finish and others start.
 */
const MAX_FILES_IN_FLIGHT = 8_000;

interface FileRun {
  outcome: FileOutcome;
  findings: Finding[];
  filtered: FilteredFinding[];
  failed: FailedUnit[];
  lineCount: number;
  recovered: number;
  /** For the report's notes: what was left out to fit the window, what reconciling Step 2 with the parser changed. */
  notes: string[];
}

export async function runStagedReview(request: StagedRequest | StreamedRequest, emit: EmitFn): Promise<StagedResult> {
  const files = 'files' in request ? request.files : streamOf(request.discovery);
  const req: FilesAside = request;
  const run = new ReviewRun(req, emit, STAGED_PROMPT_VERSION);
  const runner = run.runner(req.effort);
  const schedule = new Schedule(req.maxConcurrency);
  const ctx: StageContext = {
    runner,
    cache: runner.cache,
    models: req.models,
    ...(req.effort ? { effort: req.effort } : {}),
    context: req.context,
    dismissalExamples: req.dismissalExamples ?? [],
    // Whether to prime is all a run needs of the count: known once two files are in, not when the last is.
    files: await keptUpTo(files, 2),
    fits: runner.fits,
    schedule,
    shrink: (file) => shrink(file, (path) => syntaxInventory(req, path)),
  };
  const progress = new Progress(emit);

  // A bound on the files in flight, each holding its text and queuing its calls: on a tree of thousands, neither
  // every text is held at once nor does each freed request slot scan every file's waiting calls. Files wait
  // their turn in order; until then the schedule counts each as a file of one Step 3 call.
  const inFlight = new Semaphore(
    req.filesInFlight ?? Math.min(MAX_FILES_IN_FLIGHT, Math.max(MIN_FILES_IN_FLIGHT, FILES_PER_SLOT * runner.capacity)),
  );
  // Every file Step 0 has yet to judge counts as one that stays, until its verdict says otherwise; a file
  // starts as soon as its own verdict is in, in review order as far as the verdicts come so.
  files.candidates.forEach((_, order) => schedule.expect(order, 'curate', expectedUnits(undefined, MAX_BATCH)));
  const started = await Promise.all(
    files.candidates.map(async (_, order) => {
      const entry = await files.entry(order);
      if (!entry) return void schedule.finish(order);
      progress.total('curate', 1);
      const fileRun = await run.guard(
        () =>
          inFlight.run(
            () => reviewFile({ ctx, req, progress, emit }, entry, order).finally(() => schedule.finish(order)),
            run.signal,
          ),
        (reason) => stoppedFile(entry, reason),
      );
      return { entry, fileRun };
    }),
  );
  const kept = started.filter((s) => s !== undefined);
  const discovery = { review_roots: files.review_roots, file_entries: kept.map((s) => s.entry) };
  const fileRuns = kept.map((s) => s.fileRun);

  const findings = fileRuns.flatMap((f) => f.findings);
  const filtered = fileRuns.flatMap((f) => f.filtered);
  const failed = fileRuns.flatMap((f) => f.failed);
  let synthesis: SynthesisResult | null = null;
  const notes: string[] = fileRuns.flatMap((f) => f.notes);
  const input = synthesisInput({ discovery }, fileRuns);
  if (input && !run.aborted) {
    const outcome = await run.guard(
      () =>
        synthesize(ctx, input, {
          planned: (units) => progress.total('synthesize', units),
          answered: () => progress.advance('synthesize'),
        }),
      (reason) => ({ ok: false as const, reason }),
    );
    if (outcome.ok) {
      synthesis = outcome.value;
      for (const note of outcome.leftOut ?? []) {
        notes.push(note);
        emit({ type: 'warning', message: note });
      }
      const cross = chain(tiebreak, dropNoiseFindings(req), onlyChanged(req))(crossFileFindings(outcome.value));
      filtered.push(...cross.dropped);
      for (const f of cross.kept) emit({ type: 'finding', finding: f });
      findings.push(...cross.kept);
    } else {
      failed.push({ step: 'synthesize', file: null, unit: 'synthesis', reason: outcome.reason });
    }
  }

  const result: StagedResult = {
    mode: 'staged',
    models: req.models,
    effort: Object.fromEntries(STAGED_STEPS.map((s) => [s, stagedEffort(s, req.effort) ?? null])),
    reviewRoots: discovery.review_roots,
    files: fileRuns.map((f) => f.outcome),
    findings: sortFindings(findings),
    filtered,
    failed,
    synthesis,
    recovered: fileRuns.reduce((n, f) => n + f.recovered, 0),
    notes,
    ...run.close(),
  };
  emit({ type: 'done', result });
  return result;
}

/** What synthesis reads, from every file's outcome; null when no file got as far as Step 2 (then there is no synthesis). */
export function synthesisInput(
  req: Pick<StagedRequest, 'discovery'>,
  fileRuns: { outcome: Pick<FileOutcome, 'path' | 'step1' | 'analysis'>; findings: Finding[]; lineCount: number }[],
): SynthesisInput | null {
  const analyses = fileRuns.flatMap((f) => (f.outcome.analysis ? [f.outcome.analysis] : []));
  if (analyses.length === 0) return null;
  return {
    reviewRoots: req.discovery.review_roots,
    entries: req.discovery.file_entries,
    step1: fileRuns.flatMap((f) => (f.outcome.step1 ? [f.outcome.step1] : [])),
    analyses,
    findings: fileRuns.flatMap((f) => f.findings),
    lineCounts: new Map(fileRuns.map((f) => [f.outcome.path, f.lineCount])),
  };
}

/** What every file's steps share: the run's context and request, its progress and its events. */
interface FileStage {
  ctx: StageContext;
  req: FilesAside;
  progress: Progress;
  emit: EmitFn;
}

/** One loaded file's steps: the stage, the file, and the run its outcome, findings and failures go into. */
interface FileSteps extends FileStage {
  file: FileUnderReview;
  run: FileRun;
}

async function reviewFile(stage: FileStage, entry: FileEntry, order: number): Promise<FileRun> {
  const { ctx, req, progress, emit } = stage;
  const run: FileRun = {
    outcome: { path: entry.path, companion_path: entry.companion_path, status: 'reviewed', functions_reviewed: 0 },
    findings: [],
    filtered: [],
    failed: [],
    lineCount: 0,
    recovered: 0,
    notes: [],
  };
  // Counted from here to its last step, except while its units are: a batch round waits for the file's next request.
  return ctx.runner.chain(async () => {
    let file: FileUnderReview;
    try {
      file = await loadFile(req, entry, order);
    } catch (err) {
      progress.advance('curate');
      return failRun(run, 'read', `could not read the file (${(err as Error).message})`);
    }
    await fitFile(ctx, file);
    await reviewSteps({ ...stage, file, run });
    // After the steps: one of them may have had to cut more.
    const note = fitNote(file);
    if (note) {
      run.notes.unshift(note);
      emit({ type: 'warning', message: note });
    }
    return run;
  });
}

function failRun(run: FileRun, step: string, reason: string, unit = run.outcome.path): FileRun {
  run.outcome.status = 'failed';
  run.outcome.reason = `${step}: ${reason}`;
  run.failed.push({ step, file: run.outcome.path, unit, reason });
  return run;
}

/** Steps 1–4 of a loaded file, into `run`. */
async function reviewSteps(s: FileSteps): Promise<FileRun> {
  const { ctx, req, file, run } = s;
  const { entry, order } = file;
  // Step 3's calls, guessed until Step 2 lists the functions: from the quick finder, as the parser's exact
  // inventory waits for Step 2 (unless the file goes out as an outline).
  const guessedUnits = expectedUnits(
    file.inventory?.length ?? req.countFunctions?.(entry.path, file.primary.text),
    MAX_BATCH,
  );
  ctx.schedule.expect(order, 'curate', guessedUnits);
  run.lineCount = file.primary.lines.length;

  // The parse starts once the run's first request is out, so it overlaps waits on the network instead of
  // delaying the first call or holding up Step 2 (a run whose Step 1s all come from the cache parses at Step 2).
  let parse: Promise<CodeFunction[] | undefined> | undefined;
  const parsed = () => (parse ??= file.inventory ? Promise.resolve(file.inventory) : syntaxInventory(req, entry.path));
  ctx.runner.firstSent.then(parsed).catch(() => undefined); // a failed parse is reported where Step 2 awaits it
  const step1 = await curateStep(s);
  if (!step1) return run;

  ctx.schedule.expect(order, 'analyze', guessedUnits);
  file.inventory = await parsed();
  const analysis = await analyzeStep(s, step1.value);
  if (!analysis) return run;

  const reviews = await reviewStep(s, step1.value, analysis.value);
  await challengeStep(s, { step1, analysis, reviews });
  if (run.failed.length > 0) {
    run.outcome.status = 'failed';
    run.outcome.reason = run.failed.map((u) => `${u.step} ${u.unit}: ${u.reason}`).join('; ');
  }
  return run;
}

type Answered<T> = Extract<UnitOutcome<T>, { ok: true }>;

/** Step 1; none when the file goes no further (failed, or classified out of the pipeline: skipped). */
async function curateStep(s: FileSteps): Promise<Answered<Step1Record> | undefined> {
  const { ctx, file, run, progress } = s;
  const path = file.entry.path;
  const step1 = await curate(ctx, file);
  progress.advance('curate');
  if (!step1.ok) return void failRun(run, 'curate', step1.reason);
  run.outcome.step1 = step1.value;
  // A path's last answers are kept from its first Step 1 on: the forecast reads only files that have them.
  const firstAnswer = !step1.cached && !(await ctx.cache.has(lastAnswersKey(ctx.cache, path)));
  if (!step1.value.include_in_pipeline || firstAnswer)
    await keepLastAnswers(ctx, path, { step1: step1.value, analysis: null, challenged: false });
  if (step1.value.include_in_pipeline) return step1;
  run.outcome.status = 'skipped';
  run.outcome.reason = `classified as ${step1.value.primary_kind} (review_as ${step1.value.review_as})`;
  return undefined;
}

/** Step 2, its function list reconciled with the parser's (and said when they differ); none when it failed. */
async function analyzeStep(s: FileSteps, step1: Step1Record): Promise<Answered<FileAnalysis> | undefined> {
  const { ctx, file, run, progress, emit } = s;
  progress.total('analyze', 1);
  const analysis = await analyze(ctx, file, step1);
  progress.advance('analyze');
  if (!analysis.ok) return void failRun(run, 'analyze', analysis.reason);
  run.outcome.analysis = analysis.value;
  const { added = [], rejected = [], corrected = [] } = analysis.reconciled ?? {};
  if (analysis.reconciled) run.outcome.reconciled = { added, rejected, corrected };
  if (added.length || rejected.length) {
    const note = `${file.entry.path}: Step 2 left out ${added.length} of the parser's functions (reviewed anyway) and listed ${rejected.length} the file does not have (ignored)`;
    run.notes.push(note);
    emit({ type: 'warning', message: note });
  }
  return analysis;
}

/** Step 3 over the functions under review (in a diff review, those the change touches). */
async function reviewStep(s: FileSteps, step1: Step1Record, analysis: FileAnalysis): Promise<PerFunctionReview[]> {
  const { ctx, file, run, progress } = s;
  const changed = file.changedRanges;
  const functions = changed ? functionsTouched(analysis.functions, run.lineCount, changed) : analysis.functions;
  progress.total('review', functions.length);
  const plan = planReviews(functions);
  ctx.schedule.expect(file.order, 'review', plan.solo.length + plan.batches.length);
  const reviewed = await reviewFunctions(ctx, { file, step1, analysis, functions }, (n) =>
    progress.advance('review', n),
  );
  run.outcome.functions_reviewed = reviewed.reviews.length;
  run.recovered = reviewed.recovered.length;
  run.failed.push(...reviewed.failed);
  return reviewed.reviews;
}

/** Step 4: the findings filtered, challenged and filtered again into `run`; the file's last answers kept. */
async function challengeStep(
  s: FileSteps,
  a: { step1: Answered<Step1Record>; analysis: Answered<FileAnalysis>; reviews: PerFunctionReview[] },
): Promise<void> {
  const { ctx, req, file, run, progress, emit } = s;
  const { entry, order } = file;
  const toChallenge = findingsToChallenge(req, a.step1.value, a.analysis.value, a.reviews);
  run.filtered.push(...toChallenge.dropped);
  let survivors = toChallenge.kept;
  let ruling: ChallengeResult | undefined;
  if (survivors.length > 0) {
    ctx.schedule.expect(order, 'challenge', 0);
    run.outcome.challenged = true;
    progress.total('challenge', 1);
    const outcome = await challenge(ctx, file, a.analysis.value, survivors);
    progress.advance('challenge');
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
  for (const f of run.findings) emit({ type: 'finding', finding: f });
  if (!a.step1.cached || !a.analysis.cached)
    await keepLastAnswers(ctx, entry.path, {
      step1: a.step1.value,
      analysis: a.analysis.value,
      challenged: toChallenge.kept.length > 0,
    });
}

/**
 * The findings that go to the challenge: Step 2's file-level and Step 3's function findings, without those
 * out of their rule's scope and, in a diff review, those the change may not report.
 */
export function findingsToChallenge(
  req: Pick<StagedRequest, 'changedRanges' | 'context'>,
  step1: Step1Record,
  analysis: FileAnalysis,
  reviews: PerFunctionReview[],
): Filtered<Finding, FilteredFinding> {
  const path = analysis.file_path;
  const raw = [
    ...analysis.file_level_findings.map((f) => findingFromFileRule(f, path)),
    ...reviews.flatMap((r) => findingsFromReview(r, path)),
  ];
  return chain(dropOutOfScope(step1), dropNoiseFindings(req), onlyChanged(req))(raw);
}

/** The file's findings after its challenge (none: kept as they are), the tiebreaker and, in a diff review, the change. */
export function afterChallenge(
  req: Pick<StagedRequest, 'changedRanges'>,
  survivors: Finding[],
  ruling: ChallengeResult | undefined,
): Filtered<Finding, FilteredFinding> {
  const challenged: FindingFilter = ruling ? (findings) => applyChallenge(findings, ruling) : keepAll;
  // Again after the tiebreaker: a pre-existing must_fix it demoted no longer qualifies.
  return chain(challenged, tiebreak, onlyChanged(req))(survivors);
}

/** Best effort, like every cache write: the next forecast predicts this file's changed text from these. */
async function keepLastAnswers(ctx: StageContext, path: string, answers: LastAnswers): Promise<void> {
  await ctx.cache.remember(lastAnswersKey(ctx.cache, path), answers);
}

/** In a diff review, the findings a change may report; all of them otherwise. */
function onlyChanged(req: Pick<StagedRequest, 'changedRanges'>): FindingFilter {
  const changed = req.changedRanges;
  return changed ? (findings) => keepChanged(findings, (path) => changed.get(path)) : keepAll;
}

/** Findings labelled with a category that is never a finding (prompts/noise.md), removed with their reason. */
function dropNoiseFindings(req: Pick<StagedRequest, 'context'>): FindingFilter {
  const noise = dropNoise<Finding>(noiseRules(req.context));
  return (findings) => {
    const { kept, dropped } = noise(findings);
    return { kept, dropped: dropped.map((d) => ({ ...d, stage: 'noise' })) };
  };
}

/**
 * Where Step 1 saw no concurrency, an A7 nice-to-have is out of scope and dropped, with its reason. A must-fix
 * or should-fix A7 stays for the challenger: Step 1 judged the file before anyone read its functions, and a
 * function's read-modify-write of a row, check-then-act or un-awaited call (what A7 applies to even then,
 * prompts/rules-function.md) is a defect its reviewer saw and Step 1 did not.
 */
function dropOutOfScope(step1: Step1Record): FindingFilter {
  if (step1.concurrency_present) return keepAll;
  const reason = 'an A7 nice-to-have applies only where concurrency is present';
  return judgeEach<Finding, FilteredFinding>((finding) =>
    finding.rule_id === 'A7' && finding.priority === 'nice_to_have'
      ? { drop: { finding, stage: 'rule_scope', reason } }
      : { keep: finding },
  );
}

export async function loadFile(
  req: Pick<StagedRequest, 'access' | 'changedRanges' | 'removedLines' | 'intent' | 'callers' | 'inventoryOf'>,
  entry: FileEntry,
  order: number,
): Promise<FileUnderReview> {
  // Through the run's FileAccess: a file changed into a link, a pipe or a secret since Step 0 is not sent.
  const read = async (path: string) => toSourceFile(path, await req.access.read(path));
  const large = (f: { text: string }) => Buffer.byteLength(f.text) > OUTLINE_ABOVE_BYTES;
  const ranges = req.changedRanges?.get(entry.path);
  const removed = req.removedLines?.get(entry.path);
  const primary = { ...(await read(entry.path)), ...(removed ? { removed } : {}) };
  // A file too large to send whole is sent as the parser's outline from its first call on.
  const inventory = large(primary) ? await syntaxInventory(req, entry.path) : undefined;
  const companion = entry.companion_path ? await read(entry.companion_path).catch(() => null) : null;
  return {
    entry,
    primary,
    // A companion too large to send whole would crowd out the file it accompanies.
    companion: companion && !large(companion) ? companion : null,
    ...(ranges ? { changedRanges: ranges } : {}),
    ...(req.intent ? { intent: req.intent } : {}),
    ...(req.callers?.has(entry.path) ? { callers: req.callers.get(entry.path) } : {}),
    order,
    warm: new Set(),
    ...(inventory ? { inventory, outline: true } : {}),
    cut: [],
    view: 0,
  };
}

/** Only the parser's exact inventory overrules the model; the regex fallback's guesses do not. */
export async function syntaxInventory(
  req: Pick<StagedRequest, 'inventoryOf'>,
  path: string,
): Promise<CodeFunction[] | undefined> {
  const found = await req.inventoryOf?.(path);
  return found?.parser === 'syntax' ? found.functions : undefined;
}

function stoppedFile(entry: FileEntry, reason: string): FileRun {
  return {
    outcome: {
      path: entry.path,
      companion_path: entry.companion_path,
      status: 'failed',
      functions_reviewed: 0,
      reason,
    },
    findings: [],
    filtered: [],
    failed: [{ step: 'run', file: entry.path, unit: entry.path, reason }],
    lineCount: 0,
    recovered: 0,
    notes: [],
  };
}
