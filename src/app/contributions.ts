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
  showLog: 'skeptic.showLog',
  dismiss: 'skeptic.dismissFinding',
  copyFixPrompt: 'skeptic.copyFixPrompt',
  fixWithChat: 'skeptic.fixWithChat',
  showInReport: 'skeptic.showInReport',
  revealFinding: 'skeptic.revealFinding',
  filterFindings: 'skeptic.filterFindings',
} as const;

/** The findings view and its container in the activity bar. */
export const FINDINGS_VIEW = 'skeptic.findings';

/** Keys under the `skeptic.` section. */
export const SETTINGS = {
  model: 'model',
  modelPerStep: 'modelPerStep',
  maxConcurrency: 'maxConcurrency',
  requestTimeout: 'requestTimeout',
  maxAttempts: 'maxAttempts',
  effort: 'effort',
  baseUrl: 'baseUrl',
  excludes: 'excludes',
  contextFiles: 'contextFiles',
  reportFolder: 'reportFolder',
  confirmThreshold: 'confirmThreshold',
  maxCalls: 'maxCalls',
  batch: 'batch',
  batchTimeout: 'batchTimeout',
  severityMap: 'severityMap',
  includeUntracked: 'includeUntracked',
  cacheResults: 'cacheResults',
  prices: 'prices',
  fullFanout: 'quickReview.fullFanout',
  reviewerModels: 'quickReview.reviewerModels',
} as const;

export const SECRET_API_KEY = 'skeptic.anthropicApiKey';
export const REPORT_VIEW_TYPE = 'skeptic.report';

/**
 * Default and range of each number a user chooses, for the settings (package.json declares the same; a
 * unit test holds them together), the CLI's flags and the job builder, which clamps what settings hold.
 */
export const LIMITS = {
  /** Model requests in flight: skeptic.maxConcurrency, --concurrency. */
  concurrency: { default: 8, min: 1, max: 64 },
  /** Seconds one request attempt may take: skeptic.requestTimeout, --timeout. */
  requestTimeout: { default: 300, min: 1, max: 3600 },
  /** Attempts per request, the first included (retries on rate limits, overload, dropped connections): skeptic.maxAttempts, --max-attempts. */
  maxAttempts: { default: 6, min: 1, max: 20 },
  /** Model calls above which a run asks first: skeptic.confirmThreshold, --confirm-over. */
  confirmThreshold: { default: 300, min: 0, max: 1_000_000 },
  /** Model requests one run may send, failed ones included: skeptic.maxCalls (0: none), --max-calls. */
  maxCalls: { default: 0, min: 0, max: 1_000_000 },
  /** Seconds a whole review through the Message Batches API may take (a batch ends within 24 hours): skeptic.batchTimeout, --batch --timeout. */
  batchTimeout: { default: 86_400, min: 1, max: 259_200 },
} as const;
