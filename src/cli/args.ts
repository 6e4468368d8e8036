/** Parses and checks `skeptic review` / `skeptic plan` arguments (the key comes from the environment). */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { ReviewChoices, TargetScope } from '../app/choices';
import { CHOICES, flagOf, LIMITS } from '../app/contributions';
import { EFFORTS, STAGED_STEPS, type Effort, type LensModels, type StagedStep } from '../model/models';
import { LENS_ROLES, MAX_REVIEWERS, type LensRole } from '../model/reviewers';
import { UsageError } from './help';
import { PRIORITY_ORDER } from '../model/order';
import type { Priority } from '../model/records';

/** What `skeptic review` and `skeptic plan` were told: the review's choices, and how the command itself behaves. */
export interface ReviewFlags {
  /** Named as everywhere (CHOICES); the working folder, the endpoint and the prices file's content come from cli/job.ts. */
  choices: Omit<ReviewChoices, 'cwd' | 'prices'> & { mode: 'staged' | 'lenses' };
  /** A JSON file of price overrides per model (see src/model/pricing.ts). */
  pricesFile?: string;
  /** --intent as typed: a file to read, else the text itself (cli/intent.ts); it stands before `choices.intent`. */
  intent?: string;
  /** Do not ask before a large run. */
  yes: boolean;
  help: boolean;
  /** plan: list every path, not only the counts. */
  verbose: boolean;
}

const C = CHOICES;

export function parseReviewArgs(argv: string[]): ReviewFlags {
  const parsed = parseCommandLine(argv, {
    [C.mode.flag]: { type: 'string' },
    [C.out.flag]: { type: 'string' },
    [C.json.flag]: { type: 'string' },
    [C.sarif.flag]: { type: 'string' },
    [C.events.flag]: { type: 'string' },
    [C.model.flag]: { type: 'string' },
    [C.modelPerStep.flag]: { type: 'string', multiple: true },
    [C.maxConcurrency.flag]: { type: 'string' },
    [C.requestTimeout.flag]: { type: 'string' },
    [C.maxAttempts.flag]: { type: 'string' },
    [C.effort.flag]: { type: 'string' },
    [C.excludes.flag]: { type: 'string', multiple: true },
    [C.contextFiles.flag]: { type: 'string', multiple: true },
    [C.cacheDir.flag]: { type: 'string' },
    [C.cacheResults.flag]: { type: 'boolean' },
    [C.refresh.flag]: { type: 'boolean' },
    [C.prices.flag]: { type: 'string' },
    [C.includeUntracked.flag]: { type: 'boolean' },
    [C.force.flag]: { type: 'boolean' },
    [C.confirmThreshold.flag]: { type: 'string' },
    [C.maxCalls.flag]: { type: 'string' },
    [C.maxCostUsd.flag]: { type: 'string' },
    [C.minPriority.flag]: { type: 'string' },
    [C.batch.flag]: { type: 'boolean' },
    [C.fullFanout.flag]: { type: 'boolean' },
    [C.maxReviewers.flag]: { type: 'string' },
    [C.spec.flag]: { type: 'string' },
    [C.rubric.flag]: { type: 'string' },
    [C.intent.flag]: { type: 'string' },
    [C.reviewerModels.flag]: { type: 'string', multiple: true },
    ...PROVIDER_OPTIONS,
    changes: { type: 'boolean' },
    staged: { type: 'boolean' },
    base: { type: 'string' },
    pr: { type: 'string' },
    yes: { type: 'boolean', short: 'y' },
    help: { type: 'boolean', short: 'h' },
    verbose: { type: 'boolean', short: 'v' },
  });
  const v = parsed.values;
  const mode = v[C.mode.flag] ?? 'staged';
  if (mode !== 'staged' && mode !== 'lenses') throw new UsageError(`--mode must be staged or lenses, got "${mode}"`);
  const lensOnly = [
    v[C.fullFanout.flag] && flagOf('fullFanout'),
    v[C.maxReviewers.flag] !== undefined && flagOf('maxReviewers'),
    v[C.spec.flag] !== undefined && flagOf('spec'),
    v[C.rubric.flag] !== undefined && flagOf('rubric'),
    v[C.reviewerModels.flag] && flagOf('reviewerModels'),
  ].filter(Boolean);
  if (mode === 'staged' && lensOnly.length)
    throw new UsageError(`${lensOnly.join(', ')} ${lensOnly.length > 1 ? 'need' : 'needs'} --mode lenses`);
  if (mode === 'lenses' && v[C.modelPerStep.flag])
    throw new UsageError('--step-model is for staged mode; in lens mode use --reviewer-model NAME=ID');
  if (v[C.cacheResults.flag] && v[C.refresh.flag])
    throw new UsageError('--refresh asks again what the result cache kept; it has no use with --no-cache');
  if (v[C.cacheResults.flag] && v[C.cacheDir.flag] !== undefined)
    throw new UsageError('--no-cache and --cache-dir cannot be combined');
  const out = v[C.out.flag];
  if (out !== undefined && !out.endsWith('.md')) throw new UsageError(`--out must name a .md file, got "${out}"`);
  // Machine outputs are rewritten on every run: a name that could be anything else is refused.
  const json = v[C.json.flag];
  if (json !== undefined && !json.endsWith('.json'))
    throw new UsageError(`--json must name a .json file, got "${json}"`);
  const sarif = v[C.sarif.flag];
  if (sarif !== undefined && !/\.sarif(\.json)?$/.test(sarif))
    throw new UsageError(`--sarif must name a .sarif file, got "${sarif}"`);
  const effort = v[C.effort.flag];
  if (effort !== undefined && !EFFORTS.includes(effort as Effort))
    throw new UsageError(`--effort must be one of ${EFFORTS.join(', ')}`);
  const minPriority = priorityFlag(v[C.minPriority.flag]);
  const { scope, repositories } = scopeOf(parsed.positionals, v, mode);
  const text = (field: Parameters<typeof flagOf>[0], value: string | undefined) =>
    value === undefined ? {} : { [field]: nonEmpty(flagOf(field), value)! };
  const number = (field: Exclude<keyof typeof LIMITS, 'batchTimeout' | 'maxCostUsd'>, value: string | undefined) => ({
    [field]: wholeNumber(flagOf(field), value, LIMITS[field]),
  });
  const pricesFile = nonEmpty(flagOf('prices'), v[C.prices.flag]);
  const intent = nonEmpty(flagOf('intent'), v[C.intent.flag]);
  const batch = v[C.batch.flag] ?? false;
  const timeout = v[C.requestTimeout.flag];
  const maxCost = v[C.maxCostUsd.flag];
  return {
    choices: {
      scope,
      mode,
      includeUntracked: !v[C.includeUntracked.flag],
      force: v[C.force.flag] ?? false,
      ...number('confirmThreshold', v[C.confirmThreshold.flag]),
      ...(out !== undefined ? { out } : {}),
      ...(json !== undefined ? { json } : {}),
      ...text('sarif', sarif),
      ...text('model', v[C.model.flag]),
      ...(mode === 'staged' ? { modelPerStep: parseStepModels(v[C.modelPerStep.flag] ?? []) } : {}),
      ...(mode === 'lenses' ? lensChoices(v, repositories) : {}),
      ...number('maxConcurrency', v[C.maxConcurrency.flag]),
      // Under --batch a request has no time of its own to limit: --timeout is the whole run's.
      ...(batch ? {} : number('requestTimeout', timeout)),
      ...(batch ? { batch } : {}),
      ...(batch && timeout !== undefined
        ? { batchTimeout: seconds(flagOf('requestTimeout'), timeout, LIMITS.batchTimeout) }
        : {}),
      ...number('maxAttempts', v[C.maxAttempts.flag]),
      ...(effort ? { effort } : {}),
      excludes: v[C.excludes.flag] ?? [],
      contextFiles: v[C.contextFiles.flag] ?? [],
      ...text('cacheDir', v[C.cacheDir.flag]),
      ...(v[C.cacheResults.flag] ? { cacheResults: false } : {}),
      ...(v[C.refresh.flag] ? { refresh: true } : {}),
      ...(v[C.maxCalls.flag] !== undefined ? number('maxCalls', v[C.maxCalls.flag]) : {}),
      ...(maxCost !== undefined ? { maxCostUsd: dollars(flagOf('maxCostUsd'), maxCost) } : {}),
      ...(minPriority ? { minPriority } : {}),
      ...text('events', v[C.events.flag]),
      ...text('provider', v[C.provider.flag]),
      ...text('region', v[C.region.flag]),
      ...text('project', v[C.project.flag]),
      ...text('profile', v[C.profile.flag]),
    },
    ...(pricesFile !== undefined ? { pricesFile } : {}),
    ...(intent !== undefined ? { intent } : {}),
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

/** --min-priority's value: one of the priorities, or a usage error naming them. */
export function priorityFlag(value: string | undefined): Priority | undefined {
  if (value !== undefined && !PRIORITY_ORDER.includes(value as Priority))
    throw new UsageError(`${flagOf('minPriority')} must be one of ${PRIORITY_ORDER.join(', ')}`);
  return value as Priority | undefined;
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

/** A positive amount of US dollars ("0.50", "$2"), within the ceiling's range. */
function dollars(flag: string, raw: string): number {
  const n = Number(raw.trim().replace(/^\$/, ''));
  if (!(n > 0 && n <= LIMITS.maxCostUsd.max) || raw.trim() === '')
    throw new UsageError(`${flag} takes an amount of US dollars above 0 (e.g. 0.50), got "${raw}"`);
  return n;
}

/** "24h", "90m", "45s" or a number of seconds, within the range. */
function seconds(flag: string, raw: string, { min, max }: { min: number; max: number }): number {
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
  mode: 'staged' | 'lenses',
): { scope: TargetScope; repositories: string[] } {
  const chosen = [
    v.changes && '--changes',
    v.staged && '--staged',
    v.base !== undefined && '--base',
    v.pr !== undefined && '--pr',
  ].filter(Boolean);
  if (chosen.length > 1) throw new UsageError(`${chosen.join(' and ')} cannot be combined; choose one change scope`);
  // No path and no scope flag: detected where the review runs (app/autoScope.ts).
  if (chosen.length === 0)
    return { scope: paths.length ? { kind: 'paths', paths } : { kind: 'auto' }, repositories: [] };
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

function lensChoices(
  v: { 'full-fanout'?: boolean; 'max-reviewers'?: string; spec?: string; rubric?: string; 'reviewer-model'?: string[] },
  repositories: string[],
): Pick<ReviewChoices, 'fullFanout' | 'maxReviewers' | 'spec' | 'rubric' | 'reviewerModels' | 'repositories'> {
  const maxReviewers = v[C.maxReviewers.flag];
  return {
    fullFanout: v[C.fullFanout.flag] ?? false,
    ...(maxReviewers !== undefined
      ? { maxReviewers: wholeNumber(flagOf('maxReviewers'), maxReviewers, { default: 0, min: 1, max: MAX_REVIEWERS }) }
      : {}),
    ...(v[C.spec.flag] !== undefined ? { spec: nonEmpty(flagOf('spec'), v[C.spec.flag])! } : {}),
    ...(v[C.rubric.flag] !== undefined ? { rubric: nonEmpty(flagOf('rubric'), v[C.rubric.flag])! } : {}),
    reviewerModels: parseReviewerModels(v[C.reviewerModels.flag] ?? []),
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

/** Where the calls go: the same flags for review, plan, ci and doctor. */
export const PROVIDER_OPTIONS = {
  [CHOICES.provider.flag]: { type: 'string' },
  [CHOICES.region.flag]: { type: 'string' },
  [CHOICES.project.flag]: { type: 'string' },
  [CHOICES.profile.flag]: { type: 'string' },
} as const;
