/**
 * One evaluation: check out every selected PR (free: no model call), then for each PR that checked out,
 * review it, judge every golden comment against every surviving finding, and count. A PR that fails to
 * fetch, to review or to be judged is reported with its reason and left unscored, and the others are still
 * scored; the totals count every selected PR (an unscored one as a PR with no candidates), and the headline
 * says when they are not comparable. Ctrl-C stops the run and keeps what finished.
 */
import { pullRequestIntent } from '../model/intent';
import { noAccess } from '../model/access';
import { join } from 'node:path';
import { FatalApiError, ModelClient } from '../engine/client';
import { firstParty } from '../engine/connect';
import { ResultCache } from '../engine/resultCache';
import { SubAgentRunner } from '../engine/runner';
import type { EmitFn } from '../model/events';
import type { Finding } from '../model/finding';
import { costUsd } from '../model/pricing';
import type { Usage } from '../model/usage';
import type { EvalCase } from './cases';
import { EvalError } from './errors';
import { checkoutPull, pullSlug, type Checkout } from './checkout';
import { candidatesOf, keepCandidates } from './candidates';
import { judgeAll, type JudgePrompt } from './judge';
import { changedFiles } from './checkout';
import type { Judgement } from './verdict';
import { reviewCheckout, reviewKey, type ModelUsage, type EvalChoices } from './review';
import { inProfile, type ProfileName } from './martian/profiles';
import { PRIORITY_CUTS, priorityCut, type PriorityCut } from './slices';
import { assign, tallyOf, tallyOfSome, type Assignment, type Matching, type Tally } from './score';

export interface PreparedCase {
  case: EvalCase;
  slug: string;
  checkout: Checkout | null;
  /** How many files the checked-out change touches (null: not checked out). */
  filesChanged: number | null;
  /** Why the checkout failed. */
  error?: string;
}

/** Fetches every case's PR into `<workdir>/repos/<slug>` (reusing finished checkouts); stops early on Ctrl-C. */
export async function checkoutCases(
  cases: EvalCase[],
  workdir: string,
  opts: { token?: string; apiUrl?: string; signal?: AbortSignal; note?: (line: string) => void },
): Promise<PreparedCase[]> {
  const out: PreparedCase[] = [];
  for (const c of cases) {
    const slug = pullSlug(c.pull);
    if (opts.signal?.aborted) {
      out.push({ case: c, slug, checkout: null, filesChanged: null, error: 'not fetched: interrupted' });
      continue;
    }
    opts.note?.(`fetching ${c.url}`);
    try {
      const checkout = await checkoutPull(c.pull, join(workdir, 'repos', slug), {
        ...(opts.token ? { token: opts.token } : {}),
        ...(opts.apiUrl ? { apiUrl: opts.apiUrl } : {}),
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
      // A count that cannot be made only leaves the drift check out for this PR.
      out.push({ case: c, slug, checkout, filesChanged: await changedFiles(checkout).catch(() => null) });
    } catch (err) {
      out.push({
        case: c,
        slug,
        checkout: null,
        filesChanged: null,
        error: opts.signal?.aborted ? 'not fetched: interrupted' : `fetch failed: ${(err as Error).message}`,
      });
    }
  }
  return out;
}

export interface EvalSettings {
  workdir: string;
  review: EvalChoices;
  judgeModel: string;
  judge: JudgePrompt;
  matching: Matching;
  apiKey: string;
  /** Score pre-existing findings too, as the bot would post them; the main findings alone are scored beside. */
  includePreExisting: boolean;
  /** The benchmark's profile, for data whose golden comments have categories. */
  profile: ProfileName | null;
}

export interface PrOutcome {
  case: EvalCase;
  checkout: Checkout | null;
  /** null: the PR was not scored (see error); the totals count it as a PR with no candidates. */
  tally: Tally | null;
  /** The golden comments the profile counts: what an unscored PR misses. */
  counted: number;
  /** The main findings alone, from the same judgements: set when the candidates include pre-existing ones. */
  mainOnly: Tally | null;
  /** From the same judgements, the candidates at or above each priority (all, should-fix, must-fix). */
  slices: Array<{ minPriority: PriorityCut; tally: Tally }>;
  filesChanged: number | null;
  error?: string;
  findings: Finding[];
  judgements: Judgement[];
  assignment: Assignment;
  reviewCalls: number;
  judgeCalls: number;
  /** null when a model's price is unknown. */
  reviewCostUsd: number | null;
  judgeCostUsd: number | null;
  seconds: number;
  reportPath?: string;
  /** Review units that failed (the report lists them); the PR is still scored on what survived. */
  failedUnits: number;
}

export async function runEval(
  prepared: PreparedCase[],
  settings: EvalSettings,
  { emit, signal, note = () => undefined }: { emit: EmitFn; signal: AbortSignal; note?: (line: string) => void },
): Promise<PrOutcome[]> {
  const { review } = settings;
  const { client, judge } = judgeOf(settings, signal);
  const outcomes: PrOutcome[] = [];
  let stopped: string | null = null;
  for (const [i, p] of prepared.entries()) {
    const counted = (g: number) => inProfile(settings.profile, p.case.golden[g]!.category);
    const base = unscored(p, counted);
    if (stopped || signal.aborted || !p.checkout) {
      outcomes.push({ ...base, error: p.error ?? `not run: ${stopped ?? 'interrupted'}` });
      continue;
    }
    note(`PR ${i + 1}/${prepared.length}: ${p.case.url}`);
    const started = Date.now();
    const reviewing = await reviewCase(p, p.checkout, settings, { emit, signal });
    if ('error' in reviewing) {
      outcomes.push({ ...base, error: reviewing.error });
      continue;
    }
    const { reviewed } = reviewing;
    const { result } = reviewed;
    const candidates = candidatesOf(result.findings, settings.includePreExisting);
    // For the next run's estimate; losing it only makes that estimate assume.
    await keepCandidates(
      join(settings.workdir, 'reports', p.slug),
      reviewKey(p.checkout, review),
      result.findings,
    ).catch(() => undefined);
    const reviewedPart = {
      reviewCalls: result.usage.calls,
      reviewCostUsd: result.usage.cost_usd,
      ...(reviewed.reportPath ? { reportPath: reviewed.reportPath } : {}),
      failedUnits: result.failed.length,
    };
    if (result.stop) {
      // Cancelled, or the API refused the run as a whole (a bad key, an unknown model): nothing after it can run either.
      stopped = result.stop.message;
      outcomes.push({ ...base, ...reviewedPart, error: `review stopped: ${result.stop.message}` });
      continue;
    }
    const { judgements, judged } = await judgeCase({ client, judge, settings, p, candidates, signal });
    const done = {
      ...base,
      ...reviewedPart,
      findings: candidates,
      judgements,
      judgeCalls: judged.calls,
      judgeCostUsd: judged.cost_usd,
      seconds: (Date.now() - started) / 1000,
    };
    outcomes.push(judgedOutcome(done, settings, counted, signal));
  }
  return outcomes;
}

/** Reviews one PR's checkout: a failure of this PR is its error; the API refusing the run as a whole is thrown. */
async function reviewCase(
  p: PreparedCase,
  checkout: Checkout,
  settings: EvalSettings,
  { emit, signal }: { emit: EmitFn; signal: AbortSignal },
): Promise<{ reviewed: Awaited<ReturnType<typeof reviewCheckout>> } | { error: string }> {
  try {
    const reviewed = await reviewCheckout(
      checkout,
      // The benchmark gives the PR's title (its data has no description): the change's stated intent.
      { ...settings.review, intent: pullRequestIntent(p.case.pull.number, p.case.title, '') },
      { apiKey: settings.apiKey, reportDir: join(settings.workdir, 'reports', p.slug), emit, signal },
    );
    return { reviewed };
  } catch (err) {
    if (signal.aborted) return { error: 'review interrupted' };
    if (err instanceof FatalApiError) throw new EvalError(err.message);
    return { error: `review failed: ${(err as Error).message}` }; // e.g. the PR changes no reviewable file
  }
}

/** Judges one PR's candidates against its golden comments, with what the judging cost. */
async function judgeCase(c: {
  client: ModelClient;
  judge: SubAgentRunner;
  settings: EvalSettings;
  p: PreparedCase;
  candidates: Finding[];
  signal: AbortSignal;
}): Promise<{ judgements: Judgement[]; judged: ReturnType<typeof usageSince> }> {
  const before = { ...c.client.usage };
  let judgements: Judgement[];
  try {
    judgements = await judgeAll({
      runner: c.judge,
      judge: c.settings.judge,
      model: c.settings.judgeModel,
      golden: c.p.case.golden,
      findings: c.candidates,
      label: c.p.slug,
    });
  } catch (err) {
    if (err instanceof FatalApiError) throw new EvalError(`the judge model was refused: ${err.message}`);
    if (!c.signal.aborted) throw err;
    judgements = [];
  }
  return { judgements, judged: usageSince(before, c.client.usage) };
}

/** A judged PR is scored only when every pair was answered and nothing interrupted it. */
function judgedOutcome(
  done: PrOutcome,
  settings: EvalSettings,
  counted: (golden: number) => boolean,
  signal: AbortSignal,
): PrOutcome {
  const failed = done.judgements.filter((j) => !j.verdict).length;
  if (signal.aborted) return { ...done, error: 'judging interrupted' };
  // One unanswered pair could change the PR's counts: it is not scored at all rather than scored low.
  if (failed)
    return { ...done, error: `judge failed for ${failed} of ${done.judgements.length} pairs (reasons in --json)` };
  return scored(done, settings, counted);
}

/** The judge's runner and the client it calls through: the Anthropic API, whatever provider the reviews use. */
function judgeOf(settings: EvalSettings, signal: AbortSignal) {
  const { review } = settings;
  const connection = firstParty({
    provider: {
      provider: 'anthropic',
      chosenBy: 'the default',
      skipAuth: false,
      ...(review.baseUrl ? { baseUrl: { value: review.baseUrl, from: 'ANTHROPIC_BASE_URL' } } : {}),
    },
    apiKey: settings.apiKey,
    requestTimeout: review.requestTimeout,
    env: {},
  });
  const client = new ModelClient({
    connection,
    maxConcurrency: review.maxConcurrency,
    maxAttempts: review.maxAttempts,
    signal,
    ...(review.prices ? { prices: review.prices } : {}),
  });
  const judge = new SubAgentRunner(client, noAccess(settings.workdir), {
    prompts: settings.judge.version,
    cache: new ResultCache(review.cacheDir),
  });
  return { client, judge };
}

/** A PR's outcome before it is reviewed: nothing found, judged or spent yet. */
function unscored(p: PreparedCase, counted: (golden: number) => boolean): PrOutcome {
  return {
    case: p.case,
    checkout: p.checkout,
    filesChanged: p.filesChanged,
    tally: null,
    counted: p.case.golden.filter((_, g) => counted(g)).length,
    mainOnly: null,
    slices: [],
    findings: [],
    judgements: [],
    assignment: { matches: new Map(), credited: new Set() },
    reviewCalls: 0,
    judgeCalls: 0,
    reviewCostUsd: 0,
    judgeCostUsd: 0,
    seconds: 0,
    failedUnits: 0,
  };
}

/** A PR whose every pair was judged: its counts, for the main findings alone and for each priority cut. */
function scored(done: PrOutcome, settings: EvalSettings, counted: (golden: number) => boolean): PrOutcome {
  const { judgements, findings: candidates } = done;
  const golden = done.case.golden.length;
  const some = (keep: (f: number) => boolean) =>
    tallyOfSome(judgements, candidates.length, keep, golden, settings.matching, counted);
  const assignment = assign(judgements, golden, settings.matching);
  return {
    ...done,
    assignment,
    tally: tallyOf(assignment, candidates.length, golden, counted),
    mainOnly: settings.includePreExisting ? some((f) => !candidates[f]!.pre_existing) : null,
    slices: PRIORITY_CUTS.map((cut) => ({
      minPriority: cut,
      tally: some((f) => priorityCut(cut)(candidates[f]!.priority)),
    })),
  };
}

/** Dollars for estimated usage per model (an estimate carries no cost of its own). */
export function priced(usage: ModelUsage, prices: EvalChoices['prices']): number | null {
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
