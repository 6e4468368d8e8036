/**
 * The extension's command ids and setting keys, declared once. package.json contributes the same names;
 * a unit test checks that the two lists agree in both directions.
 */
export const COMMANDS = {
  reviewFiles: 'skeptic.reviewFiles',
  reviewChanges: 'skeptic.reviewChanges',
  reviewStaged: 'skeptic.reviewStaged',
  reviewBranch: 'skeptic.reviewBranch',
  quickReviewFiles: 'skeptic.quickReviewFiles',
  quickReviewChanges: 'skeptic.quickReviewChanges',
  cancel: 'skeptic.cancelReview',
  showReport: 'skeptic.showLastReport',
  clear: 'skeptic.clearFindings',
  setApiKey: 'skeptic.setApiKey',
} as const;

/** Keys under the `skeptic.` section. */
export const SETTINGS = {
  model: 'model',
  modelPerStep: 'modelPerStep',
  maxConcurrency: 'maxConcurrency',
  effort: 'effort',
  baseUrl: 'baseUrl',
  excludes: 'excludes',
  contextFiles: 'contextFiles',
  reportFolder: 'reportFolder',
  confirmThreshold: 'confirmThreshold',
  severityMap: 'severityMap',
  includeUntracked: 'includeUntracked',
  cacheResults: 'cacheResults',
  prices: 'prices',
  fullFanout: 'quickReview.fullFanout',
  reviewerModels: 'quickReview.reviewerModels',
} as const;

export const SECRET_API_KEY = 'skeptic.anthropicApiKey';
export const REPORT_VIEW_TYPE = 'skeptic.report';

/** Model calls above which a run asks first: the CLI's --confirm-over and the extension's setting default. */
export const DEFAULT_CONFIRM_THRESHOLD = 300;
