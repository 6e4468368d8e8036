/** Which reviewers run over which parts of each target: shared by the pipeline and the cost estimate. */
import { partOf, type Part } from './calls';
import { chunkFiles, DEFAULT_CHUNK_TOKENS } from './chunks';
import { routeReviewers, type Routing } from './routing';
import type { LensTarget } from './target';

export interface PlanOptions {
  fullFanout: boolean;
  maxReviewers: number;
  /** A --spec file was given (a PR description counts per target). */
  spec: string | null;
  chunkTokens?: number;
}

export interface Planned {
  target: LensTarget;
  routing: Routing;
  parts: Part[];
}

export function planTarget(target: LensTarget, opts: PlanOptions): Planned {
  return {
    target,
    routing: routeReviewers({
      files: target.files,
      fullFanout: opts.fullFanout,
      maxReviewers: opts.maxReviewers,
      ...(target.changedLines !== undefined ? { changedLines: target.changedLines } : {}),
      hasSpec: opts.spec !== null || Boolean(target.pr?.body.trim()),
    }),
    parts: chunkFiles(target.files, opts.chunkTokens ?? DEFAULT_CHUNK_TOKENS).map((chunk) => partOf(target, chunk)),
  };
}
