/** Which reviewers run over which parts of each target: shared by the pipeline and the cost estimate. */
import { partOf, type Part, type ScopeRoom } from './calls';
import { chunkFiles, DEFAULT_CHUNK_TOKENS } from './chunks';
import { routeReviewers, type Routing } from './routing';
import type { LensTarget } from './target';

export interface PlanOptions {
  fullFanout: boolean;
  maxReviewers: number;
  /** A --spec file was given (a PR description counts per target). */
  spec: string | null;
  chunkTokens?: number;
  /** The scope tokens a part of the target may carry beside its reviewers' requests (calls.ts scopeRoom); none: no limit. */
  scopeRoom?: ScopeRoom;
}

export interface Planned {
  target: LensTarget;
  routing: Routing;
  parts: Part[];
}

export function planTarget(target: LensTarget, opts: PlanOptions): Planned {
  const routing = routeReviewers({
    files: target.files,
    fullFanout: opts.fullFanout,
    maxReviewers: opts.maxReviewers,
    ...(target.changedLines !== undefined ? { changedLines: target.changedLines } : {}),
    hasSpec: opts.spec !== null || Boolean(target.pr?.body.trim()),
  });
  return {
    target,
    routing,
    parts: chunkFiles(
      target.files,
      opts.chunkTokens ?? DEFAULT_CHUNK_TOKENS,
      opts.scopeRoom?.(target, routing.reviewers),
    ).map((chunk) => partOf(target, chunk)),
  };
}
