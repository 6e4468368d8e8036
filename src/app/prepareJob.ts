/** The first phase of a run: Step 0 and the project context, everything before the first model call. */
import { findCallers, type Callers, type SearchInput } from './callers';
import { findDeletionCallers, withDeletionCallers } from './deletedFiles';
import { stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import { loadContextFiles } from '../scope/contextFiles';
import { factsDirOf, keptScopesDir, knownOutputs, outputsUnder } from './state';
import { FactStore, Step0Facts } from '../scope/facts';
import { ReviewAccess } from '../scope/access';
import { classify, displayPath } from '../scope/inventory';
import { SetupError } from '../model/setup';
import { inventoryLookup, QUICK_FROM_FILES } from './inventories';
import type { FileStream } from '../model/fileStream';
import { pathsDescription, resolveScope, type ResolvedScope } from './resolveScope';
import { mergeRepositories, prepareRepositories, type RepositoryStep0 } from './repositories';
import type { EarlyJob, PreparedJob, ReviewJob } from './job';

type PrepareInput = Pick<
  ReviewJob,
  'cwd' | 'scope' | 'excludes' | 'contextFiles' | 'includeUntracked' | 'lens' | 'cacheDir' | 'stateDir'
>;

/** What Step 0 shares across a job's scopes: its facts, and where a plan starts counting functions quickly. */
type Step0 = Pick<RepositoryStep0, 'facts' | 'quickCountFrom'>;

/**
 * Step 0 and the project context: everything before the first model call. Needs no API key. For `skeptic
 * plan` (`plan`), Step 0 also counts the functions of a large scope quickly as it reads (app/inventories.ts).
 * `early` is given a paths scope's files as soon as they are listed, each with its verdict to come.
 */
export async function prepareJob(
  input: PrepareInput,
  { plan = false, early }: { plan?: boolean; early?: (job: EarlyJob) => void } = {},
): Promise<PreparedJob> {
  const job = { ...input, excludes: [...input.excludes, ...cacheExcludes(input)] };
  const step0: Step0 = {
    facts: new Step0Facts(new FactStore(job.stateDir ? factsDirOf(job.stateDir) : undefined)),
    quickCountFrom: plan ? QUICK_FROM_FILES : undefined,
  };
  const { context, spec, rubric, warnings } = await jobContext(job);
  const repositories = job.lens?.repositories.length
    ? await prepareRepositories(job, job.lens.repositories, { ...step0, warnings })
    : undefined;
  const own = job.stateDir ? outputsUnder(job.cwd, await knownOutputs(job.stateDir)) : new Set<string>();
  // One access for the run's early start and the finished job: they share its facts and its parses.
  let opened: Promise<ReviewAccess> | undefined;
  const accessTo = (roots: string[]) =>
    (opened ??= ReviewAccess.open({ cwd: job.cwd, roots, excludes: job.excludes, facts: step0.facts }));
  const onFiles =
    early &&
    ((files: FileStream) =>
      void accessTo(files.review_roots).then((access) =>
        early({
          scope: { description: pathsDescription(files.review_roots) },
          files: withoutOwnFiles(files, own),
          context,
          spec,
          rubric,
          access,
          warnings,
        }),
      ));
  const resolved = repositories ? mergeRepositories(repositories) : await resolveJobScope(job, step0, onFiles);
  const access = await accessTo(resolved.inventory.discovery.review_roots);
  const found = repositories ? { scope: resolved } : await withCallers(job, resolved, access, step0);
  const scope = withoutOwnOutputs(found.scope, own);
  const inventory = scope.inventory;
  const companions = inventory.discovery.file_entries.filter((e) => e.companion_path).length;
  // What Step 0 learnt is kept even if the run that follows is cancelled.
  await step0.facts.store.flush();
  return {
    scope,
    inventory,
    context,
    companions,
    ...(repositories ? { repositories } : {}),
    spec,
    rubric,
    access,
    warnings,
    ...(found.callers?.size ? { callers: found.callers } : {}),
  };
}

/** The job's scope resolved in cwd; `onFiles` is given a paths scope's files as soon as they are listed. */
function resolveJobScope(job: PrepareInput, step0: Step0, onFiles: ((files: FileStream) => void) | undefined) {
  return resolveScope(job.scope, {
    cwd: job.cwd,
    excludes: job.excludes,
    includeUntracked: job.includeUntracked,
    facts: step0.facts,
    ...(job.stateDir ? { keptIn: keptScopesDir(job.stateDir) } : {}),
    quickCountFrom: step0.quickCountFrom,
    ...(onFiles ? { onFiles } : {}),
  });
}

/** The project context, with the spec and rubric files last when given (each checked to exist first). */
async function jobContext(job: PrepareInput) {
  const named = async (what: string, path: string | undefined) => {
    if (path === undefined) return undefined;
    if (!(await stat(resolve(job.cwd, path)).catch(() => null))?.isFile())
      throw new SetupError(`${what} file not found: ${path}`);
    return displayPath(job.cwd, resolve(job.cwd, path));
  };
  const specPath = await named('spec', job.lens?.spec);
  const rubricPath = await named('rubric', job.lens?.rubric);
  const { files: context, warnings } = await loadContextFiles(
    job.cwd,
    [...job.contextFiles, ...[specPath, rubricPath].filter((p): p is string => p !== undefined)],
    job.excludes,
  );
  const find = (path: string | undefined) => context.find((c) => c.path === path) ?? null;
  return { context, spec: find(specPath), rubric: find(rubricPath), warnings };
}

/** One repository's change with its unchanged callers (app/callers.ts) and those a deleted file leaves behind. */
async function withCallers(
  job: PrepareInput,
  resolved: ResolvedScope,
  access: ReviewAccess,
  step0: Step0,
): Promise<{ scope: ResolvedScope; callers?: Callers }> {
  // One repository's change: git grep runs in it (a multi-repo run has none to search across).
  const search = { cwd: job.cwd, roots: resolved.inventory.discovery.review_roots, access };
  const changed = resolved.changedRanges
    ? await findCallers({
        ...search,
        changedRanges: resolved.changedRanges,
        ...(resolved.removedLines ? { removedLines: resolved.removedLines } : {}),
        inventoryOf: inventoryLookup(access),
      })
    : undefined;
  const deletions = await withDeletions(job, resolved, search, step0);
  if (deletions) return { scope: deletions.scope, callers: joinCallers(changed, deletions.callers) };
  return { scope: resolved, ...(changed ? { callers: changed } : {}) };
}

/** The callers a deleted file leaves behind join the review (app/deletedFiles.ts), through the scope's exclusions. */
async function withDeletions(
  job: PrepareInput,
  scope: ResolvedScope,
  search: SearchInput,
  { facts, quickCountFrom }: Step0,
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
