/**
 * The table's flags (app/choiceTable.ts) as node's parser takes them, and each value checked by its kind:
 * what `skeptic review`, `plan` and `eval` parse the same way. A bad value is a usage error naming the flag.
 */
import { OPTIONS, type FlagRow, type Limit, type OptionName } from '../app/choiceTable';
import { UsageError } from './help';

/** What node's parser hands back for one flag. */
export type RawFlag = string | boolean | string[] | undefined;

type ParserOption = { type: 'string' | 'boolean'; multiple?: boolean; short?: string };

/** node's parseArgs options for these rows (those read elsewhere left out). */
export function parserOptions(names: readonly OptionName[]): Record<string, ParserOption> {
  return Object.fromEntries(
    names.flatMap((name) => {
      const flag = (OPTIONS[name] as { flag?: FlagRow }).flag;
      if (!flag || flag.value.kind === 'elsewhere') return [];
      const kind = flag.value.kind;
      const option: ParserOption = {
        type: kind === 'switch' ? 'boolean' : 'string',
        ...(kind === 'list' || kind === 'pairs' ? { multiple: true } : {}),
        ...(flag.short ? { short: flag.short } : {}),
      };
      return [[flag.name, option]];
    }),
  );
}

/**
 * A row's flag value as its choice takes it, checked; undefined when the flag was not given (an enum with a
 * default gives it). `as`: the flag as typed, when another spelling stands for this one.
 */
export function flagValue(name: OptionName, raw: RawFlag, as?: string): unknown {
  const { flag, limit } = OPTIONS[name] as { flag: FlagRow; limit?: Limit };
  const said = as ?? `--${flag.name}`;
  const value = flag.value;
  if (value.kind === 'enum') return oneOf(said, raw as string | undefined, value.values) ?? value.default;
  if (raw === undefined || raw === false) return undefined;
  switch (value.kind) {
    case 'switch':
      return !flag.negated;
    case 'list':
      return raw;
    case 'pairs':
      return pairs(said, raw as string[], value);
    case 'text':
      return nonEmpty(said, raw as string);
    case 'file':
      if (!value.ext.test(raw as string)) throw new UsageError(`${said} must name a ${value.noun} file, got "${raw}"`);
      return raw;
    case 'count':
      return wholeNumber(said, raw as string, limit!);
    case 'dollars':
      return dollars(said, raw as string, limit!);
    case 'duration':
      return seconds(said, raw as string, limit!);
    case 'elsewhere':
      return undefined;
  }
}

export function nonEmpty(flag: string, value: string | undefined): string | undefined {
  if (value !== undefined && value.trim() === '') throw new UsageError(`${flag} needs a value`);
  return value;
}

export function wholeNumber(flag: string, raw: string | undefined, { default: fallback, min, max }: Limit): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`${flag} takes a whole number from ${min} to ${max}, got "${raw}"`);
  return n;
}

/** One of `values`, or a usage error naming them. */
export function oneOf<T extends string>(flag: string, raw: string | undefined, values: readonly T[]): T | undefined {
  if (raw === undefined || values.includes(raw as T)) return raw as T | undefined;
  const choices = values.length === 2 ? values.join(' or ') : `one of ${values.join(', ')}`;
  throw new UsageError(`${flag} must be ${choices}, got "${raw}"`);
}

/** A positive amount of US dollars ("0.50", "$2"), within the ceiling's range. */
function dollars(flag: string, raw: string, { max }: Limit): number {
  const n = Number(raw.trim().replace(/^\$/, ''));
  if (!(n > 0 && n <= max) || raw.trim() === '')
    throw new UsageError(`${flag} takes an amount of US dollars above 0 (e.g. 0.50), got "${raw}"`);
  return n;
}

/** "24h", "90m", "45s" or a number of seconds, within the range. */
function seconds(flag: string, raw: string, { min, max }: Limit): number {
  const m = /^(\d+)(s|m|h)?$/.exec(raw.trim());
  const n = m ? Number(m[1]) * { s: 1, m: 60, h: 3600 }[(m[2] ?? 's') as 's' | 'm' | 'h'] : NaN;
  if (!(n >= min && n <= max))
    throw new UsageError(`${flag} takes a duration from ${min}s to ${max / 3600}h (e.g. 90m, 24h, 3600), got "${raw}"`);
  return n;
}

/** KEY=ID pairs, each KEY one of `names` and each ID non-empty: `--step-model review=claude-…`. */
function pairs(flag: string, list: string[], { key, names }: { key: string; names: readonly string[] }) {
  const out: Record<string, string> = {};
  for (const pair of list) {
    const at = pair.indexOf('=');
    const [name, model] = at < 0 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
    if (!names.includes(name) || !model.trim())
      throw new UsageError(`${flag} takes ${key}=ID with ${key} one of ${names.join(', ')}, got "${pair}"`);
    out[name] = model;
  }
  return out;
}
