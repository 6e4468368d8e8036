/** Reaching the provider: the run's modules loaded ahead, the client connected, the windows it knows. */
import type { PriceOverrides } from '../model/pricing';
import type { Connection } from '../engine/connect';
import { modelsInUse } from './jobChecks';
import type { ReviewJob } from './job';

let preloading = false;

/**
 * Loads what a review's first call runs — the SDK, the mode's pipeline and Node's own fetch (about 1 MB it compiles
 * on first use) — a module a turn, in turns of the event loop the caller spends waiting on git and the disk, so the
 * first request does not wait for them. Best effort: what fails to load here fails again where it is used, and says so.
 */
export function preloadRun(mode: ReviewJob['mode']): void {
  if (preloading) return;
  preloading = true;
  const nextTurn = () => new Promise((next) => setImmediate(next));
  void (async () => {
    await nextTurn();
    await import('../engine/connect');
    await nextTurn();
    void globalThis.Response; // Node compiles its fetch on first touch of any of its globals
    await nextTurn();
    await (mode === 'lenses' ? import('../engine/lenses') : import('../engine/staged'));
  })().catch(() => undefined);
}

/** The provider's client with its credentials resolved: a ProviderError naming the fix when they cannot be. */
export async function connectJob(
  job: Pick<ReviewJob, 'provider' | 'apiKey' | 'requestTimeout' | 'editor'> &
    Partial<Pick<ReviewJob, 'models' | 'mode' | 'lens'>>,
): Promise<Connection> {
  // Loaded when a run is about to call: a plan makes no call and needs no SDK.
  const { connect } = await import('../engine/connect');
  return connect({
    provider: job.provider,
    apiKey: job.apiKey,
    requestTimeout: job.requestTimeout,
    env: process.env,
    ...(job.editor ? { editor: job.editor } : {}),
    // The editor's models are looked up (and chosen, where missing) before the run's first call.
    ...(job.models ? { models: modelsInUse({ ...job, models: job.models }) } : {}),
  });
}

/** The job with the context windows its connection knows (the editor's models), over the price table's. */
export function withWindows<J extends Pick<ReviewJob, 'prices'>>(job: J, connection: Pick<Connection, 'windows'>): J {
  if (!connection.windows) return job;
  const prices: PriceOverrides = { ...job.prices };
  for (const [model, window] of Object.entries(connection.windows))
    prices[model] = { ...prices[model], context_window: window };
  return { ...job, prices };
}
