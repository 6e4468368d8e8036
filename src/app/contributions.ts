/**
 * The extension's command ids and setting keys, declared once. package.json contributes the same names;
 * a unit test checks that the two lists agree in both directions.
 */
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

/**
 * Every choice a review takes, under the one field name it keeps from the settings and the flags to the engine
 * (ReviewChoices in app/choices.ts, ReviewJob, then StagedRequest or LensRequest): its setting key under `skeptic.` and its `skeptic
 * review` / `skeptic plan` flag, where it has one. The extension reads its settings by this table
 * (ui/settings.ts), the CLI names its flags by it (cli/args.ts), and a unit test holds the README's table of
 * settings and flags to it. `negated`: the flag turns the choice off.
 */
export const CHOICES = {
  mode: { flag: 'mode' },
  model: { setting: 'model', flag: 'model' },
  modelPerStep: { setting: 'modelPerStep', flag: 'step-model' },
  reviewerModels: { setting: 'quickReview.reviewerModels', flag: 'reviewer-model' },
  maxConcurrency: { setting: 'maxConcurrency', flag: 'concurrency' },
  requestTimeout: { setting: 'requestTimeout', flag: 'timeout' },
  maxAttempts: { setting: 'maxAttempts', flag: 'max-attempts' },
  effort: { setting: 'effort', flag: 'effort' },
  /** The CLI takes the endpoint from ANTHROPIC_BASE_URL. */
  baseUrl: { setting: 'baseUrl' },
  /** Where the calls go (docs/providers.md); without them, the environment decides, as for Claude Code. */
  provider: { setting: 'provider', flag: 'provider' },
  region: { setting: 'region', flag: 'region' },
  project: { setting: 'project', flag: 'project' },
  profile: { setting: 'profile', flag: 'profile' },
  excludes: { setting: 'excludes', flag: 'exclude' },
  contextFiles: { setting: 'contextFiles', flag: 'context-file' },
  includeUntracked: { setting: 'includeUntracked', flag: 'no-untracked', negated: true },
  force: { flag: 'force' },
  cacheResults: { setting: 'cacheResults', flag: 'no-cache', negated: true },
  cacheDir: { flag: 'cache-dir' },
  refresh: { flag: 'refresh' },
  /** The flag names a JSON file holding the same map as the setting. */
  prices: { setting: 'prices', flag: 'prices' },
  confirmThreshold: { setting: 'confirmThreshold', flag: 'confirm-over' },
  maxCalls: { setting: 'maxCalls', flag: 'max-calls' },
  maxCostUsd: { setting: 'maxCostUsd', flag: 'max-cost' },
  /** What is shown and posted: the findings of this priority or higher. */
  minPriority: { setting: 'minPriority', flag: 'min-priority' },
  batch: { setting: 'batch', flag: 'batch' },
  /** The CLI's --timeout is the whole run's under --batch. */
  batchTimeout: { setting: 'batchTimeout' },
  reportFolder: { setting: 'reportFolder' },
  out: { flag: 'out' },
  json: { flag: 'json' },
  sarif: { flag: 'sarif' },
  events: { flag: 'events' },
  fullFanout: { setting: 'quickReview.fullFanout', flag: 'full-fanout' },
  maxReviewers: { flag: 'max-reviewers' },
  spec: { flag: 'spec' },
  rubric: { flag: 'rubric' },
  /** The flag takes a file or the text itself; a pull request's or a range's own intent applies without it. */
  intent: { flag: 'intent' },
  /** How findings show in the Problems panel: the host's choice, not the run's. */
  severityMap: { setting: 'severityMap' },
} as const satisfies Record<string, { setting?: string; flag?: string; negated?: true }>;

type Choices = typeof CHOICES;
type SettingKeys = {
  [K in keyof Choices as Choices[K] extends { setting: string } ? K : never]: Choices[K] extends { setting: infer S }
    ? S
    : never;
};

/** Keys under the `skeptic.` section, by choice: the settings half of CHOICES. */
export const SETTINGS = Object.fromEntries(
  Object.entries(CHOICES).flatMap(([field, c]) => ('setting' in c ? [[field, c.setting]] : [])),
) as SettingKeys;

/** A choice's flag as typed: `--concurrency`. */
export const flagOf = (
  field: { [K in keyof Choices]: Choices[K] extends { flag: string } ? K : never }[keyof Choices],
) => `--${(CHOICES[field] as { flag: string }).flag}`;

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
 * Default and range of each number a user chooses, for the settings (package.json declares the same; a
 * unit test holds them together), the CLI's flags and the job builder, which clamps what settings hold.
 */
export const LIMITS = {
  /** Model requests in flight: skeptic.maxConcurrency, --concurrency. */
  maxConcurrency: { default: 8, min: 1, max: 64 },
  /** Seconds one request attempt may take: skeptic.requestTimeout, --timeout. */
  requestTimeout: { default: 300, min: 1, max: 3600 },
  /** Attempts per request, the first included (retries on rate limits, overload, dropped connections): skeptic.maxAttempts, --max-attempts. */
  maxAttempts: { default: 6, min: 1, max: 20 },
  /** Model calls above which a run asks first: skeptic.confirmThreshold, --confirm-over. */
  confirmThreshold: { default: 300, min: 0, max: 1_000_000 },
  /** Model requests one run may send, failed ones included: skeptic.maxCalls (0: none), --max-calls. */
  maxCalls: { default: 0, min: 0, max: 1_000_000 },
  /** Dollars one run may spend: skeptic.maxCostUsd (0: no ceiling), --max-cost (a decimal). */
  maxCostUsd: { default: 0, min: 0, max: 1_000_000 },
  /** Seconds a whole review through the Message Batches API may take (a batch ends within 24 hours): skeptic.batchTimeout, --batch --timeout. */
  batchTimeout: { default: 86_400, min: 1, max: 259_200 },
} as const;
