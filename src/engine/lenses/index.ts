/**
 * Lens mode's front door: all that app/ and eval/ use of the reviewers (the run, its cost model, its prompt
 * version, what a target is). Nothing outside engine/lenses/ imports its other files; app/ loads it when a
 * lens run starts (app/executeJob.ts) or an estimate is asked (app/estimate.ts).
 */
export { runLensReview, type LensRequest } from './pipeline';
export { estimateLensRun, type LensEstimate, type LensEstimateRequest } from './estimate';
export { LENS_PROMPT_VERSION } from './promptVersion';
export type { LensTargetSpec } from './target';
