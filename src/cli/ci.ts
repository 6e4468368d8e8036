/**
 * `skeptic ci`: a GitHub Actions step on a pull request. Reviews the PR's change (merge-base to head, in
 * the checked-out tree), posts it to the PR (src/app/ci/publish.ts), writes the job summary, and exits
 * per --fail-on. `--yes` is implied; the estimate is held to a ceiling instead (--max-calls, default
 * CI_MAX_CALLS), and a PR over it is not reviewed but said to be too large.
 */
import { pullRequestIntent } from '../model/intent';
import { appendFile } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { checkoutOf, type PullRequestCheckout } from '../app/ci/checkout';
import { DEFAULT_INLINE_MIN } from '../app/ci/postingPlan';
import type { Priority } from '../model/records';
import { readCiContext, type CiContext } from '../app/ci/environment';
import { annotation, publish, summaryMarkdown, type Published, type RunOutcome } from '../app/ci/publish';
import { OverBudget, runJob } from '../app/runJob';
import type { Finding } from '../model/finding';
import type { ReviewResult } from '../model/events';
import { addedByChange } from '../model/suppressed';
import { plural } from '../model/plural';
import { parseReviewArgs, type ReviewFlags } from './args';
import { consoleReporter } from './console';
import { openEventLog } from './eventLog';
import { EXIT, UsageError } from './help';
import { SetupError } from '../model/setup';
import { jobFromFlags, keyFor, providerFromFlags } from './job';
import type { CliIo } from './io';
import { needsApiKey, type ProviderConfig } from '../model/providers';

/** The model calls a CI review may make unless told otherwise (the action's max-calls input). */
export const CI_MAX_CALLS = 300;

const FAIL_ON = ['must_fix', 'should_fix', 'never'] as const;
type FailOn = (typeof FAIL_ON)[number];

export const CI_USAGE = `skeptic ci — review a GitHub pull request from a GitHub Actions step

Usage:
  skeptic ci [--fail-on must_fix|should_fix|never] [--max-calls N] [--min-priority LEVEL] [--sarif FILE] [review options]

Posts one review (event COMMENT) with inline comments on the diff's lines, keeps one summary comment up
to date, writes the job summary, and never posts a finding twice. A token that cannot write (a fork's
pull request) gets workflow annotations, the job summary and SARIF instead. See docs/ci.md.

  --fail-on LEVEL        exit 1 when a finding of this priority or above is open (default never); a pull
                         request too large for --max-calls, or a partial review, fails too unless never
  --max-calls N          the ceiling on model calls (default ${CI_MAX_CALLS}): over the estimate, nothing runs
  --min-priority LEVEL   the lowest priority posted inline (default should_fix); the findings below it are
                         listed briefly in the summary comment
  --sarif FILE.sarif     also write SARIF (for github/codeql-action/upload-sarif, category skeptic)
  --mode, --model, --out, --json, --exclude, …   as for skeptic review (no scope flags: the event says)

Environment: GITHUB_EVENT_PATH, GITHUB_REPOSITORY, GITHUB_TOKEN, GITHUB_API_URL, GITHUB_STEP_SUMMARY,
ANTHROPIC_API_KEY (or, with --provider bedrock|vertex, the cloud's credentials). Exit codes: 0 · 1 findings at --fail-on · 2 setup error · 3 partial review (with --fail-on)
`;

export async function ciCommand(argv: string[], io: CliIo): Promise<number> {
  const { failOn, rest, help } = ciFlags(argv);
  if (help) {
    io.stdout.write(CI_USAGE);
    return EXIT.ok;
  }
  const { flags, args, inlineMin } = ciReviewFlags(rest);
  const ctx = await readCiContext(io.env);
  const provider = providerFromFlags(flags.choices, io.env);
  const key = await ciApiKey(io, ctx, provider);
  if (!key) return EXIT.ok;
  const checkout = await checkoutOf(io.cwd, ctx.pr.baseSha, ctx.pr.headSha);
  const say = (line: string) => io.stderr.write(`${line}\n`);
  say(
    `skeptic ci: pull request #${ctx.pr.number} "${ctx.pr.title}", ${checkout.mergeBase.slice(0, 7)}..${ctx.pr.headSha.slice(0, 7)}`,
  );

  // --max-calls 0 means no ceiling, as for skeptic review.
  const ceiling = args.maxCalls || Number.MAX_SAFE_INTEGER;
  const job = await jobFromFlags(
    {
      ...flags,
      choices: {
        ...args,
        scope: { kind: 'branch', base: checkout.mergeBase },
        // The pull request's own words, not the commit subjects the range would give.
        intent: pullRequestIntent(ctx.pr.number, ctx.pr.title, ctx.pr.body),
        // The interactive gate (too few changed lines to be worth it) is not for a pull request: one line can break it.
        force: true,
        confirmThreshold: ceiling,
        out: args.out ?? `.skeptic/reports/code-review-pr-${ctx.pr.number}.md`,
      },
      yes: true,
    },
    io,
    key.apiKey,
    provider,
  );
  /** The runner's files that could not be written (the event log, the job summary): each said in one line, exit 2. */
  const unwritten: UsageError[] = [];
  const { run, report } = await reviewPullRequest({ job, io, say, mode: args.mode, ceiling, unwritten });
  const findings = run.kind === 'reviewed' ? run.result.findings : [];
  const published = await publishOrSummarise({ io, ctx, checkout, run, inlineMin, report, say, findings });
  // Stopped (SIGTERM, Ctrl-C): what finished is in the report and the job summary; the exit code says why.
  if (!published) return io.stoppedWith?.() ?? EXIT.terminated;
  await finish(io, ctx.stepSummary, published.summary, published.posted === 'annotations' ? findings : []).catch(
    (err: UsageError) => unwritten.push(err),
  );
  if (io.signal.aborted) return io.stoppedWith?.() ?? EXIT.terminated;
  if (!published.failure) sayPublished(say, published, run);
  // A file the runner gave that could not be written is a setup error, not the findings' exit code.
  for (const err of unwritten) say(`skeptic: ${err.message}`);
  return published.failure || unwritten.length ? EXIT.usage : exitCode(failOn, run);
}

/** The review flags ci passes on: its own --max-calls default, and --min-priority taken out for the inline cut. */
function ciReviewFlags(rest: string[]) {
  const ceilingGiven = rest.some((a) => a === '--max-calls' || a.startsWith('--max-calls='));
  const flags = parseReviewArgs(ceilingGiven ? rest : [...rest, '--max-calls', String(CI_MAX_CALLS)]);
  // --min-priority in ci sets what goes inline; the review itself keeps every finding (the summary folds the rest).
  const { minPriority, ...args } = flags.choices;
  const inlineMin = (minPriority as Priority | undefined) ?? DEFAULT_INLINE_MIN;
  if (args.scope.kind !== 'auto')
    throw new UsageError('skeptic ci reviews the pull request of its event; it takes no paths or scope flags');
  return { flags, args, inlineMin };
}

/**
 * The key the run calls the model with; undefined when a fork's pull request has none to give, which is
 * said in the job summary and on stderr and is not the contributor's failure.
 */
async function ciApiKey(io: CliIo, ctx: CiContext, provider: ProviderConfig): Promise<{ apiKey: string } | undefined> {
  // Bedrock and Vertex AI take the cloud's credentials (resolved before any call); the others may take a key.
  const keyed = needsApiKey(provider.provider);
  const apiKey = keyed ? (io.env.ANTHROPIC_API_KEY?.trim() ?? '') : keyFor(provider, io.env);
  if (keyed && !apiKey && ctx.pr.headRepository !== ctx.repository) {
    // GitHub gives no secrets to a pull_request run from a fork: not the contributor's failure.
    const reason = `no API key in this run: GitHub withholds secrets from pull_request workflows of forks (${ctx.pr.headRepository ?? 'a deleted fork'}); see docs/ci.md for pull_request_target`;
    await finish(
      io,
      ctx.stepSummary,
      summaryMarkdown({ outcome: { kind: 'skipped', reason }, headSha: ctx.pr.headSha }),
      [],
    );
    io.stderr.write(`skeptic ci: not reviewed: ${reason}\n`);
    return undefined;
  }
  if (keyed && !apiKey)
    throw new SetupError(
      "no API key: set ANTHROPIC_API_KEY for the step (the action's anthropic-api-key input, from a repository secret), or choose the action's provider input",
    );
  return { apiKey };
}

/** Runs the review unattended and says what came of it in the pull request's terms, with the report to link. */
async function reviewPullRequest(p: {
  job: Awaited<ReturnType<typeof jobFromFlags>>;
  io: CliIo;
  say: (line: string) => void;
  mode: ReviewFlags['choices']['mode'];
  ceiling: number;
  unwritten: UsageError[];
}): Promise<{ run: RunOutcome; report?: { name: string; markdown: string } }> {
  const { job, io, say } = p;
  let estimatedCalls = 0;
  const progress = consoleReporter(io.stderr, p.mode);
  const events = job.outputs.events ? openEventLog(io.cwd, job.outputs.events) : undefined;
  const outcome = await runJob(job, {
    emit: (e) => {
      events?.emit(e);
      if (e.type === 'setup' || e.type === 'inventory')
        say(e.type === 'setup' ? e.message : `${plural(e.files.length, 'file')} under review`);
      else progress(e);
    },
    // Nobody is there to say yes: over the ceiling, the run does not start.
    confirm: async (estimate) => {
      estimatedCalls = estimate.calls;
      return false;
    },
    signal: io.signal,
  })
    .catch((err: unknown) => {
      // Over the dollar ceiling from the start: said on the pull request, like a run over the call ceiling.
      if (err instanceof OverBudget) return { kind: 'skipped' as const, reason: `not reviewed: ${err.message}` };
      throw err;
    })
    // An event log that cannot be written (a full disk) costs the log, not the review: said once it is posted.
    .finally(() => events?.close().catch((err: UsageError) => p.unwritten.push(err)));
  const run: RunOutcome =
    outcome.kind === 'skipped'
      ? { kind: 'skipped', reason: outcome.reason }
      : outcome.kind === 'declined'
        ? { kind: 'too-large', estimatedCalls, ceiling: p.ceiling }
        : outcome.outputs
          ? { kind: 'reviewed', result: outcome.result }
          : {
              kind: 'skipped',
              reason: `the review stopped before any file was reviewed: ${outcome.result.stop?.message ?? 'no reason given'}`,
            };
  if (outcome.kind === 'ran' && outcome.outputs)
    return {
      run,
      report: {
        name: relative(io.cwd, outcome.outputs.reportPath).split(sep).join('/'),
        markdown: outcome.outputs.markdown,
      },
    };
  return { run };
}

/**
 * Posts the review; when the pull request cannot be read, the findings still go to annotations and the job
 * summary. Undefined when the run was stopped meanwhile; any other failure is thrown on.
 */
async function publishOrSummarise(p: {
  io: CliIo;
  ctx: CiContext;
  checkout: PullRequestCheckout;
  run: RunOutcome;
  inlineMin: Priority;
  report: { name: string; markdown: string } | undefined;
  say: (line: string) => void;
  findings: Finding[];
}): Promise<Published | undefined> {
  const { io, ctx, run } = p;
  try {
    return await publish({
      ctx,
      checkout: p.checkout,
      run,
      inlineMin: p.inlineMin,
      ...(p.report ? { report: p.report } : {}),
      log: p.say,
      signal: io.signal,
    });
  } catch (err) {
    // The findings are not lost when the pull request cannot be read: annotations and the job summary still have them.
    await finish(
      io,
      ctx.stepSummary,
      summaryMarkdown({
        outcome:
          run.kind === 'reviewed'
            ? {
                ...run,
                posted: 'annotations',
                newFindings: 0,
                fixed: 0,
                unposted: io.signal.aborted
                  ? 'Stopped before anything was posted to the pull request'
                  : 'The pull request could not be read',
              }
            : run,
        headSha: ctx.pr.headSha,
      }),
      p.findings,
    );
    if (io.signal.aborted) return undefined;
    throw err;
  }
}

/** The closing lines: what was posted, and the findings hidden by suppressions this pull request adds. */
function sayPublished(say: (line: string) => void, published: Published, run: RunOutcome): void {
  say(describe(published.outcome));
  const hidden = run.kind === 'reviewed' ? addedByChange(run.result.suppressed) : [];
  if (hidden.length)
    say(
      `${plural(hidden.length, 'finding')} hidden by suppressions this pull request adds (they count for --fail-on): ${hidden.map((h) => `${h.finding.file}:${h.finding.line} ${h.finding.priority}`).join(', ')}`,
    );
}

/** The job summary, and the findings as annotations when they could not be comments. */
async function finish(io: CliIo, stepSummary: string | undefined, summary: string, annotate: Finding[]): Promise<void> {
  for (const f of annotate) io.command(annotation(f));
  if (!stepSummary) return;
  await appendFile(stepSummary, `${summary}\n`, 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw new UsageError(
      `cannot write the job summary to ${stepSummary} (GITHUB_STEP_SUMMARY): ${err.code ?? err.message}`,
    );
  });
}

function describe(o: Awaited<ReturnType<typeof publish>>['outcome']): string {
  if (o.kind === 'skipped') return `not reviewed: ${o.reason}`;
  if (o.kind === 'too-large')
    return `not reviewed: estimated ${plural(o.estimatedCalls, 'model call')}, over the ceiling of ${o.ceiling} (--max-calls)`;
  const where = o.posted === 'comments' ? 'posted to the pull request' : 'as annotations (the token cannot write)';
  return `${plural(o.result.findings.length, 'finding')} open, ${o.newFindings} new ${where}, ${o.fixed} marked fixed`;
}

export function exitCode(failOn: FailOn, run: RunOutcome): number {
  if (failOn === 'never') return EXIT.ok;
  if (run.kind === 'too-large') return EXIT.findings;
  if (run.kind === 'skipped') return EXIT.ok;
  // Pre-existing findings are on lines the change did not touch: they are not the pull request's to fix.
  if (failing(failOn, run.result).length) return EXIT.findings;
  return run.result.failed.length || run.result.stop ? EXIT.incomplete : EXIT.ok;
}

/**
 * The findings that fail the run at `failOn`: the open ones the change introduced, and those a suppression
 * the change adds hides (an author cannot approve their own must-fix).
 */
function failing(failOn: Exclude<FailOn, 'never'>, result: ReviewResult): Finding[] {
  const levels: string[] = failOn === 'must_fix' ? ['must_fix'] : ['must_fix', 'should_fix'];
  return [...result.findings, ...addedByChange(result.suppressed).map((s) => s.finding)].filter(
    (f) => levels.includes(f.priority) && !f.pre_existing,
  );
}

function ciFlags(argv: string[]): { failOn: FailOn; rest: string[]; help: boolean } {
  const rest: string[] = [];
  let failOn: FailOn = 'never';
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--help' || a === '-h') help = true;
    else if (a === '--fail-on' || a.startsWith('--fail-on=')) {
      const value = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
      if (!FAIL_ON.includes(value as FailOn))
        throw new UsageError(`--fail-on takes ${FAIL_ON.join(', ')}, got "${value ?? ''}"`);
      failOn = value as FailOn;
    } else if (a === '--changes' || a === '--staged' || a === '--base' || a === '--pr') {
      throw new UsageError(`${a}: skeptic ci reviews the pull request of its event; it takes no scope flags`);
    } else rest.push(a);
  }
  return { failOn, rest, help };
}
