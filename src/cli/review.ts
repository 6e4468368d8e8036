/** `skeptic review`: Step 0, the gate and cost checks, the pipeline of the chosen mode, then the report files. */
import { describeCost } from '../model/pricing';
import { relative, resolve, sep } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { estimateJob } from '../app/estimate';
import { assertReviewable, executeJob, prepareJob, type PreparedJob, type ReviewJob } from '../app/job';
import { writeOutputs } from '../app/output';
import type { LensResult, ReviewResult, StagedResult } from '../model/events';
import { currentBranch } from '../scope/changes';
import { parseReviewArgs, type ReviewArgs } from './args';
import { consoleReporter } from './console';
import { loadPrices } from './prices';
import { EXIT, USAGE, UsageError } from './usage';

export interface CliIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  /** Aborts when the user interrupts (Ctrl-C). */
  signal: AbortSignal;
}

export async function reviewCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseReviewArgs(argv);
  if (args.help) {
    io.stdout.write(USAGE);
    return EXIT.ok;
  }
  const apiKey = io.env.ANTHROPIC_API_KEY?.trim();
  if (!apiKey) throw new UsageError('no API key: set ANTHROPIC_API_KEY (export ANTHROPIC_API_KEY=sk-ant-…), from https://console.anthropic.com/settings/keys');
  const prices = await loadPrices(io.cwd, args.pricesFile);
  const job: ReviewJob = {
    cwd: io.cwd,
    scope: args.scope,
    ...(args.mode === 'lenses' ? { mode: 'lenses' as const, ...(args.lens ? { lens: args.lens } : {}) } : {}),
    excludes: args.excludes,
    includeUntracked: args.includeUntracked,
    force: args.force,
    contextFiles: args.contextFiles,
    ...(args.cacheDir ? { cacheDir: resolve(io.cwd, args.cacheDir) } : {}),
    ...(prices ? { prices } : {}),
    models: args.models,
    concurrency: args.concurrency,
    timeoutMs: args.timeoutMs,
    maxAttempts: 6,
    ...(args.effort ? { effort: args.effort } : {}),
    apiKey,
    ...(io.env.ANTHROPIC_BASE_URL ? { baseURL: io.env.ANTHROPIC_BASE_URL } : {}),
  };

  const prepared = await prepareJob(job);
  io.stdout.write(`${prepared.inventory.discovery.file_entries.length} files under review, ${prepared.companions} companions discovered.\n`);
  if (prepared.scope.skip && !args.force) {
    io.stdout.write(`${prepared.scope.skip}\n`);
    return EXIT.ok;
  }
  assertReviewable(prepared);
  await warnOnPrBranch(prepared, io);
  if (args.effort === 'max') io.stderr.write('warning: max effort risks overthinking on straightforward code\n');
  if (!(await confirmCost(job, prepared, args, io))) return EXIT.ok;

  const result = await executeJob(job, prepared, consoleReporter(io.stderr), io.signal);
  if (result.stopped && finishedNothing(result)) {
    // Nothing finished: no report. Either the user stopped it, or the API refused the run (bad key, unknown model).
    if (io.signal.aborted) return EXIT.interrupted;
    throw new UsageError(result.stopped);
  }
  const written = await writeOutputs(result, { cwd: io.cwd, ...(args.out ? { out: args.out } : {}), ...(args.json ? { json: args.json } : {}), ...(args.sarif ? { sarif: args.sarif } : {}) });
  const shown = relative(io.cwd, written.reportPath).split(sep).join('/');
  io.stdout.write(result.mode === 'lenses' ? lensSummary(result, shown) : stagedSummary(result, shown));
  if (io.signal.aborted) return EXIT.interrupted;
  return result.failed.length > 0 || result.stopped ? EXIT.incomplete : EXIT.ok;
}

/** Large runs need a yes: --yes, or an answer at the terminal. Without a terminal, say how to proceed. */
async function confirmCost(job: ReviewJob, prepared: PreparedJob, args: ReviewArgs, io: CliIo): Promise<boolean> {
  if (args.yes) return true;
  const estimate = await estimateJob(job, prepared);
  if (estimate.calls <= args.confirmOver) return true;
  const what = `this review is estimated at ${estimate.calls} model calls and ~${Math.round(estimate.inputTokens / 1000)}k input tokens (over the confirmation threshold of ${args.confirmOver})`;
  if (!io.stdin.isTTY) throw new UsageError(`${what}; pass --yes to run it, or narrow the scope`);
  const rl = createInterface({ input: io.stdin, output: io.stderr });
  try {
    const answer = await rl.question(`${what}. Proceed? [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

async function warnOnPrBranch(prepared: PreparedJob, io: CliIo): Promise<void> {
  const pr = prepared.scope.changes?.pr;
  if (!pr) return;
  const branch = await currentBranch(io.cwd);
  if (branch !== pr.headRefName) {
    io.stderr.write(`warning: PR #${pr.number} is on ${pr.headRefName}, but ${branch ?? 'a detached HEAD'} is checked out; files are read from the working tree\n`);
  }
}

function finishedNothing(result: ReviewResult): boolean {
  if (result.mode === 'lenses') return !result.files.some((f) => f.status === 'reviewed');
  return !result.files.some((f) => f.analysis || f.status === 'skipped');
}

function lensSummary(result: LensResult, reportPath: string): string {
  const all = [...result.lensFindings, ...result.crossRepo];
  const by = (s: string) => all.filter((f) => f.severity === s).length;
  const u = result.usage;
  const prompt = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
  const lines = [
    `${all.length} findings (${by('CRITICAL')} critical, ${by('HIGH')} high, ${by('MEDIUM')} medium, ${by('LOW')} low, ${by('INFO')} info); ${u.calls} model calls, cache read ${prompt ? Math.round((100 * u.cache_read_input_tokens) / prompt) : 0}% of prompt tokens, cost ${describeCost(u.cost_usd)}.`,
  ];
  if (result.validation.performed) lines.push(`Validation: ${result.validation.rejected} rejected, ${result.validation.timeouts} not validated.`);
  if (result.missingReviewers.length) lines.push(`Missing reviewers: ${result.missingReviewers.join(', ')}; the report names them.`);
  if (result.rubric) lines.push(`Rubric: ${result.rubric.passed} passed, ${result.rubric.failed} failed.`);
  lines.push(`Report: ${reportPath}`);
  return lines.join('\n') + '\n';
}

function stagedSummary(result: StagedResult, reportPath: string): string {
  const by = (p: string) => result.findings.filter((f) => f.priority === p).length;
  const lines = [
    `${result.findings.length} findings (${by('must_fix')} must fix, ${by('should_fix')} should fix, ${by('nice_to_have')} nice to have); ${result.usage.calls} model calls, cost ${describeCost(result.usage.cost_usd)}.`,
  ];
  if (result.failed.length) lines.push(`${result.failed.length} units failed; the report lists them under Not Reviewed.`);
  lines.push(`Report: ${reportPath}`);
  return lines.join('\n') + '\n';
}
