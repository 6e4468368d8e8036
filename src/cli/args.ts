/** Parses and checks `skeptic review` / `skeptic plan` arguments (the key comes from the environment). */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { ReviewChoices, TargetScope } from '../app/choices';
import { OPTION_ROWS, OPTIONS, type FlagRow, type OptionName } from '../app/choiceTable';
import { CHOICES, flagOf } from '../app/contributions';
import { flagValue, nonEmpty, parserOptions, wholeNumber, type RawFlag } from './flagValues';
import { UsageError } from './help';

export { nonEmpty, wholeNumber } from './flagValues';

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

/** The options of review and plan: every row of the table with a flag. */
const REVIEW_OPTIONS = parserOptions(OPTION_ROWS.map(([name]) => name));
/** The choices the flags make, each parsed by its row. */
const CHOICE_FLAGS = OPTION_ROWS.flatMap(([name, r]) => (!r.command && r.flag ? [[name, r.flag] as const] : []));

export function parseReviewArgs(argv: string[]): ReviewFlags {
  const parsed = parseCommandLine(argv, REVIEW_OPTIONS);
  const batchWait = timeoutUnderBatch(parsed.values as Record<string, RawFlag>);
  const v: Record<string, RawFlag> = {
    ...parsed.values,
    ...(batchWait ? { [OPTIONS.requestTimeout.flag.name]: undefined } : {}),
  };
  const {
    prices: pricesFile,
    intent,
    ...choices
  } = choicesOf(v) as ReviewFlags['choices'] & {
    prices?: string;
    intent?: string;
  };
  const mode = choices.mode;
  refuseCombinations(v, mode);
  const { scope, repositories } = scopeOf(parsed.positionals, v, mode);
  return {
    choices: { ...choices, ...batchWait, scope, ...(mode === 'lenses' ? { repositories } : {}) },
    ...(pricesFile !== undefined ? { pricesFile } : {}),
    ...(intent !== undefined ? { intent } : {}),
    yes: v.yes === true,
    help: v.help === true,
    verbose: v.verbose === true,
  };
}

/** Each flag given, as its choice takes it (the defaults are buildJob's). */
function choicesOf(v: Record<string, RawFlag>): Record<string, unknown> {
  return Object.fromEntries(
    CHOICE_FLAGS.flatMap(([name, flag]) => {
      const value = flagValue(name, v[flag.name]);
      return value === undefined ? [] : [[name, value]];
    }),
  );
}

/** What the flags cannot mean together: a flag of the other mode, one without the flag it needs, two that undo each other. */
function refuseCombinations(v: Record<string, RawFlag>, mode: 'staged' | 'lenses'): void {
  const given = CHOICE_FLAGS.filter(([, flag]) => v[flag.name] !== undefined).map(([, flag]) => flag);
  const lensOnly = given.filter((f) => f.mode === 'lenses').map((f) => `--${f.name}`);
  if (mode === 'staged' && lensOnly.length)
    throw new UsageError(`${lensOnly.join(', ')} ${lensOnly.length > 1 ? 'need' : 'needs'} --mode lenses`);
  if (mode === 'lenses' && given.some((f) => f.mode === 'staged'))
    throw new UsageError(
      `${flagOf('modelPerStep')} is for staged mode; in lens mode use ${flagOf('reviewerModels')} NAME=ID`,
    );
  for (const flag of given) {
    const needed = flag.needs && (OPTIONS[flag.needs as OptionName] as { flag: FlagRow }).flag.name;
    if (needed && v[needed] === undefined) throw new UsageError(`--${flag.name} needs --${needed}`);
  }
  if (v[OPTIONS.cacheResults.flag.name] && v[OPTIONS.refresh.flag.name])
    throw new UsageError('--refresh asks again what the result cache kept; it has no use with --no-cache');
  if (v[OPTIONS.cacheResults.flag.name] && v[OPTIONS.cacheDir.flag.name] !== undefined)
    throw new UsageError('--no-cache and --cache-dir cannot be combined');
}

/**
 * Under --batch a request has no time of its own to limit, and --timeout has been the whole run's since the
 * batch mode came (issue 18's contract, the README and the help): it still is, as the old spelling of
 * --batch-timeout. Undefined when --timeout is not that.
 */
function timeoutUnderBatch(v: Record<string, RawFlag>): { batchTimeout: number } | undefined {
  const timeout = v[OPTIONS.requestTimeout.flag.name] as string | undefined;
  if (!v[OPTIONS.batch.flag.name] || timeout === undefined) return undefined;
  if (v[OPTIONS.batchTimeout.flag.name] !== undefined)
    throw new UsageError(`${flagOf('requestTimeout')} under --batch is ${flagOf('batchTimeout')}: give one of them`);
  return { batchTimeout: flagValue('batchTimeout', timeout, flagOf('requestTimeout')) as number };
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

/** Where the calls go: the same flags for review, plan, ci and doctor. */
export const PROVIDER_OPTIONS = {
  [CHOICES.provider.flag]: { type: 'string' },
  [CHOICES.region.flag]: { type: 'string' },
  [CHOICES.project.flag]: { type: 'string' },
  [CHOICES.profile.flag]: { type: 'string' },
} as const;
