/**
 * The staged review: each file walks its own steps (walk.ts, steps.ts: curate → analyze → review →
 * completeness → challenge → tiebreak), each request asked of the model, as fast as the concurrency limit
 * allows; only synthesis waits for all files. A file's findings are emitted the moment its steps end. A
 * cancelled or failed run returns what it finished.
 */
import { OUTLINE_ABOVE_BYTES } from '../../model/fileSize';
import type { CodeFunction, FunctionInventory } from '../../model/functions';
import { ReviewRun, type RunRequest } from '../reviewRun';
import type { EmitFn, FileOutcome, StagedResult } from '../../model/events';
import { Progress } from './progress';
import { STAGED_PROMPT_VERSION } from './promptVersion';
import type { ContextFile } from '../../model/records';
import { STAGED_STEPS, stagedEffort, type Effort, type StepModels } from '../../model/models';
import type { DiscoveryResult, FileEntry, SynthesisResult } from '../../model/records';
import { toSourceFile } from '../source';
import type { Finding } from '../../model/finding';
import { chain } from '../../model/filter';
import { fileCall, type DismissalExample, type FileUnderReview, type StageContext } from './context';
import type { LineRange } from '../../model/lines';
import { crossFileFindings } from './crossFile';
import { tiebreak } from './filters';
import { dropNoiseFindings, onlyChanged } from './fileFilters';
import { sortFindings } from '../../model/order';
import { failRun, fileWalk, walkFile, type FileWalk, type StepInterpreter } from './steps';
import { synthesize } from './synthesize';
import type { SynthesisInput } from './synthesisRecords';
import { fitFile, fitNote, shrink } from './fit';
import { lastAnswersKey } from './lastAnswers';
import { MAX_BATCH } from './batching';
import { expectedUnits, Schedule } from './schedule';
import { Semaphore } from '../../model/semaphore';
import type { RemovedHunk } from '../../model/removed';
import type { Intent } from '../../model/intent';
import { keptUpTo, streamOf, type FileStream } from '../../model/fileStream';
import { StartingFiles } from './startingFiles';

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

export async function runStagedReview(request: StagedRequest | StreamedRequest, emit: EmitFn): Promise<StagedResult> {
  const files = 'files' in request ? request.files : streamOf(request.discovery);
  const req: FilesAside = request;
  const run = new ReviewRun(req, emit, STAGED_PROMPT_VERSION);
  const runner = run.runner(req.effort);
  const schedule = new Schedule(req.maxConcurrency);
  // A bound on the files in flight, each holding its text and queuing its calls: on a tree of thousands, neither
  // every text is held at once nor does each freed request slot scan every file's waiting calls. Files wait
  // their turn in order; until then the schedule counts each as a file of one Step 3 call.
  const inFlightBound =
    req.filesInFlight ?? Math.min(MAX_FILES_IN_FLIGHT, Math.max(MIN_FILES_IN_FLIGHT, FILES_PER_SLOT * runner.capacity));
  const inFlight = new Semaphore(inFlightBound);
  const starting = new StartingFiles(files.candidates.length, inFlightBound);
  const ctx: StageContext = {
    runner,
    cache: runner.cache,
    models: req.models,
    ...(req.effort ? { effort: req.effort } : {}),
    context: req.context,
    dismissalExamples: req.dismissalExamples ?? [],
    // Whether to prime is all a run needs of the count: known once two files are in, not when the last is.
    files: await keptUpTo(files, 2),
    starting,
    fits: runner.fits,
    schedule,
    shrink: (file) => shrink(file, (path) => syntaxInventory(req, path)),
  };
  const progress = new Progress(emit);

  // Every file Step 0 has yet to judge counts as one that stays, until its verdict says otherwise; a file
  // starts as soon as its own verdict is in, in review order as far as the verdicts come so.
  files.candidates.forEach((_, order) => schedule.expect(order, 'curate', expectedUnits(undefined, MAX_BATCH)));
  const started = await Promise.all(
    files.candidates.map(async (_, order) => {
      const entry = await files.entry(order);
      starting.verdict(order, entry !== null);
      if (!entry) return void schedule.finish(order);
      progress.total('curate', 1);
      const fileRun = await run
        .guard(
          () =>
            inFlight.run(
              () => reviewFile({ ctx, req, progress, emit }, entry, order).finally(() => schedule.finish(order)),
              run.signal,
            ),
          (reason) => stoppedFile(entry, reason),
        )
        .finally(() => starting.ended(order));
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

async function reviewFile(stage: FileStage, entry: FileEntry, order: number): Promise<FileWalk> {
  const { ctx, req, progress, emit } = stage;
  // Counted from here to its last step, except while its units are: a batch round waits for the file's next request.
  return ctx.runner.chain(async () => {
    let file: FileUnderReview;
    try {
      file = await loadFile(req, entry, order);
    } catch (err) {
      progress.advance('curate');
      return failRun(fileWalk(entry), 'read', `could not read the file (${(err as Error).message})`);
    }
    await fitFile(ctx, file);
    const run = await walkFile(ctx, req, file, liveSteps(stage, file));
    for (const message of run.notes) emit({ type: 'warning', message });
    for (const finding of run.findings) emit({ type: 'finding', finding });
    // After the steps: one of them may have had to cut more.
    const note = fitNote(file);
    if (note) {
      run.notes.unshift(note);
      emit({ type: 'warning', message: note });
    }
    return run;
  });
}

/** The run's interpreter of a file's steps (steps.ts): each request asked of the model, in the run's schedule. */
function liveSteps({ ctx, req, progress }: FileStage, file: FileUnderReview): StepInterpreter {
  const { entry, order } = file;
  // Step 3's calls, guessed until Step 2 lists the functions: from the quick finder, as the parser's exact
  // inventory waits for Step 2 (unless the file goes out as an outline).
  const guessedUnits = expectedUnits(
    file.inventory?.length ?? req.countFunctions?.(entry.path, file.primary.text),
    MAX_BATCH,
  );
  ctx.schedule.expect(order, 'curate', guessedUnits);
  // The parse starts once the run's first request is out, so it overlaps waits on the network instead of
  // delaying the first call or holding up Step 2 (a run whose Step 1s all come from the cache parses at Step 2).
  let parse: Promise<CodeFunction[] | undefined> | undefined;
  const parsed = () => (parse ??= file.inventory ? Promise.resolve(file.inventory) : syntaxInventory(req, entry.path));
  ctx.runner.firstSent.then(parsed).catch(() => undefined); // a failed parse is reported where Step 2 awaits it
  return {
    ask: (step, call) => fileCall(ctx, file, step, call),
    parsed,
    expect: (step, units = guessedUnits) => ctx.schedule.expect(order, step, units),
    progress,
    // Best effort, like every cache write: the next forecast predicts this file's changed text from these.
    keep: (answers) => ctx.cache.remember(lastAnswersKey(ctx.cache, entry.path), answers),
  };
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

function stoppedFile(entry: FileEntry, reason: string): FileWalk {
  const run = fileWalk(entry);
  run.outcome.status = 'failed';
  run.outcome.reason = reason;
  run.failed.push({ step: 'run', file: entry.path, unit: entry.path, reason });
  return run;
}
