/** Parses and checks `skeptic review` / `skeptic plan` arguments (the key comes from the environment). */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { LIMITS } from '../app/contributions';
import type { LensOptions } from '../app/job';
import {
  EFFORTS,
  resolveLensModels,
  resolveStepModels,
  STAGED_STEPS,
  type Effort,
  type LensModels,
  type StagedStep,
} from '../model/models';
import { LENS_ROLES, MAX_REVIEWERS, type LensRole } from '../model/reviewers';
import type { ScopeSpec } from '../model/scope';
import { UsageError } from './help';

export interface ReviewArgs {
  scope: ScopeSpec;
  /** No path and no scope flag: the scope is detected (src/app/autoScope.ts). */
  autoScope: boolean;
  mode: 'staged' | 'lenses';
  /** Lens mode only. */
  lens?: LensOptions;
  includeUntracked: boolean;
  force: boolean;
  /** Ask before running when the estimate exceeds this many model calls. */
  confirmOver: number;
  out?: string;
  json?: string;
  sarif?: string;
  models: Record<StagedStep, string>;
  concurrency: number;
  /** Seconds per request attempt. */
  requestTimeout: number;
  maxAttempts: number;
  effort?: Effort;
  excludes: string[];
  contextFiles: string[];
  /** Reuse finished units kept here (and keep new ones). */
  cacheDir?: string;
  /** --no-cache: ask the model for every unit, keep nothing. */
  noCache: boolean;
  /** --refresh: ask again the units kept as salvaged or failed. */
  refresh: boolean;
  /** NDJSON log of every engine event. */
  events?: string;
  /** Ceiling on the run's model requests. */
  maxCalls?: number;
  /** Through the Message Batches API; `batchTimeout`: seconds the whole batch run may take. */
  batch: boolean;
  batchTimeout?: number;
  /** A JSON file of price overrides per model (see src/model/pricing.ts). */
  pricesFile?: string;
  yes: boolean;
  help: boolean;
  /** plan: list every path, not only the counts. */
  verbose: boolean;
}

export function parseReviewArgs(argv: string[]): ReviewArgs {
  const parsed = parseCommandLine(argv, {
    out: { type: 'string' },
    json: { type: 'string' },
    sarif: { type: 'string' },
    model: { type: 'string' },
    'step-model': { type: 'string', multiple: true },
    concurrency: { type: 'string' },
    timeout: { type: 'string' },
    'max-attempts': { type: 'string' },
    effort: { type: 'string' },
    exclude: { type: 'string', multiple: true },
    'context-file': { type: 'string', multiple: true },
    'cache-dir': { type: 'string' },
    'no-cache': { type: 'boolean' },
    refresh: { type: 'boolean' },
    events: { type: 'string' },
    prices: { type: 'string' },
    yes: { type: 'boolean', short: 'y' },
    changes: { type: 'boolean' },
    staged: { type: 'boolean' },
    base: { type: 'string' },
    pr: { type: 'string' },
    'no-untracked': { type: 'boolean' },
    force: { type: 'boolean' },
    'confirm-over': { type: 'string' },
    'max-calls': { type: 'string' },
    batch: { type: 'boolean' },
    mode: { type: 'string' },
    'full-fanout': { type: 'boolean' },
    'max-reviewers': { type: 'string' },
    spec: { type: 'string' },
    rubric: { type: 'string' },
    'reviewer-model': { type: 'string', multiple: true },
    help: { type: 'boolean', short: 'h' },
    verbose: { type: 'boolean', short: 'v' },
  });
  const v = parsed.values;
  const mode = v.mode ?? 'staged';
  if (mode !== 'staged' && mode !== 'lenses') throw new UsageError(`--mode must be staged or lenses, got "${mode}"`);
  const lensOnly = [
    v['full-fanout'] && '--full-fanout',
    v['max-reviewers'] !== undefined && '--max-reviewers',
    v.spec !== undefined && '--spec',
    v.rubric !== undefined && '--rubric',
    v['reviewer-model'] && '--reviewer-model',
  ].filter(Boolean);
  if (mode === 'staged' && lensOnly.length)
    throw new UsageError(`${lensOnly.join(', ')} ${lensOnly.length > 1 ? 'need' : 'needs'} --mode lenses`);
  if (mode === 'lenses' && v['step-model'])
    throw new UsageError('--step-model is for staged mode; in lens mode use --reviewer-model NAME=ID');
  if (v['no-cache'] && v.refresh)
    throw new UsageError('--refresh asks again what the result cache kept; it has no use with --no-cache');
  if (v['no-cache'] && v['cache-dir'] !== undefined)
    throw new UsageError('--no-cache and --cache-dir cannot be combined');
  if (v.out !== undefined && !v.out.endsWith('.md')) throw new UsageError(`--out must name a .md file, got "${v.out}"`);
  // Machine outputs are rewritten on every run: a name that could be anything else is refused.
  if (v.json !== undefined && !v.json.endsWith('.json'))
    throw new UsageError(`--json must name a .json file, got "${v.json}"`);
  if (v.sarif !== undefined && !/\.sarif(\.json)?$/.test(v.sarif))
    throw new UsageError(`--sarif must name a .sarif file, got "${v.sarif}"`);
  const effort = v.effort;
  if (effort !== undefined && !EFFORTS.includes(effort as Effort))
    throw new UsageError(`--effort must be one of ${EFFORTS.join(', ')}`);
  const { scope, repositories } = scopeOf(parsed.positionals, v, mode);
  return {
    scope,
    autoScope: parsed.positionals.length === 0 && scope.kind === 'paths',
    mode,
    ...(mode === 'lenses' ? { lens: lensOptions(v, repositories) } : {}),
    includeUntracked: !v['no-untracked'],
    force: v.force ?? false,
    confirmOver: wholeNumber('--confirm-over', v['confirm-over'], LIMITS.confirmThreshold),
    ...(v.out !== undefined ? { out: v.out } : {}),
    ...(v.json !== undefined ? { json: v.json } : {}),
    ...(v.sarif !== undefined ? { sarif: nonEmpty('--sarif', v.sarif)! } : {}),
    models: resolveStepModels(nonEmpty('--model', v.model), parseStepModels(v['step-model'] ?? [])),
    concurrency: wholeNumber('--concurrency', v.concurrency, LIMITS.concurrency),
    // Under --batch a request has no time of its own to limit: --timeout is the whole run's.
    requestTimeout: v.batch
      ? LIMITS.requestTimeout.default
      : wholeNumber('--timeout', v.timeout, LIMITS.requestTimeout),
    batch: v.batch ?? false,
    ...(v.batch && v.timeout !== undefined
      ? { batchTimeout: seconds('--timeout', v.timeout, LIMITS.batchTimeout) }
      : {}),
    maxAttempts: wholeNumber('--max-attempts', v['max-attempts'], LIMITS.maxAttempts),
    ...(effort ? { effort: effort as Effort } : {}),
    excludes: v.exclude ?? [],
    contextFiles: v['context-file'] ?? [],
    ...(v['cache-dir'] !== undefined ? { cacheDir: nonEmpty('--cache-dir', v['cache-dir'])! } : {}),
    ...(v['max-calls'] !== undefined ? { maxCalls: wholeNumber('--max-calls', v['max-calls'], LIMITS.maxCalls) } : {}),
    ...(v.prices !== undefined ? { pricesFile: nonEmpty('--prices', v.prices)! } : {}),
    noCache: v['no-cache'] ?? false,
    refresh: v.refresh ?? false,
    ...(v.events !== undefined ? { events: nonEmpty('--events', v.events)! } : {}),
    yes: v.yes ?? false,
    help: v.help ?? false,
    verbose: v.verbose ?? false,
  };
}

/** node's parser, strict, with positionals; its errors become usage errors. */
export function parseCommandLine<const T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T) {
  try {
    return parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>({
      args,
      options,
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new UsageError(flagProblem(err as Error & { code?: string }));
  }
}

/** node's parseArgs errors, said the way the rest of the CLI speaks, with the way to the help. */
function flagProblem(err: Error & { code?: string }): string {
  const name = /'(?:-\w, )?(--?[^' ]+)/.exec(err.message)?.[1];
  const help = 'see skeptic --help for the options';
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && name) return `unknown option ${name}; ${help}`;
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && name)
    return /missing/.test(err.message) ? `${name} needs a value; ${help}` : `${name} takes no value; ${help}`;
  return `${err.message}; ${help}`;
}

export function nonEmpty(flag: string, value: string | undefined): string | undefined {
  if (value !== undefined && value.trim() === '') throw new UsageError(`${flag} needs a value`);
  return value;
}

export function wholeNumber(
  flag: string,
  raw: string | undefined,
  { default: fallback, min, max }: { default: number; min: number; max: number },
): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`${flag} takes a whole number from ${min} to ${max}, got "${raw}"`);
  return n;
}

/** "24h", "90m", "45s" or a number of seconds, within the range. */
export function seconds(flag: string, raw: string, { min, max }: { min: number; max: number }): number {
  const m = /^(\d+)(s|m|h)?$/.exec(raw.trim());
  const n = m ? Number(m[1]) * { s: 1, m: 60, h: 3600 }[(m[2] ?? 's') as 's' | 'm' | 'h'] : NaN;
  if (!(n >= min && n <= max))
    throw new UsageError(`${flag} takes a duration from ${min}s to ${max / 3600}h (e.g. 90m, 24h, 3600), got "${raw}"`);
  return n;
}

function parseStepModels(pairs: string[]): Partial<Record<StagedStep, string>> {
  const out: Partial<Record<StagedStep, string>> = {};
  for (const pair of pairs) {
    const [step, model] = pair.split('=', 2);
    if (!STAGED_STEPS.includes(step as StagedStep) || !model) {
      throw new UsageError(`--step-model takes STEP=ID with STEP one of ${STAGED_STEPS.join(', ')}, got "${pair}"`);
    }
    out[step as StagedStep] = model;
  }
  return out;
}

/** In lens mode, paths given with a change scope name repositories, each reviewed on its own changes. */
function scopeOf(
  paths: string[],
  v: { changes?: boolean; staged?: boolean; base?: string; pr?: string },
  mode: ReviewArgs['mode'],
): { scope: ScopeSpec; repositories: string[] } {
  const chosen = [
    v.changes && '--changes',
    v.staged && '--staged',
    v.base !== undefined && '--base',
    v.pr !== undefined && '--pr',
  ].filter(Boolean);
  if (chosen.length > 1) throw new UsageError(`${chosen.join(' and ')} cannot be combined; choose one change scope`);
  if (chosen.length === 0) return { scope: { kind: 'paths', paths }, repositories: [] };
  if (paths.length > 0 && mode !== 'lenses')
    throw new UsageError(
      `${chosen[0]} reviews a change; it takes no paths (got ${paths.join(' ')}); with --mode lenses, paths name repositories`,
    );
  if (paths.length > 0 && v.pr !== undefined)
    throw new UsageError(
      `--pr reviews one repository's pull request; it takes no repository paths (got ${paths.join(' ')})`,
    );
  if (v.changes) return { scope: { kind: 'changes' }, repositories: paths };
  if (v.staged) return { scope: { kind: 'staged' }, repositories: paths };
  if (v.base !== undefined)
    return { scope: { kind: 'branch', base: nonEmpty('--base', v.base)! }, repositories: paths };
  return {
    scope: { kind: 'pr', number: wholeNumber('--pr', v.pr, { default: 0, min: 1, max: Number.MAX_SAFE_INTEGER }) },
    repositories: [],
  };
}

function lensOptions(
  v: {
    model?: string;
    'full-fanout'?: boolean;
    'max-reviewers'?: string;
    spec?: string;
    rubric?: string;
    'reviewer-model'?: string[];
  },
  repositories: string[],
): LensOptions {
  const fullFanout = v['full-fanout'] ?? false;
  return {
    fullFanout,
    ...(v['max-reviewers'] !== undefined
      ? { maxReviewers: wholeNumber('--max-reviewers', v['max-reviewers'], { default: 0, min: 1, max: MAX_REVIEWERS }) }
      : {}),
    ...(v.spec !== undefined ? { spec: nonEmpty('--spec', v.spec)! } : {}),
    ...(v.rubric !== undefined ? { rubric: nonEmpty('--rubric', v.rubric)! } : {}),
    models: resolveLensModels(nonEmpty('--model', v.model), parseReviewerModels(v['reviewer-model'] ?? [])),
    repositories,
  };
}

function parseReviewerModels(pairs: string[]): Partial<LensModels> {
  const out: Partial<LensModels> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const [name, model] = at < 0 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
    if (!LENS_ROLES.includes(name as LensRole) || !model.trim()) {
      throw new UsageError(`--reviewer-model takes NAME=ID with NAME one of ${LENS_ROLES.join(', ')}, got "${pair}"`);
    }
    out[name as LensRole] = model;
  }
  return out;
}
