/**
 * A review job: everything a run needs, as plain data, and the two phases runJob strings together:
 * prepare (Step 0, no model) and execute (the pipeline of the job's mode, staged or lenses).
 */
import { findCallers, type Callers, type SearchInput } from './callers';
import { findDeletionCallers, withDeletionCallers } from './deletedFiles';
import type { Intent } from '../model/intent';
import { stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import type { EmitFn, ReviewResult } from '../model/events';
import type { ContextFile, Priority } from '../model/records';
import { applyPriorityFloor, floorEvents } from './priorityFloor';
import type { Effort, LensModels, StepModels } from '../model/models';
import type { LensTargetSpec } from '../engine/lenses';
import type { ChangeSet } from '../scope/changes';
import type { PriceOverrides } from '../model/pricing';
import {
  batchRefusal,
  costCeilingRefusal,
  modelIdProblem,
  ProviderError,
  type ProviderConfig,
} from '../model/providers';
import type { Connection } from '../engine/connect';
import type { EditorModels } from '../model/editorModels';
import { loadContextFiles } from '../scope/contextFiles';
import { batchLedgerFile, endpointMemoryFile, factsDirOf, keptScopesDir, knownOutputs, outputsUnder } from './state';
import { FactStore, Step0Facts } from '../scope/facts';
import { ReviewAccess } from '../scope/access';
import { ResultCache } from '../engine/resultCache';
import { EndpointMemory } from '../engine/endpointMemory';
import type { Inventory } from '../scope/exclusions';
import { classify, displayPath, ScopeError } from '../scope/inventory';
import { SetupError } from '../model/setup';
import { challengeExamples, type Dismissal } from '../model/dismissals';
import type { ScopeSpec } from '../model/scope';
import { FindingScreen, loadTeamFile } from './dismissals';
import { inventoryLookup, QUICK_FROM_FILES, quickFunctionCount } from './inventories';
import type { FileStream } from '../model/fileStream';
import { pathsDescription, resolveScope, type ResolvedScope } from './resolveScope';

/** A lens run's options, every default applied by buildJob. */
export interface LensOptions {
  fullFanout: boolean;
  /** 3 unless chosen, or every reviewer with full fan-out. */
  maxReviewers: number;
  /** Spec or acceptance file for the spec-compliance reviewer (and shared context). */
  spec?: string;
  /** Rubric whose criteria assigned to the code reviewer get marked PASS or FAIL. */
  rubric?: string;
  /** Model per role, every role named. */
  models: LensModels;
  /** What each call is sent: the chosen effort, else lens mode's own default. */
  effort: Effort;
  /** With a change scope: each path names a repository reviewed on its own changes (cwd-relative). */
  repositories: string[];
}

/** Everything a run needs, made from the user's ReviewChoices by buildJob (src/app/buildJob.ts): defaults applied, ranges checked. */
export interface ReviewJob {
  cwd: string;
  scope: ScopeSpec;
  /** What the change is for, as the user stated it; without it, a pull request's or a range's own (scope/changes.ts). */
  intent?: Intent;
  /** Absent: staged. */
  mode?: 'staged' | 'lenses';
  lens?: LensOptions;
  excludes: string[];
  /** Untracked files count as changes in the uncommitted scope. */
  includeUntracked: boolean;
  /** Review even when the gate check says a change is not worth it. */
  force: boolean;
  contextFiles: string[];
  models: StepModels;
  maxConcurrency: number;
  /** Seconds per request attempt. */
  requestTimeout: number;
  maxAttempts: number;
  effort?: Effort;
  /** The Anthropic API key ('' where the provider signs with its cloud's credentials). */
  apiKey: string;
  /** The extension host's language models, where the run is in the editor (provider vscode-lm). */
  editor?: EditorModels;
  /** Where the calls go: the provider, its region, project or profile, and endpoint (src/model/providers.ts). */
  provider: ProviderConfig;
  /** Keep finished units here and reuse them for unchanged input (see src/engine/resultCache.ts). */
  cacheDir?: string;
  /** This repository's state folder (src/app/state.ts): the outputs recorded there are never reviewed. */
  stateDir?: string;
  /** Per-model price overrides for the cost figures (src/model/pricing.ts). */
  prices?: PriceOverrides;
  /** The user's own dismissals (the extension keeps them); the team's come from the working folder's file. */
  dismissals?: Dismissal[];
  /** A run estimated above this many model calls asks first (when its surface can ask). */
  confirmThreshold: number;
  /** Where the report goes (default: code-review-{scope}.md in cwd), and the machine outputs if wanted. */
  outputs: {
    out?: string;
    reportFolder?: string;
    json?: string;
    sarif?: string;
    /** The event log (its surface writes it). */ events?: string;
  };
  /** --min-priority: findings below it are left out of what the run shows and writes, and counted apart. */
  minPriority?: Priority;
  /** Ceiling on the run's model requests (failed ones included); past it the run stops with a partial report. */
  maxCalls?: number;
  /** Ceiling on the run's spend in dollars: it stops before the call that would pass it, with a partial report. */
  maxCostUsd?: number;
  /** Ask again the units the result cache keeps as salvaged or failed (see engine/unitCache.ts). */
  refresh?: boolean;
  /** Through the Message Batches API at half price, in rounds; the whole run may take `batchTimeout` seconds. */
  batch?: { batchTimeout: number };
}

/** One repository of a multi-repo lens run, its scope resolved with cwd-relative paths. */
export interface PreparedRepository {
  path: string;
  scope: ResolvedScope;
  /** The repository's own context files (CLAUDE.md, …), beyond the shared ones. */
  context: ContextFile[];
}

export interface PreparedJob {
  /** For a multi-repo run: the repositories merged (files, changed lines, a skip only when all skip). */
  scope: ResolvedScope;
  inventory: Inventory;
  /** Shared project context, with the spec and rubric files last when given. */
  context: ContextFile[];
  companions: number;
  repositories?: PreparedRepository[];
  spec: ContextFile | null;
  rubric: ContextFile | null;
  /**
   * What the run may read: Step 0's rule over the review roots, for the engine's prompts and tools; its
   * `facts` are what Step 0 learnt about each file's content (the estimate and the parser use them).
   */
  access: ReviewAccess;
  /** What Step 0 left out and the run should say (a context file that is not sent, and why). */
  warnings: string[];
  /** A change's unchanged callers and implementers of the functions it altered or removed (app/callers.ts). */
  callers?: Callers;
}

/**
 * What a staged run needs before Step 0 has judged every file of a paths scope: the files as they are judged,
 * and what a PreparedJob says besides the finished inventory.
 */
export interface EarlyJob extends Omit<PreparedJob, 'scope' | 'inventory' | 'companions'> {
  scope: Pick<ResolvedScope, 'changedRanges' | 'removedLines' | 'changes' | 'description'>;
  files: FileStream;
}

type PrepareInput = Pick<
  ReviewJob,
  'cwd' | 'scope' | 'excludes' | 'contextFiles' | 'includeUntracked' | 'lens' | 'cacheDir' | 'stateDir'
>;

/**
 * Step 0 and the project context: everything before the first model call. Needs no API key. For `skeptic
 * plan` (`plan`), Step 0 also counts the functions of a large scope quickly as it reads (app/inventories.ts).
 * `early` is given a paths scope's files as soon as they are listed, each with its verdict to come.
 */
export async function prepareJob(
  input: PrepareInput,
  { plan = false, early }: { plan?: boolean; early?: (job: EarlyJob) => void } = {},
): Promise<PreparedJob> {
  const quickCountFrom = plan ? QUICK_FROM_FILES : undefined;
  const job = { ...input, excludes: [...input.excludes, ...cacheExcludes(input)] };
  const facts = new Step0Facts(new FactStore(job.stateDir ? factsDirOf(job.stateDir) : undefined));
  const lens = job.lens;
  const named = async (what: string, path: string | undefined) => {
    if (path === undefined) return undefined;
    if (!(await stat(resolve(job.cwd, path)).catch(() => null))?.isFile())
      throw new SetupError(`${what} file not found: ${path}`);
    return displayPath(job.cwd, resolve(job.cwd, path));
  };
  const specPath = await named('spec', lens?.spec);
  const rubricPath = await named('rubric', lens?.rubric);
  const loaded = await loadContextFiles(
    job.cwd,
    [...job.contextFiles, ...[specPath, rubricPath].filter((p): p is string => p !== undefined)],
    job.excludes,
  );
  const { files: context, warnings } = loaded;
  const find = (path: string | undefined) => context.find((c) => c.path === path) ?? null;
  const repositories = lens?.repositories.length
    ? await prepareRepositories(job, lens.repositories, warnings, facts, quickCountFrom)
    : undefined;
  const own = job.stateDir ? outputsUnder(job.cwd, await knownOutputs(job.stateDir)) : new Set<string>();
  // One access for the run's early start and the finished job: they share its facts and its parses.
  let opened: Promise<ReviewAccess> | undefined;
  const accessTo = (roots: string[]) =>
    (opened ??= ReviewAccess.open({ cwd: job.cwd, roots, excludes: job.excludes, facts }));
  const onFiles =
    early &&
    ((files: FileStream) =>
      void accessTo(files.review_roots).then((access) =>
        early({
          scope: { description: pathsDescription(files.review_roots) },
          files: withoutOwnFiles(files, own),
          context,
          spec: find(specPath),
          rubric: find(rubricPath),
          access,
          warnings,
        }),
      ));
  const resolved = repositories
    ? mergeRepositories(repositories)
    : await resolveScope(job.scope, {
        cwd: job.cwd,
        excludes: job.excludes,
        includeUntracked: job.includeUntracked,
        facts,
        ...(job.stateDir ? { keptIn: keptScopesDir(job.stateDir) } : {}),
        quickCountFrom,
        ...(onFiles ? { onFiles } : {}),
      });
  const roots = resolved.inventory.discovery.review_roots;
  const access = await accessTo(roots);
  // One repository's change: git grep runs in it (a multi-repo run has none to search across).
  const search = { cwd: job.cwd, roots, access };
  const changed =
    resolved.changedRanges && !repositories
      ? await findCallers({
          ...search,
          changedRanges: resolved.changedRanges,
          ...(resolved.removedLines ? { removedLines: resolved.removedLines } : {}),
          inventoryOf: inventoryLookup(access),
        })
      : undefined;
  const deletions = repositories ? undefined : await withDeletions(job, resolved, search, facts, quickCountFrom);
  const callers = deletions ? joinCallers(changed, deletions.callers) : changed;
  const withCallers = deletions?.scope ?? resolved;
  const scope = withoutOwnOutputs(withCallers, own);
  const inventory = scope.inventory;
  const companions = inventory.discovery.file_entries.filter((e) => e.companion_path).length;
  // What Step 0 learnt is kept even if the run that follows is cancelled.
  await facts.store.flush();
  return {
    scope,
    inventory,
    context,
    companions,
    ...(repositories ? { repositories } : {}),
    spec: find(specPath),
    rubric: find(rubricPath),
    access,
    warnings,
    ...(callers?.size ? { callers } : {}),
  };
}

/** The callers a deleted file leaves behind join the review (app/deletedFiles.ts), through the scope's exclusions. */
async function withDeletions(
  job: PrepareInput,
  scope: ResolvedScope,
  search: SearchInput,
  facts: Step0Facts,
  quickCountFrom: number | undefined,
): Promise<{ scope: ResolvedScope; callers: Callers } | undefined> {
  const excluded = job.excludes.length ? picomatch(job.excludes, { dot: true }) : () => false;
  const deleted = scope.changes?.deleted.filter((d) => !excluded(d.path)) ?? [];
  const found = deleted.length ? await findDeletionCallers(search, deleted) : undefined;
  if (!found?.ranges.size) return undefined;
  const admit = async (paths: string[]) =>
    (await classify(search.roots, paths, { cwd: job.cwd, excludes: job.excludes, facts, quickCountFrom })).discovery
      .file_entries;
  return withDeletionCallers(scope, found, admit);
}

function joinCallers(a: Callers | undefined, b: Callers): Callers {
  const out: Callers = new Map(a);
  for (const [path, named] of b) out.set(path, { ...out.get(path), ...named });
  return out;
}

/** Each repository's change scope, resolved inside it, then every path made relative to cwd again. */
async function prepareRepositories(
  job: PrepareInput,
  paths: string[],
  warnings: string[],
  facts: Step0Facts,
  quickCountFrom: number | undefined,
): Promise<PreparedRepository[]> {
  if (job.scope.kind === 'paths')
    throw new ScopeError('repositories are reviewed on their changes: add --changes, --staged or --base REF');
  if (job.scope.kind === 'pr')
    throw new ScopeError(
      'a pull request belongs to one repository: review it from inside that repository, without repository paths',
    );
  const excluded = job.excludes.length ? picomatch(job.excludes, { dot: true }) : () => false;
  return Promise.all(
    [...new Set(paths)].map(async (path) => {
      const dir = resolve(job.cwd, path);
      if (!(await stat(dir).catch(() => null))?.isDirectory())
        throw new ScopeError(`no such repository folder: ${path}`);
      const at = (p: string) => displayPath(job.cwd, resolve(dir, p));
      const own = await resolveScope(job.scope, {
        cwd: dir,
        excludes: [],
        includeUntracked: job.includeUntracked,
        facts,
        quickCountFrom,
      });
      const entries = own.inventory.discovery.file_entries.map((e) => ({
        path: at(e.path),
        companion_path: e.companion_path && at(e.companion_path),
      }));
      const inventory: Inventory = {
        discovery: {
          review_roots: own.inventory.discovery.review_roots.map(at),
          file_entries: entries.filter((e) => !excluded(e.path)),
        },
        excluded: [
          ...own.inventory.excluded.map((e) => ({ ...e, path: at(e.path) })),
          ...entries.filter((e) => excluded(e.path)).map((e) => ({ path: e.path, reason: 'user_exclude' as const })),
        ],
      };
      const changes = own.changes && rebaseChanges(own.changes, at);
      const changedRanges = new Map([...(own.changedRanges ?? [])].map(([p, r]) => [at(p), r]));
      const removedLines = new Map([...(own.removedLines ?? [])].map(([p, r]) => [at(p), r]));
      const scope: ResolvedScope = {
        ...own,
        inventory,
        description: `${own.description} in ${path}`,
        changedRanges,
        removedLines,
        ...(changes ? { changes } : {}),
      };
      const loaded = await loadContextFiles(dir);
      warnings.push(...loaded.warnings.map((w) => `${path}: ${w}`));
      const context = loaded.files.map((c) => ({ ...c, path: at(c.path) }));
      return { path: displayPath(job.cwd, dir), scope, context };
    }),
  );
}

function rebaseChanges(set: ChangeSet, at: (p: string) => string): ChangeSet {
  return {
    ...set,
    root: at(set.root),
    files: set.files.map((f) => ({ ...f, path: at(f.path) })),
    skipped: set.skipped.map((s) => ({ ...s, path: at(s.path) })),
    deleted: set.deleted.map((d) => ({ ...d, path: at(d.path) })),
  };
}

/** The repositories as one scope, for the surfaces that count files and changed lines before a run. */
function mergeRepositories(repos: PreparedRepository[]): ResolvedScope {
  const scopes = repos.map((r) => r.scope);
  const files = scopes.flatMap((s) => s.inventory.discovery.file_entries);
  const kind = scopes[0]?.changes?.description ?? 'changes';
  const changes: ChangeSet = {
    root: '.',
    files: scopes.flatMap((s) => s.changes?.files ?? []),
    skipped: scopes.flatMap((s) => s.changes?.skipped ?? []),
    deleted: scopes.flatMap((s) => s.changes?.deleted ?? []),
    changedLines: scopes.reduce((n, s) => n + (s.changes?.changedLines ?? 0), 0),
    description: `${kind} in ${repos.map((r) => r.path).join(', ')}`,
  };
  return {
    inventory: {
      discovery: { review_roots: repos.map((r) => r.path), file_entries: files },
      excluded: scopes.flatMap((s) => s.inventory.excluded),
    },
    description: changes.description,
    changedRanges: new Map(scopes.flatMap((s) => [...(s.changedRanges ?? [])])),
    removedLines: new Map(scopes.flatMap((s) => [...(s.removedLines ?? [])])),
    changes,
    // The run is skipped only when every repository is; the others are reviewed without the skipped ones.
    skip: scopes.every((s) => s.skip) ? (scopes[0]?.skip ?? null) : null,
  };
}

/** Files Skeptic wrote (reports, --json, --sarif, --events) are its own data, never code to review. */
function withoutOwnOutputs(scope: ResolvedScope, own: Set<string>): ResolvedScope {
  const { discovery, excluded } = scope.inventory;
  if (!discovery.file_entries.some((e) => own.has(e.path))) return scope;
  return {
    ...scope,
    inventory: {
      discovery: { ...discovery, file_entries: discovery.file_entries.filter((e) => !own.has(e.path)) },
      excluded: [
        ...excluded,
        ...discovery.file_entries
          .filter((e) => own.has(e.path))
          .map((e) => ({ path: e.path, reason: 'skeptic_output' as const })),
      ],
    },
  };
}

/** The stream without the files Skeptic wrote (see withoutOwnOutputs). */
function withoutOwnFiles(files: FileStream, own: Set<string>): FileStream {
  if (!files.candidates.some((path) => own.has(path))) return files;
  return { ...files, entry: async (i) => (own.has(files.candidates[i]!) ? null : files.entry(i)) };
}

/** A result cache inside the folder under review is Skeptic's own data, never code to review. */
function cacheExcludes(job: PrepareInput): string[] {
  if (!job.cacheDir) return [];
  const rel = relative(job.cwd, resolve(job.cwd, job.cacheDir)).split(sep).join('/');
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? [`${rel}/**`] : [];
}

/** Fails with a ScopeError when nothing is left to review, so no run starts and no report is written. */
export function assertReviewable(prepared: PreparedJob): void {
  if (prepared.inventory.discovery.file_entries.length > 0) return;
  const n = prepared.inventory.excluded.length;
  throw new ScopeError(
    n
      ? `nothing to review: all ${n} files found were excluded (${summarizeExclusions(prepared.inventory)})`
      : 'nothing to review: no files found',
  );
}

export function summarizeExclusions(inventory: Inventory): string {
  const counts = new Map<string, number>();
  for (const e of inventory.excluded) counts.set(e.reason, (counts.get(e.reason) ?? 0) + 1);
  return [...counts].map(([reason, n]) => `${n} ${reason.replace(/_/g, ' ')}`).join(', ');
}

/**
 * Machine outputs never overwrite a file under review. Checked as soon as Step 0 is done, before the first
 * event goes out (the event log is written from the first event on). Throws SetupError saying what to change.
 */
export function checkOutputs(job: Pick<ReviewJob, 'cwd' | 'outputs'>, prepared: PreparedJob): void {
  const reviewed = new Set(
    prepared.inventory.discovery.file_entries
      .flatMap((e) => [e.path, e.companion_path ?? []].flat())
      .map((p) => resolve(job.cwd, p)),
  );
  for (const [flag, path] of [
    ['--json', job.outputs.json],
    ['--sarif', job.outputs.sarif],
    ['--events', job.outputs.events],
  ] as const) {
    if (path !== undefined && reviewed.has(resolve(job.cwd, path)))
      throw new SetupError(`${flag} ${path} is a file under review; name another file`);
  }
}

/** What must hold before the first paid call, beyond Step 0: a usable cache folder. Throws SetupError saying what to change. */
export async function checkBeforeRun(job: Pick<ReviewJob, 'cacheDir'>): Promise<void> {
  if (job.cacheDir)
    await ResultCache.prepare(job.cacheDir).catch((err: Error) => Promise.reject(new SetupError(err.message)));
}

/** Every model the job will call, by the steps or roles that use it. */
export function modelsInUse(job: Pick<ReviewJob, 'mode' | 'models' | 'lens'>): Map<string, string[]> {
  const byRole: Record<string, string> = job.lens?.models ?? job.models;
  const out = new Map<string, string[]>();
  for (const [role, id] of Object.entries(byRole)) out.set(id, [...(out.get(id) ?? []), role]);
  return out;
}

/**
 * What the provider cannot do for this job stops it before any call: a model id of another platform (a
 * first-party id sent to Bedrock, say), --batch where there are no Message Batches, or --max-cost where the
 * calls are not billed in dollars (the editor's models).
 */
export function checkProvider(
  job: Pick<ReviewJob, 'mode' | 'models' | 'lens' | 'provider' | 'batch'> & Partial<Pick<ReviewJob, 'maxCostUsd'>>,
): void {
  const refusal =
    (job.batch ? batchRefusal(job.provider.provider) : undefined) ??
    (job.maxCostUsd ? costCeilingRefusal(job.provider.provider) : undefined);
  if (refusal) throw new ProviderError(refusal);
  for (const [id, roles] of modelsInUse(job)) {
    const problem = modelIdProblem(job.provider.provider, id);
    if (problem)
      throw new ProviderError(
        `${problem} (the model for ${roles.join(', ')}; set it with --model, --step-model or skeptic.modelPerStep)`,
      );
  }
}

let preloading = false;

/**
 * Loads what a review's first call runs — the SDK, the mode's pipeline and Node's own fetch (about 1 MB it compiles
 * on first use) — a module a turn, in turns of the event loop the caller spends waiting on git and the disk, so the
 * first request does not wait for them. Best effort: what fails to load here fails again where it is used, and says so.
 */
export function preloadRun(mode: ReviewJob['mode']): void {
  if (preloading) return;
  preloading = true;
  const nextTurn = () => new Promise((next) => setImmediate(next));
  void (async () => {
    await nextTurn();
    await import('../engine/connect');
    await nextTurn();
    void globalThis.Response; // Node compiles its fetch on first touch of any of its globals
    await nextTurn();
    await (mode === 'lenses' ? import('../engine/lenses') : import('../engine/staged'));
  })().catch(() => undefined);
}

/** The provider's client with its credentials resolved: a ProviderError naming the fix when they cannot be. */
export async function connectJob(
  job: Pick<ReviewJob, 'provider' | 'apiKey' | 'requestTimeout' | 'editor'> &
    Partial<Pick<ReviewJob, 'models' | 'mode' | 'lens'>>,
): Promise<Connection> {
  // Loaded when a run is about to call: a plan makes no call and needs no SDK.
  const { connect } = await import('../engine/connect');
  return connect({
    provider: job.provider,
    apiKey: job.apiKey,
    requestTimeout: job.requestTimeout,
    env: process.env,
    ...(job.editor ? { editor: job.editor } : {}),
    // The editor's models are looked up (and chosen, where missing) before the run's first call.
    ...(job.models ? { models: modelsInUse({ ...job, models: job.models }) } : {}),
  });
}

/** The job with the context windows its connection knows (the editor's models), over the price table's. */
export function withWindows<J extends Pick<ReviewJob, 'prices'>>(job: J, connection: Pick<Connection, 'windows'>): J {
  if (!connection.windows) return job;
  const prices: PriceOverrides = { ...job.prices };
  for (const [model, window] of Object.entries(connection.windows))
    prices[model] = { ...prices[model], context_window: window };
  return { ...job, prices };
}

/** How many dismissals with a reason the challenger sees as examples of what this team does not want. */
const CHALLENGE_EXAMPLES = 8;

/**
 * Runs the job's pipeline; findings dismissed before (team file, the user's list, inline comments) never come out.
 * An EarlyJob runs staged, each file as Step 0 judges it; `before` is what its `done` event waits for.
 */
export async function executeJob(
  job: ReviewJob,
  prepared: PreparedJob | EarlyJob,
  emit: EmitFn,
  signal: AbortSignal,
  connection: Connection,
  before?: Promise<unknown>,
): Promise<ReviewResult> {
  const teamFile = await loadTeamFile(job.cwd, (message) => emit({ type: 'warning', message }));
  const team = teamFile.dismissals;
  const changes = prepared.scope.changes;
  // Every file the change adds lines to, the team file included: a suppression it adds is named as such.
  const changed = changes && new Map(changes.files.map((f) => [f.path, f.ranges]));
  const screen = new FindingScreen(job.cwd, teamFile, job.dismissals ?? [], changed);
  const events = screen.events(floorEvents(emit, job.minPriority));
  const common = {
    cwd: job.cwd,
    access: prepared.access,
    ...(job.maxCalls ? { maxCalls: job.maxCalls } : {}),
    ...(job.maxCostUsd ? { maxCostUsd: job.maxCostUsd } : {}),
    connection,
    maxConcurrency: job.maxConcurrency,
    maxAttempts: job.maxAttempts,
    signal,
    ...(job.cacheDir ? { cacheDir: job.cacheDir } : {}),
    ...(job.prices ? { prices: job.prices } : {}),
    ...(job.refresh ? { refresh: true } : {}),
    // What the endpoint refused (only a server behind a base URL does) and the windows it states.
    ...(job.stateDir
      ? { memory: new EndpointMemory(endpointMemoryFile(job.stateDir), connection.endpoint, job.refresh) }
      : {}),
    ...(job.batch
      ? {
          batch: {
            ...job.batch,
            ...(job.stateDir ? { ledgerFile: batchLedgerFile(job.stateDir) } : {}),
            review: `${job.mode ?? 'staged'} review of ${prepared.scope.description}`,
          },
        }
      : {}),
  };
  // Only the mode that runs is loaded.
  const { lens } = job;
  const staged = async () => (await import('../engine/staged')).runStagedReview;
  const raw =
    'files' in prepared
      ? await (
          await staged()
        )({ ...common, ...stagedParts(job, prepared, team), files: prepared.files }, events)
      : lens
        ? await (
            await import('../engine/lenses')
          ).runLensReview({ ...common, ...lensRequest({ ...job, lens }, prepared) }, events)
        : await (
            await staged()
          )({ ...common, ...stagedRequest(job, prepared, team) }, events);
  const result = applyPriorityFloor(screen.result(raw), job.minPriority);
  await before;
  emit({ type: 'done', result });
  return result;
}

/** The staged part of a staged run's request (StagedRequest): the same for the run, its forecast and its estimate. */
export function stagedRequest(
  job: Pick<ReviewJob, 'cwd' | 'models' | 'effort' | 'dismissals' | 'intent'>,
  prepared: PreparedJob,
  team: Dismissal[],
) {
  return { discovery: prepared.inventory.discovery, ...stagedParts(job, prepared, team) };
}

/** The request without its files: a streamed run gives them as Step 0 judges them, the others as its inventory. */
function stagedParts(
  job: Pick<ReviewJob, 'cwd' | 'models' | 'effort' | 'dismissals' | 'intent'>,
  prepared: PreparedJob | EarlyJob,
  team: Dismissal[],
) {
  return {
    models: job.models,
    effort: job.effort,
    context: prepared.context,
    ...(prepared.scope.changedRanges ? { changedRanges: prepared.scope.changedRanges } : {}),
    ...(prepared.scope.removedLines ? { removedLines: prepared.scope.removedLines } : {}),
    ...intentOf(job, prepared.scope),
    ...(prepared.callers ? { callers: prepared.callers } : {}),
    dismissalExamples: challengeExamples([...team, ...(job.dismissals ?? [])], CHALLENGE_EXAMPLES),
    inventoryOf: inventoryLookup(prepared.access),
    countFunctions: quickFunctionCount,
  };
}

/** The lens-specific part of a lens run's request. */
export function lensRequest(job: Pick<ReviewJob, 'force' | 'intent'> & { lens: LensOptions }, prepared: PreparedJob) {
  const { lens } = job;
  const repos = prepared.repositories;
  const reviewed = repos ? repos.filter((r) => job.force || !r.scope.skip) : [];
  const targets = repos
    ? reviewed.map((r) => targetSpec(r.path, r.scope, [...prepared.context, ...r.context], job))
    : [
        {
          ...targetSpec(null, prepared.scope, prepared.context, job),
          ...(prepared.callers ? { callers: prepared.callers } : {}),
        },
      ];
  const forced = (repos ? reviewed.map((r) => r.scope) : [prepared.scope]).flatMap((s) =>
    s.skip ? [s.skip.line] : [],
  );
  return {
    targets,
    context: prepared.context,
    description: prepared.scope.description,
    models: lens.models,
    fullFanout: lens.fullFanout,
    maxReviewers: lens.maxReviewers,
    spec: prepared.spec?.path ?? null,
    rubric: prepared.rubric && { path: prepared.rubric.path, text: prepared.rubric.text },
    gate: forced.length
      ? { passed: false, reason: `${forced.join('; ')} (reviewed anyway: --force)` }
      : { passed: true, reason: null },
    skippedRepositories: (repos ?? [])
      .filter((r) => !reviewed.includes(r))
      .map((r) => ({ repository: r.path, reason: r.scope.skip?.line ?? '' })),
    effort: lens.effort,
  };
}

/** The intent the user stated, else the change's own (a pull request's title and description, a range's commit subjects). */
function intentOf(job: Pick<ReviewJob, 'intent'>, scope: Pick<ResolvedScope, 'changes'>): { intent?: Intent } {
  const intent = job.intent ?? scope.changes?.intent;
  return intent ? { intent } : {};
}

function targetSpec(
  repository: string | null,
  scope: ResolvedScope,
  context: ContextFile[],
  job: Pick<ReviewJob, 'intent'>,
): LensTargetSpec {
  const pr = scope.changes?.pr;
  return {
    repository,
    description: scope.description,
    reviewRoots: scope.inventory.discovery.review_roots,
    paths: scope.inventory.discovery.file_entries.map((e) => e.path),
    ...(scope.changedRanges ? { changedRanges: scope.changedRanges } : {}),
    ...(scope.removedLines ? { removedLines: scope.removedLines } : {}),
    ...(scope.changes ? { changedLines: scope.changes.changedLines } : {}),
    ...(pr ? { pr: { number: pr.number, title: pr.title, body: pr.body } } : {}),
    ...intentOf(job, scope),
    context,
  };
}
