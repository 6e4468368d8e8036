/**
 * Every option of a review, one row each: what a user can choose (a ReviewChoices field, under the one name it
 * keeps from the setting and the flag to the engine) and the flags `skeptic review` and `skeptic plan` take for
 * themselves (`command`). A row says the choice's default and range (`limit`), its flag (how it is parsed, its
 * line in the help), and its VS Code setting (its package.json declaration and its line in the README).
 *
 * Everything else is made from this table: the setting keys the extension reads (app/contributions.ts), the
 * flags cli/args.ts parses and cli/help.ts lists, the flags `skeptic eval` shares with review, buildJob's
 * defaults and ranges, and `settingsContribution()`, which package.json's `contributes.configuration` must
 * equal (package.json stays a static file: test/unit/contributions.test.ts holds the two, and the README's
 * table, to this one). Adding a flag or a setting is adding a row.
 */
import { SCOPE_ROWS } from './options/scope';
import { RUN_ROWS } from './options/run';
import { LIMIT_ROWS } from './options/limits';
import { LENS_ROWS } from './options/lens';
import { PROVIDER_ROWS } from './options/provider';
import { SETTING_ONLY_ROWS } from './options/settingsOnly';
import type { OptionRow } from './options/row';

export type * from './options/row';

/** In the help's order; rows without a flag last. */
export const OPTIONS = {
  ...SCOPE_ROWS,
  ...RUN_ROWS,
  ...LIMIT_ROWS,
  ...LENS_ROWS,
  ...PROVIDER_ROWS,
  ...SETTING_ONLY_ROWS,
} as const satisfies Record<string, OptionRow>;

export type OptionName = keyof typeof OPTIONS;
export const OPTION_ROWS = Object.entries(OPTIONS) as Array<[OptionName, OptionRow]>;

/** package.json's `contributes.configuration.properties`, as the rows declare them. */
export function settingsContribution(): Record<string, unknown> {
  return Object.fromEntries(
    OPTION_ROWS.flatMap(([, { setting, limit }]) => {
      if (!setting) return [];
      const range = limit && { default: limit.default, minimum: limit.min, maximum: limit.max };
      const declared = {
        type: setting.type,
        default: setting.default,
        ...range,
        scope: 'resource',
        ...setting.declared,
      };
      return [[`skeptic.${setting.key}`, declared]];
    }),
  );
}

/** The settings an untrusted workspace reads from the user's settings only (package.json repeats them). */
export const RESTRICTED_SETTINGS = OPTION_ROWS.flatMap(([, r]) => (r.setting?.restricted ? [r.setting.key] : []));
