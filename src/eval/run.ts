/**
 * One evaluation: check out every selected PR (free: no model call), then for each PR that checked out,
 * review it, judge every golden comment against every surviving finding, and score. A PR that fails to
 * fetch or to review is reported with its reason and the others are still scored; the totals count the
 * scored PRs only.
 */
import { noAccess } from '../model/access';
import { join } from 'node:path';
import { FatalApiError, ModelClient } from '../engine/client';
import { ResultCache } from '../engine/resultCache';
import { SubAgentRunner } from '../engine/runner';
import type { EmitFn } from '../model/events';
import type { Finding } from '../model/finding';
import { costUsd } from '../model/pricing';
import type { Usage } from '../model/usage';
import type { EvalCase } from './cases';
import { EvalError } from './errors';
import { checkoutPull, pullSlug, type Checkout } from './checkout';
import { judgeAll } from './judge';
import type { Judgement } from './records';
import { reviewCheckout, type ModelUsage, type ReviewSettings } from './review';
import { matchOneToOne, type Tally } from './score';

export interface PreparedCase {
  case: EvalCase;
  slug: string;
  checkout: Checkout | null;
  /** Why the checkout failed. */
  error?: string;
}

/** Fetches every case's PR into `<workdir>/repos/<slug>` (reusing finished checkouts). */
export async function checkoutCases(
  cases: EvalCase[],
  workdir: string,
  opts: { token?: string; signal?: AbortSignal; note?: (line: string) => void },
): Promise<PreparedCase[]> {
  const out: PreparedCase[] = [];
  for (const c of cases) {
    const slug = pullSlug(c.pull);
    opts.note?.(`fetching ${c.url}`);
    try {
      const checkout = await checkoutPull(c.pull, join(workdir, 'repos', slug), {
        ...(opts.token ? { token: opts.token } : {}),
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
      out.push({ case: c, slug, checkout });
    } catch (err) {
      opts.signal?.throwIfAborted();
      out.push({ case: c, slug, checkout: null, error: `fetch failed: ${(err as Error).message}` });
    }
  }
  return out;
}

export interface EvalSettings {
  workdir: string;
  review: ReviewSettings;
  judgeModel: string;
  apiKey: string;
}

export interface PrOutcome {
  case: EvalCase;
  /** null: the PR was not scored (see error). */
  tally: Tally | null;
  error?: string;
  findings: Finding[];
  judgements: Judgement[];
  /** golden index → finding index. */
  matches: Map<number, number>;
  reviewCalls: number;
  judgeCalls: number;
  /** null when a model's price is unknown. */
  costUsd: number | null;
  seconds: number;
  reportPath?: string;
  /** Review units that failed (the report lists them); the PR is still scored on what survived. */
  failedUnits: number;
}

export async function runEval(
  prepared: PreparedCase[],
  settings: EvalSettings,
  emit: EmitFn,
  signal: AbortSignal,
  note: (line: string) => void = () => undefined,
): Promise<PrOutcome[]> {
  const { review } = settings;
  const client = new ModelClient({
    apiKey: settings.apiKey,
    concurrency: review.concurrency,
    timeoutMs: review.timeoutMs,
    maxAttempts: review.maxAttempts,
    signal,
    ...(review.baseURL ? { baseURL: review.baseURL } : {}),
    ...(review.prices ? { prices: review.prices } : {}),
  });
  const judge = new SubAgentRunner(client, noAccess(settings.workdir), { cache: new ResultCache(review.cacheDir) });
  const outcomes: PrOutcome[] = [];
  let stopped: string | null = null;
  for (const [i, p] of prepared.entries()) {
    const base: PrOutcome = {
      case: p.case,
      tally: null,
      findings: [],
      judgements: [],
      matches: new Map(),
      reviewCalls: 0,
      judgeCalls: 0,
      costUsd: 0,
      seconds: 0,
      failedUnits: 0,
    };
    if (stopped || !p.checkout) {
      outcomes.push({ ...base, error: p.error ?? `not run: ${stopped}` });
      continue;
    }
    note(`PR ${i + 1}/${prepared.length}: ${p.case.url}`);
    const started = Date.now();
    let reviewed;
    try {
      reviewed = await reviewCheckout(
        p.checkout,
        review,
        settings.apiKey,
        join(settings.workdir, 'reports', p.slug),
        emit,
        signal,
      );
    } catch (err) {
      if (signal.aborted) throw err;
      if (err instanceof FatalApiError) throw new EvalError(err.message);
      outcomes.push({ ...base, error: `review failed: ${(err as Error).message}` }); // e.g. the PR changes no reviewable file
      continue;
    }
    const { result } = reviewed;
    if (result.stopped) {
      // Cancelled, or the API refused the run as a whole (a bad key, an unknown model): nothing after it can run either.
      stopped = result.stopped;
      outcomes.push({
        ...base,
        error: `review stopped: ${result.stopped}`,
        reviewCalls: result.usage.calls,
        costUsd: result.usage.cost_usd,
      });
      continue;
    }
    const before = { ...client.usage };
    const judgements = await judgeAll(judge, settings.judgeModel, p.case.golden, result.findings, p.slug).catch(
      (err: unknown) => {
        throw err instanceof FatalApiError ? new EvalError(`the judge model was refused: ${err.message}`) : err;
      },
    );
    const judged = usageSince(before, client.usage);
    const matches = matchOneToOne(judgements, p.case.golden.length);
    outcomes.push({
      ...base,
      tally: { findings: result.findings.length, golden: p.case.golden.length, matched: matches.size },
      findings: result.findings,
      judgements,
      matches,
      reviewCalls: result.usage.calls,
      judgeCalls: judged.calls,
      costUsd: sumCost(result.usage.cost_usd, judged.cost_usd),
      seconds: (Date.now() - started) / 1000,
      reportPath: reviewed.reportPath,
      failedUnits: result.failed.length,
    });
  }
  return outcomes;
}

/** Dollars for estimated usage per model (an estimate carries no cost of its own). */
export function priced(usage: ModelUsage, prices: ReviewSettings['prices']): number | null {
  let total: number | null = 0;
  for (const [model, u] of usage) total = sumCost(total, costUsd(model, u, prices));
  return total;
}

export function sumCost(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a + b;
}

function usageSince(before: Usage, now: Usage): Usage {
  return {
    calls: now.calls - before.calls,
    input_tokens: now.input_tokens - before.input_tokens,
    output_tokens: now.output_tokens - before.output_tokens,
    cache_read_input_tokens: now.cache_read_input_tokens - before.cache_read_input_tokens,
    cache_creation_input_tokens: now.cache_creation_input_tokens - before.cache_creation_input_tokens,
    cost_usd: now.cost_usd === null || before.cost_usd === null ? null : now.cost_usd - before.cost_usd,
  };
}
