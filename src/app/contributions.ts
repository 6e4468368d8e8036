/**
 * The extension's command ids and setting keys, declared once. package.json contributes the same names;
 * a unit test checks that the two lists agree in both directions.
 */
import { OPTION_ROWS, OPTIONS, type Limit } from './choiceTable';

export { RESTRICTED_SETTINGS } from './choiceTable';

export const COMMANDS = {
  reviewFiles: 'skeptic.reviewFiles',
  reviewAuto: 'skeptic.reviewAuto',
  reviewChanges: 'skeptic.reviewChanges',
  reviewStaged: 'skeptic.reviewStaged',
  reviewBranch: 'skeptic.reviewBranch',
  quickReviewFiles: 'skeptic.quickReviewFiles',
  quickReviewChanges: 'skeptic.quickReviewChanges',
  cancel: 'skeptic.cancelReview',
  showReport: 'skeptic.showLastReport',
  clear: 'skeptic.clearFindings',
  setApiKey: 'skeptic.setApiKey',
  showLog: 'skeptic.showLog',
  checkSetup: 'skeptic.checkSetup',
  dismiss: 'skeptic.dismissFinding',
  copyFixPrompt: 'skeptic.copyFixPrompt',
  fixWithChat: 'skeptic.fixWithChat',
  showInReport: 'skeptic.showInReport',
  revealFinding: 'skeptic.revealFinding',
  filterFindings: 'skeptic.filterFindings',
} as const;

/** The findings view and its container in the activity bar. */
export const FINDINGS_VIEW = 'skeptic.findings';

type Options = typeof OPTIONS;
type Choice = { [K in keyof Options]: Options[K] extends { command: true } ? never : K }[keyof Options];
type Named<K extends keyof Options> = (Options[K] extends { setting: { key: infer S } } ? { setting: S } : unknown) &
  (Options[K] extends { flag: { name: infer F } } ? { flag: F } : unknown) &
  (Options[K] extends { flag: { negated: true } } ? { negated: true } : unknown);

/**
 * Every choice a review takes, named by its row of the table (app/choiceTable.ts): its setting key under
 * `skeptic.` and its `skeptic review` / `skeptic plan` flag, where it has one. `negated`: the flag turns the
 * choice off.
 */
export const CHOICES = Object.fromEntries(
  OPTION_ROWS.filter(([, r]) => !r.command).map(([field, { setting, flag }]) => [
    field,
    {
      ...(setting ? { setting: setting.key } : {}),
      ...(flag ? { flag: flag.name } : {}),
      ...(flag?.negated ? { negated: true } : {}),
    },
  ]),
) as { [K in Choice]: Named<K> };

type SettingKeys = {
  [K in keyof Options as Options[K] extends { setting: object } ? K : never]: Options[K] extends {
    setting: { key: infer S };
  }
    ? S
    : never;
};

/** Keys under the `skeptic.` section, by choice: the settings half of the table. */
export const SETTINGS = Object.fromEntries(
  OPTION_ROWS.flatMap(([field, r]) => (r.setting ? [[field, r.setting.key]] : [])),
) as SettingKeys;

/** An option's flag as typed: `--concurrency`. */
export const flagOf = (
  field: { [K in keyof Options]: Options[K] extends { flag: { name: string } } ? K : never }[keyof Options],
) => `--${(OPTIONS[field] as { flag: { name: string } }).flag.name}`;

/** How messages name the provider settings (see model/providers.ts, resolveProvider). */
export const PROVIDER_SETTINGS = {
  provider: `skeptic.${SETTINGS.provider}`,
  region: `skeptic.${SETTINGS.region}`,
  project: `skeptic.${SETTINGS.project}`,
  profile: `skeptic.${SETTINGS.profile}`,
  baseUrl: `skeptic.${SETTINGS.baseUrl}`,
} as const;

export const SECRET_API_KEY = 'skeptic.anthropicApiKey';
export const REPORT_VIEW_TYPE = 'skeptic.report';

/**
 * Default and range of each number a setting holds, for the settings, the CLI's flags and the job builder,
 * which clamps what settings hold.
 */
export const LIMITS = Object.fromEntries(
  OPTION_ROWS.flatMap(([field, r]) => (r.setting && r.limit ? [[field, r.limit]] : [])),
) as { [K in keyof Options as Options[K] extends { limit: Limit; setting: object } ? K : never]: Limit };
