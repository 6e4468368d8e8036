/**
 * Staged mode's front door: all that app/ and eval/ use of the five-step pipeline (the run, its forecast
 * and cost model, its prompt version). Nothing outside engine/staged/ imports its other files; app/ loads
 * it when a staged run starts (app/executeJob.ts) or an estimate is asked (app/estimate.ts).
 */
export { runStagedReview, type StagedRequest } from './pipeline';
export { forecastStagedRun, type StagedForecast } from './forecast';
export { estimateStagedRun, type Estimate, type StagedEstimateRequest, type StagedStepEstimate } from './estimate';
export { STAGED_PROMPT_VERSION } from './promptVersion';
