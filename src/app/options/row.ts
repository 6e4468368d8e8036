/** The shape of a row of the table of options (app/choiceTable.ts). */
/** A number's default and range: a flag outside it is refused, a setting outside it is clamped. */
export interface Limit {
  readonly default: number;
  readonly min: number;
  readonly max: number;
}

/** What a flag's value is, which says how the CLI parses and checks it (cli/flagValues.ts). */
export type FlagValue =
  | { readonly kind: 'switch' | 'text' | 'list' | 'dollars' }
  /** A whole number within the row's limit. */
  | { readonly kind: 'count' }
  /** "24h", "90m", "45s" or seconds, within the row's limit. */
  | { readonly kind: 'duration' }
  /** A path whose name ends as `ext` says (machine outputs are rewritten on every run). */
  | { readonly kind: 'file'; readonly ext: RegExp; readonly noun: string }
  | { readonly kind: 'enum'; readonly values: readonly string[]; readonly default?: string }
  /** Repeatable KEY=ID, KEY one of `names`. */
  | { readonly kind: 'pairs'; readonly key: string; readonly names: readonly string[] }
  /** Read by its command before these flags are parsed (review's --format, the CLI's --version): help only. */
  | { readonly kind: 'elsewhere' };

export interface FlagRow {
  readonly name: string;
  /** Where the help lists it. */
  readonly section: 'scope' | 'review' | 'lens' | 'provider';
  readonly value: FlagValue;
  /** How the help shows the value: `--concurrency N`. */
  readonly arg?: string;
  /** The help's label when it is not `--name ARG`. */
  readonly label?: string;
  readonly short?: string;
  /** The flag turns the choice off (`--no-cache`). */
  readonly negated?: true;
  /** Only in this mode: given in the other, the flag is refused. */
  readonly mode?: 'staged' | 'lenses';
  /** Only beside this other option's flag. */
  readonly needs?: string;
  /** The help's lines; `{default}` is the row's default. */
  readonly help: readonly string[];
}

export interface SettingRow {
  /** Under `skeptic.`. */
  readonly key: string;
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';
  /** The row's limit gives a number's. */
  readonly default?: unknown;
  /** In an untrusted workspace, read from the user's settings only. */
  readonly restricted?: true;
  /** A setting that is never a flag: what the command line has instead. */
  readonly instead?: string;
  /** The host's choice, not the run's: never sent to the worker, never a flag. */
  readonly host?: true;
  /** What it chooses, in the README's table; `{default}` is the row's default. */
  readonly readme: string;
  /** The rest of its package.json declaration (description, enum, …). */
  readonly declared: Readonly<Record<string, unknown>>;
}

export interface OptionRow {
  /** A flag of the command itself, not a choice the job takes. */
  readonly command?: true;
  readonly limit?: Limit;
  readonly flag?: FlagRow;
  readonly setting?: SettingRow;
}
