/**
 * One evaluation: check out every selected PR (free: no model call), then for each PR that checked out,
 * review it, judge every golden comment against every surviving finding, and score. A PR that fails to
 * fetch or to review is reported with its reason and the others are still scored; the totals count the
 * scored PRs only.
 */
import { join } from 'node:path';
import { FatalApiError, ModelClient } from '../engine/client';
import type { EmitFn } from '../engine/events';
import { ResultCache } from '../engine/resultCache';
import { SubAgentRunner } from '../engine/runner';
import { emptyUsage, type Finding, type Usage } from '../engine/types';
import { costUsd } from '../model/pricing';
import type { EvalCase } from './cases';
import { checkoutPull, pullSlug, type Checkout } from './checkout';
import { judgeAll, type Judgement } from './judge';
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
export async function checkoutCases(cases: EvalCase[], workdir: string, opts: { token?: string; signal?: AbortSignal; note?: (line: string) => void }): Promise<PreparedCase[]> {
  const out: PreparedCase[] = [];
  for (const c of cases) {
    const slug = pullSlug(c.pull);
    opts.note?.(`fetching ${c.url}`);
    try {
      const checkout = await checkoutPull(c.pull, join(workdir, 'repos', slug), { ...(opts.token ? { token: opts.token } : {}), ...(opts.signal ? { signal: opts.signal } : {}) });
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

export async function runEval(prepared: PreparedCase[], settings: EvalSettings, emit: EmitFn, signal: AbortSignal, note: (line: string) => void = () => undefined): Promise<PrOutcome[]> {
  const { review } = settings;
  const client = new ModelClient({ apiKey: settings.apiKey, concurrency: review.concurrency, timeoutMs: review.timeoutMs, maxAttempts: review.maxAttempts, signal, ...(review.baseURL ? { baseURL: review.baseURL } : {}) });
  const judge = new SubAgentRunner(client, { cwd: settings.workdir, roots: [] }, { cache: new ResultCache(review.cacheDir) });
  const outcomes: PrOutcome[] = [];
  let stopped: string | null = null;
  for (const [i, p] of prepared.entries()) {
    const base: PrOutcome = { case: p.case, tally: null, findings: [], judgements: [], matches: new Map(), reviewCalls: 0, judgeCalls: 0, costUsd: 0, seconds: 0, failedUnits: 0 };
    if (stopped || !p.checkout) {
      outcomes.push({ ...base, error: p.error ?? `not run: ${stopped}` });
      continue;
    }
    note(`PR ${i + 1}/${prepared.length}: ${p.case.url}`);
    const started = Date.now();
    let reviewed;
    try {
      reviewed = await reviewCheckout(p.checkout, review, settings.apiKey, join(settings.workdir, 'reports', p.slug), emit, signal);
    } catch (err) {
      if (err instanceof FatalApiError || signal.aborted) throw err;
      outcomes.push({ ...base, error: `review failed: ${(err as Error).message}` }); // e.g. the PR changes no reviewable file
      continue;
    }
    const { result } = reviewed;
    if (result.stopped) {
      // Cancelled, or the API refused the run as a whole (a bad key, an unknown model): nothing after it can run either.
      stopped = result.stopped;
      outcomes.push({ ...base, error: `review stopped: ${result.stopped}`, reviewCalls: result.usage.calls, costUsd: priced(reviewed.usage) });
      continue;
    }
    const before = { ...client.usage };
    const judgements = await judgeAll(judge, settings.judgeModel, p.case.golden, result.findings, p.slug);
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
      costUsd: sumCost(priced(reviewed.usage), costUsd(settings.judgeModel, judged)),
      seconds: (Date.now() - started) / 1000,
      reportPath: reviewed.reportPath,
      failedUnits: result.failed.length,
    });
  }
  return outcomes;
}

export function priced(usage: ModelUsage): number | null {
  let total: number | null = 0;
  for (const [model, u] of usage) total = sumCost(total, costUsd(model, u));
  return total;
}

export function sumCost(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a + b;
}

function usageSince(before: Usage, now: Usage): Usage {
  const out = emptyUsage();
  for (const k of Object.keys(out) as Array<keyof Usage>) out[k] = now[k] - before[k];
  return out;
}
