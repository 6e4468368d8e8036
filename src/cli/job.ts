/**
 * The job the flags describe, the same for `skeptic review` and `skeptic plan`: one price table, one state
 * folder and one result cache (the repository's, `--cache-dir DIR`, or none with `--no-cache`), so the plan
 * counts what the review will ask.
 */
import { resolve } from 'node:path';
import { autoScope } from '../app/autoScope';
import { buildJob } from '../app/buildJob';
import type { ReviewJob } from '../app/job';
import { repositoryStateDir, resultsDir } from '../app/state';
import type { ReviewArgs } from './args';
import { loadPrices } from './prices';
import type { CliIo } from './review';

/** `apiKey`: '' for a plan, which makes no call. */
export async function jobFromArgs(
  args: ReviewArgs,
  io: Pick<CliIo, 'cwd' | 'env'>,
  apiKey: string,
): Promise<ReviewJob & { stateDir: string }> {
  const prices = await loadPrices(io.cwd, args.pricesFile);
  const stateDir = await repositoryStateDir(io.cwd, io.env);
  const cacheDir = args.noCache ? undefined : args.cacheDir ? resolve(io.cwd, args.cacheDir) : resultsDir(stateDir);
  const job = buildJob({
    cwd: io.cwd,
    scope: args.scope,
    mode: args.mode,
    stepModels: args.models,
    ...(args.lens ? { lens: args.lens, reviewerModels: args.lens.models } : {}),
    excludes: args.excludes,
    includeUntracked: args.includeUntracked,
    force: args.force,
    contextFiles: args.contextFiles,
    concurrency: args.concurrency,
    requestTimeout: args.requestTimeout,
    maxAttempts: args.maxAttempts,
    ...(args.effort ? { effort: args.effort } : {}),
    apiKey,
    ...(io.env.ANTHROPIC_BASE_URL ? { baseURL: io.env.ANTHROPIC_BASE_URL } : {}),
    ...(cacheDir ? { cacheDir } : {}),
    stateDir,
    ...(prices ? { prices } : {}),
    ...(args.maxCalls ? { maxCalls: args.maxCalls } : {}),
    ...(args.refresh ? { refresh: true } : {}),
    batch: args.batch,
    ...(args.batchTimeout ? { batchTimeout: args.batchTimeout } : {}),
    confirmOver: args.confirmOver,
    outputs: {
      ...(args.out ? { out: args.out } : {}),
      ...(args.json ? { json: args.json } : {}),
      ...(args.sarif ? { sarif: args.sarif } : {}),
      ...(args.events ? { events: args.events } : {}),
    },
  });
  return { ...job, stateDir };
}

/** With no path and no scope flag, the detected scope; its line (which and why) is the first of the output. */
export async function chooseScope(
  args: ReviewArgs,
  io: Pick<CliIo, 'cwd' | 'env'>,
  out: NodeJS.WritableStream,
): Promise<ReviewArgs> {
  if (!args.autoScope) return args;
  const chosen = await autoScope(io.cwd, io.env);
  out.write(`${chosen.line}\n`);
  return { ...args, scope: chosen.scope };
}
