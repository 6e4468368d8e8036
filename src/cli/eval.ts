/**
 * `skeptic eval martian|aacr`: Skeptic scored on a public code-review benchmark with the user's own key —
 * data fetched at run time (or --data), real checkouts, the normal review, a judge, and the bill shown
 * and agreed to before any call.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { EvalCase } from '../eval/cases';
import { join } from 'node:path';
import { version as VERSION } from '../../package.json';
import { hasCheckout, pullSlug, refuseForeignRepos } from '../eval/checkout';
import {
  ASSUMED_CHECKOUT,
  ASSUMED_FINDINGS_PER_PR,
  cloneEstimate,
  estimateEval,
  type CloneEstimate,
  type EvalEstimate,
} from '../eval/estimate';
import { EvalError } from '../eval/errors';
import { githubToken } from '../eval/git';
import { AACR } from '../eval/aacr/data';
import { checkCounts, dataCommit, fetchBenchmarkData, type Benchmark } from '../eval/data';
import { SKEPTIC_JUDGE, type JudgePrompt } from '../eval/judge';
import { lifecycleNote } from '../eval/judgeModels';
import { MARTIAN } from '../eval/martian/data';
import { DEFAULT_PROFILE, PROFILE_NAMES, type ProfileName } from '../eval/martian/profiles';
import type { Reference } from '../eval/martian/results';
import { evalJson, renderTable, type EvalMeta } from '../eval/report';
import { reviewModels, type EvalChoices } from '../eval/review';
import { checkoutCases, runEval, type PreparedCase, type PrOutcome } from '../eval/run';
import { MATCHINGS, type Matching } from '../eval/score';
import { formatUsd, PRICES_AS_OF } from '../model/pricing';
import { flagOf, LIMITS } from '../app/contributions';
import { parseCommandLine } from './args';
import { flagValue, nonEmpty, parserOptions, wholeNumber, type RawFlag } from './flagValues';
import { flagHelp } from './help';
import { consoleReporter } from './console';
import { loadPrices } from './prices';
import { askYes } from './askYes';
import type { CliIo } from './io';
import { EXIT, UsageError } from './help';

const BENCHMARKS: Record<string, Benchmark> = { martian: MARTIAN, aacr: AACR };

/** The flags eval takes as review does: parsed, checked and described by their rows of the table. */
const SHARED_WITH_REVIEW = ['maxConcurrency', 'requestTimeout'] as const;

export const EVAL_USAGE = `Usage:
  skeptic eval martian|aacr [--limit N] [--pr URL…] [--mode staged|lenses] [--model ID] [--judge-model ID]
                       [--matching martian|one-to-one] [--data DIR | --data-ref REF] [--profile NAME]
                       [--workdir DIR] [--json FILE] [--prices FILE] [--dry-run] [--yes] [--include-pre-existing]

Scores Skeptic on a public code-review benchmark: each PR is checked out, reviewed with the branch scope
against the base the PR was opened against, and every surviving finding is compared with every golden
comment by a judge model. Prints precision, recall and F1, also for each priority cut of the same findings;
for martian, credited as the benchmark credits, judged with its own prompt by its judge model, beside the
published figures of other tools on exactly the PRs scored (worked out from the benchmark's per-PR results).

  martian            Martian Code Review Bench: 50 real PRs with human-curated golden comments, by severity
  aacr               AACR-Bench: 196 PRs in 10 languages with verified comments at a file and line range;
                     a finding matches only in the same file within one line of the range, and the judge agrees
  --limit N          the first N PRs (files in name order, records in file order)
  --pr URL           only this PR, as the data names it (repeatable)
  --mode MODE        staged (default) | lenses
  --model ID         model for every review step or role
  --judge-model ID   the judge (martian: ${MARTIAN.judgeModel}, the headline table's judge; the benchmark also
                     publishes claude-sonnet-4-5-20250929's; aacr: ${AACR.judgeModel})
  --matching RULE    martian: golden comments in the data's order, findings in the review's; a yes credits a
                     finding only when it raises that golden comment's best confidence so far, and every
                     finding never credited is a false positive (the benchmark's own; martian's default);
                     one-to-one: each finding counts for at most one golden comment and the other way round
                     (stricter; aacr's default)
  --data DIR         a local copy of the benchmark's data folder (martian: offline/golden_comments/, aacr:
                     dataset/); default: downloaded from the benchmark's GitHub repository into the work folder
  --data-ref REF     the benchmark commit (full id), branch or tag to download (martian: default
                     ${MARTIAN.pinned!.ref.slice(0, 7)}, whose ${MARTIAN.pinned!.prs} PRs and ${MARTIAN.pinned!.comments} golden comments the published results score)
  --profile NAME     ${PROFILE_NAMES.join(' | ')}: for data whose golden comments have categories, the benchmark's
                     profile of which ones count (default ${DEFAULT_PROFILE})
  --workdir DIR      checkouts, result cache and per-PR reports (default ./skeptic-eval)
  --json FILE        every judgement (golden comment, finding, verdict, reason) and the scores
  --include-pre-existing  also score pre-existing findings (must-fix problems off the PR's changed lines) under
                     one-to-one; martian always scores what the bot would post, main and pre-existing findings,
                     with the main findings alone on a second line
  --dry-run          fetch and estimate only; no key needed, no model call
  --yes              run without asking after the estimate
  --prices FILE      JSON price overrides per model or family (as for skeptic review)
${flagHelp(SHARED_WITH_REVIEW, { width: 21, brief: true })}
`;

interface EvalArgs {
  benchmark: Benchmark;
  matching: Matching;
  limit?: number;
  prs: string[];
  mode: 'staged' | 'lenses';
  model?: string;
  judgeModel: string;
  data?: string;
  dataRef?: string;
  profile?: ProfileName;
  workdir: string;
  json?: string;
  pricesFile?: string;
  dryRun: boolean;
  yes: boolean;
  includePreExisting: boolean;
  maxConcurrency: number;
  /** Seconds per request attempt. */
  requestTimeout: number;
}

function parseEvalArgs(argv: string[]): EvalArgs | 'help' {
  const parsed = parseCommandLine(argv, {
    limit: { type: 'string' },
    pr: { type: 'string', multiple: true },
    ...parserOptions(['mode', 'model', 'prices', 'yes', 'help', ...SHARED_WITH_REVIEW]),
    'judge-model': { type: 'string' },
    matching: { type: 'string' },
    data: { type: 'string' },
    'data-ref': { type: 'string' },
    profile: { type: 'string' },
    workdir: { type: 'string' },
    json: { type: 'string' },
    'dry-run': { type: 'boolean' },
    'include-pre-existing': { type: 'boolean' },
  });
  const v = parsed.values as typeof parsed.values & Record<string, RawFlag>;
  if (v.help) return 'help';
  const [benchmark, ...extra] = parsed.positionals;
  const bench = benchmark === undefined ? undefined : BENCHMARKS[benchmark];
  if (!bench)
    throw new UsageError(
      benchmark === undefined
        ? 'name a benchmark: skeptic eval martian (or aacr)'
        : `unknown benchmark "${benchmark}" (available: ${Object.keys(BENCHMARKS).join(', ')})`,
    );
  if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
  const mode = flagValue('mode', v.mode) as EvalArgs['mode'];
  const matching = v.matching ?? bench.matching;
  if (!(MATCHINGS as readonly string[]).includes(matching))
    throw new UsageError(`--matching must be ${MATCHINGS.join(' or ')}, got "${matching}"`);
  if (v.data !== undefined && v['data-ref'] !== undefined)
    throw new UsageError('--data and --data-ref both choose the data: pass one of them');
  if (v.profile !== undefined && !(PROFILE_NAMES as string[]).includes(v.profile))
    throw new UsageError(`--profile must be ${PROFILE_NAMES.join(', ')}, got "${v.profile}"`);
  return {
    benchmark: bench,
    matching: matching as Matching,
    ...(v['data-ref'] !== undefined ? { dataRef: nonEmpty('--data-ref', v['data-ref'])! } : {}),
    ...(v.profile !== undefined ? { profile: v.profile as ProfileName } : {}),
    ...(v.limit !== undefined ? { limit: wholeNumber('--limit', v.limit, { default: 0, min: 1, max: 10_000 }) } : {}),
    prs: v.pr ?? [],
    mode,
    ...(v.model !== undefined ? { model: flagValue('model', v.model) as string } : {}),
    judgeModel: nonEmpty('--judge-model', v['judge-model']) ?? bench.judgeModel,
    ...(v.data !== undefined ? { data: nonEmpty('--data', v.data)! } : {}),
    workdir: nonEmpty('--workdir', v.workdir) ?? 'skeptic-eval',
    ...(v.json !== undefined ? { json: nonEmpty('--json', v.json)! } : {}),
    ...(v.prices !== undefined ? { pricesFile: flagValue('prices', v.prices) as string } : {}),
    dryRun: v['dry-run'] ?? false,
    // Martian scores what the bot would post, as the benchmarked bots were scored on all they posted.
    includePreExisting: (v['include-pre-existing'] ?? false) || matching === 'martian',
    yes: v.yes === true,
    // eval's judge calls take them too, so they are decided here, from the table's defaults.
    maxConcurrency: wholeNumber(flagOf('maxConcurrency'), v.concurrency as string | undefined, LIMITS.maxConcurrency),
    requestTimeout: wholeNumber(flagOf('requestTimeout'), v.timeout as string | undefined, LIMITS.requestTimeout),
  };
}

export async function evalCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseEvalArgs(argv);
  if (args === 'help') {
    io.stdout.write(EVAL_USAGE);
    return EXIT.ok;
  }
  const apiKey = io.env.ANTHROPIC_API_KEY?.trim();
  if (!apiKey && !args.dryRun)
    throw new UsageError(
      'no API key: set ANTHROPIC_API_KEY (an evaluation spends on your key), or pass --dry-run to see the estimate',
    );
  try {
    return await evaluate(args, apiKey ?? '', io);
  } catch (err) {
    if (err instanceof EvalError) throw new UsageError(err.message);
    throw err;
  }
}

async function evaluate(args: EvalArgs, apiKey: string, io: CliIo): Promise<number> {
  const prices = await loadPrices(io.cwd, args.pricesFile);
  const workdir = resolve(io.cwd, args.workdir);
  const note = (line: string) => io.stderr.write(`${line}\n`);
  await mkdir(workdir, { recursive: true });
  const data = await benchmarkData(args, { io, workdir, note });
  const prepared = await fetchCheckouts(data.cases, { io, workdir, note });
  if (io.signal.aborted) {
    note(
      `interrupted while fetching: ${prepared.filter((p) => p.checkout).length} of ${data.cases.length} PRs checked out`,
    );
    return io.stoppedWith?.() ?? EXIT.interrupted;
  }
  const review: EvalChoices = {
    mode: args.mode,
    ...(args.model ? { model: args.model } : {}),
    maxConcurrency: args.maxConcurrency,
    requestTimeout: args.requestTimeout,
    maxAttempts: LIMITS.maxAttempts.default,
    cacheDir: resolve(workdir, 'cache'),
    ...(io.env.ANTHROPIC_BASE_URL ? { baseUrl: io.env.ANTHROPIC_BASE_URL } : {}),
    ...(prices ? { prices } : {}),
  };
  const stop = await showEstimate(prepared, review, data.judge, { args, io, workdir, note });
  if (stop !== undefined) return stop;
  if (!(await confirm(args, io))) return EXIT.ok;

  const outcomes = await runEval(
    prepared,
    {
      workdir,
      review,
      judgeModel: args.judgeModel,
      judge: data.judge,
      matching: args.matching,
      apiKey,
      includePreExisting: args.includePreExisting,
      profile: data.profile,
    },
    { emit: consoleReporter(io.stderr), signal: io.signal, note },
  );
  await showScores(outcomes, data, { args, io, review });
  if (io.signal.aborted) return io.stoppedWith?.() ?? EXIT.interrupted;
  return outcomes.every((o) => o.tally && !o.failedUnits) ? EXIT.ok : EXIT.incomplete;
}

/** Where one evaluation works, and how it speaks. */
interface EvalPlace {
  io: CliIo;
  workdir: string;
  note: (line: string) => void;
}

/** The benchmark's data (downloaded unless --data), the PRs chosen from it, their profile and the judge's prompt. */
async function benchmarkData(args: EvalArgs, { io, workdir, note }: EvalPlace) {
  const bench = args.benchmark;
  const dataRef = args.data ? null : (args.dataRef ?? bench.pinned?.ref ?? null);
  const dataDir = args.data
    ? resolve(io.cwd, args.data)
    : await fetchBenchmarkData(bench, resolve(workdir, 'data', bench.name), {
        ...(dataRef ? { ref: dataRef } : {}),
        signal: io.signal,
      });
  const all = await bench.load(dataDir);
  if (dataRef === bench.pinned?.ref) checkCounts(bench, all);
  const cases = select(all, args);
  if (!args.data) refuseForeignRepos(cases);
  const profile = chooseProfile(all, args);
  const judge = await judgePrompt(bench, dataDir, note);
  const lifecycle = lifecycleNote(args.judgeModel, new Date());
  if (lifecycle) note(`skeptic: note: ${lifecycle}`);
  return { bench, dataRef, dataDir, cases, profile, judge };
}
type BenchmarkData = Awaited<ReturnType<typeof benchmarkData>>;

/** Each PR checked out (what it will take said first); a PR that cannot be says why in its `error`. */
async function fetchCheckouts(cases: EvalCase[], { io, workdir, note }: EvalPlace) {
  let present = 0;
  for (const c of cases) if (await hasCheckout(join(workdir, 'repos', pullSlug(c.pull)))) present++;
  io.stdout.write(cloneText(cloneEstimate(present, cases.length)));
  const token = await githubToken(io.env);
  return checkoutCases(cases, workdir, {
    ...(token ? { token } : {}),
    ...(io.env.GITHUB_API_URL ? { apiUrl: io.env.GITHUB_API_URL } : {}),
    signal: io.signal,
    note,
  });
}

/** The bill before any call; the exit code when the evaluation ends here (a dry run, nothing to review). */
async function showEstimate(
  prepared: PreparedCase[],
  review: EvalChoices,
  judge: JudgePrompt,
  { args, io, workdir, note }: EvalPlace & { args: EvalArgs },
): Promise<number | undefined> {
  const estimate = await estimateEval(
    prepared,
    review,
    { prompt: judge, model: args.judgeModel, includePreExisting: args.includePreExisting },
    workdir,
  );
  io.stdout.write(estimateText(estimate, prepared.length, args));
  for (const p of prepared) if (p.error) io.stdout.write(`not fetched: ${p.case.url}: ${p.error}\n`);
  if (!estimate.prs) {
    const why = prepared.some((p) => p.checkout)
      ? 'no PR that was checked out has anything to review'
      : 'no PR could be checked out';
    if (args.dryRun) {
      note(`skeptic: ${why}; there is nothing to estimate`);
      return EXIT.incomplete;
    }
    throw new UsageError(`${why}; nothing to evaluate`);
  }
  return args.dryRun ? EXIT.ok : undefined;
}

/** The scores beside the published figures, and every judgement in --json's file when asked. */
async function showScores(
  outcomes: PrOutcome[],
  { bench, dataRef, dataDir, profile, judge }: BenchmarkData,
  { args, io, review }: { args: EvalArgs; io: CliIo; review: EvalChoices },
): Promise<void> {
  const benchmarkCommit = await dataCommit(dataDir, bench);
  const scored = outcomes.flatMap((o) => (o.tally ? [o.case] : []));
  const meta: EvalMeta = {
    mode: args.mode,
    reviewModels: reviewModels(review),
    judgeModel: args.judgeModel,
    judgeSource: judge.source,
    matching: args.matching,
    profile,
    includePreExisting: args.includePreExisting,
    version: VERSION,
    dataRef,
    benchmarkCommit,
    date: new Date(),
    reference: await reference(bench, judge, {
      dataDir,
      judgeModel: args.judgeModel,
      scored,
      profile,
      benchmarkCommit,
    }),
  };
  io.stdout.write(renderTable(outcomes, bench, meta));
  io.stdout.write(`${scoredLine(args.includePreExisting)}\n`);
  if (args.json) {
    const path = resolve(io.cwd, args.json);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, JSON.stringify(evalJson(outcomes, bench, meta), null, 2) + '\n');
  }
}

function select(all: EvalCase[], args: EvalArgs): EvalCase[] {
  let cases = all;
  if (args.prs.length) {
    const missing = args.prs.filter((url) => !all.some((c) => c.url === url));
    if (missing.length) throw new UsageError(`not in the benchmark data: ${missing.join(', ')}`);
    cases = all.filter((c) => args.prs.includes(c.url));
  }
  return args.limit === undefined ? cases : cases.slice(0, args.limit);
}

const k = (n: number) => `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
const usd = (d: number | null) => (d === null ? 'unknown (a model without a price; see --prices)' : `~${formatUsd(d)}`);

function cloneText(c: CloneEstimate): string {
  if (!c.toFetch) return `Checkouts: all ${c.present} PRs already checked out (no download)\n`;
  const gb = (c.megabytes / 1024).toFixed(1);
  return `Checkouts: ${c.toFetch} PRs to fetch${c.present ? ` (${c.present} already here)` : ''} · ~${gb} GB of disk · ~${Math.ceil(c.seconds / 60)} min (assumed ~${ASSUMED_CHECKOUT.megabytes} MB and ~${ASSUMED_CHECKOUT.seconds} s per shallow checkout of a large project)\n`;
}

function estimateText(e: EvalEstimate, selected: number, args: EvalArgs): string {
  const total = e.reviewUsd === null || e.judgeUsd === null ? null : e.reviewUsd + e.judgeUsd;
  const basis = [
    !e.prs ? 'no PR to judge' : '',
    e.assumedPrs ? `golden comments × ${ASSUMED_FINDINGS_PER_PR} findings assumed per PR` : '',
    e.assumedPrs && e.assumedPrs < e.prs ? `for ${e.assumedPrs} PRs; the rest from their cached reviews` : '',
    e.prs && !e.assumedPrs ? 'from the cached reviews' : '',
    e.judgeCached ? `${e.judgeCached} already answered by the cache` : '',
    e.placed ? "only findings at a comment's place are judged" : '',
  ].filter(Boolean);
  const lines = [
    `Estimate for ${e.prs} of ${selected} PRs (${args.mode} mode, judge ${args.judgeModel}, ${args.matching} counting; prices of ${PRICES_AS_OF}):`,
    `  review: ${e.review.calls} calls · ~${k(e.review.input_tokens)} input tokens · ~${k(e.review.output_tokens)} output tokens · ${usd(e.reviewUsd)}`,
    `  judge:  ${e.placed ? 'at most ' : ''}${e.judge.calls} calls (${basis.join('; ')}) · ~${k(e.judge.input_tokens)} input · ~${k(e.judge.output_tokens)} output · ${usd(e.judgeUsd)}`,
    `  total:  ${e.review.calls + e.judge.calls} calls · ${usd(total)} (input priced uncached; results already in the cache cost nothing)`,
  ];
  for (const s of e.skipped) lines.push(`  not reviewable: ${s.url}: ${s.reason}`);
  return lines.join('\n') + '\n';
}

/** The estimate is always agreed to: --yes, or y at the terminal; without a terminal, say how. */
async function confirm(args: EvalArgs, io: CliIo): Promise<boolean> {
  return (
    args.yes ||
    askYes(
      io,
      'Run the evaluation?',
      'an evaluation spends on your key: pass --yes to run it after reading the estimate above',
    )
  );
}

/** Which findings were candidates: said after the table, so a score is never read as counting more than it does. */
function scoredLine(includePreExisting: boolean): string {
  return includePreExisting
    ? 'Scored: what the bot would post, the main findings and the pre-existing ones (the main findings alone on the second line).'
    : 'Scored: the main findings only; pre-existing findings (off the changed lines) are left out (--include-pre-existing scores them).';
}

/** The benchmark's profile when its data has categories (default: its own default), else none; asked for without them, refused. */
function chooseProfile(cases: EvalCase[], args: EvalArgs): ProfileName | null {
  const categorised = cases.some((c) => c.golden.some((g) => g.category));
  if (categorised) return args.profile ?? DEFAULT_PROFILE;
  if (args.profile)
    throw new UsageError(
      `--profile needs data whose golden comments have categories; this data has none (choose a categorised set with --data-ref)`,
    );
  return null;
}

/** The benchmark's own judge prompt when its repository is beside the data; else Skeptic's, said so. */
async function judgePrompt(bench: Benchmark, dataDir: string, note: (line: string) => void): Promise<JudgePrompt> {
  if (!bench.published) return SKEPTIC_JUDGE;
  const own = await bench.published.judge(dataDir);
  if (own) return own;
  note(
    `skeptic: note: the benchmark's judging step is not beside ${dataDir}: the judge gets Skeptic's own prompt, and no published figure is comparable`,
  );
  return SKEPTIC_JUDGE;
}

async function reference(
  bench: Benchmark,
  judge: JudgePrompt,
  run: {
    dataDir: string;
    judgeModel: string;
    scored: EvalCase[];
    profile: ProfileName | null;
    benchmarkCommit: string | null;
  },
): Promise<Reference> {
  if (!bench.published) return { none: `${bench.title} publishes no per-PR results` };
  if (judge === SKEPTIC_JUDGE) return { none: "the judge was sent Skeptic's own prompt, not the benchmark's" };
  return bench.published.reference(run.dataDir, run.judgeModel, run.scored, run.profile, run.benchmarkCommit);
}
