/** `skeptic review`: builds the job from the flags, runs it (src/app/runJob.ts), prints progress and the summary. */
import { describeCost, formatUsd } from '../model/pricing';
import { relative, sep } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { runJob, type ConfirmEstimate } from '../app/runJob';
import type { LensResult, ReviewResult, StagedResult } from '../model/events';
import { parseReviewArgs } from './args';
import { consoleReporter } from './console';
import { chooseScope, jobFromArgs } from './job';
import { recordOutputs } from '../app/state';
import { openEventLog } from './events';
import { EXIT, USAGE, UsageError } from './help';
import { inventoryLine, plural } from '../model/plural';

export interface CliIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  /** Aborts when the user interrupts (Ctrl-C) or the process is told to stop (SIGTERM). */
  signal: AbortSignal;
  /** The exit code a stop by signal ends with (130 for Ctrl-C, 143 for SIGTERM); set when `signal` aborts. */
  stoppedWith?: () => number;
}

export async function reviewCommand(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseReviewArgs(argv);
  if (parsed.help) {
    io.stdout.write(USAGE);
    return EXIT.ok;
  }
  const apiKey = io.env.ANTHROPIC_API_KEY?.trim();
  if (!apiKey)
    throw new UsageError(
      'no API key: set ANTHROPIC_API_KEY (export ANTHROPIC_API_KEY=sk-ant-…), from https://console.anthropic.com/settings/keys',
    );
  const args = await chooseScope(parsed, io, io.stdout);
  const job = await jobFromArgs(args, io, apiKey);

  const progress = consoleReporter(io.stderr, args.mode);
  const events = args.events ? openEventLog(io.cwd, args.events) : undefined;
  const outcome = await runJob(job, {
    emit: (e) => {
      events?.emit(e);
      if (e.type === 'inventory') io.stdout.write(`${inventoryLine(e.files.length, e.companions)}\n`);
      else progress(e);
    },
    ...(args.yes ? {} : { confirm: (estimate) => confirmAtTerminal(estimate, io) }),
    signal: io.signal,
  }).finally(() => events?.close());
  if (events?.written) await recordOutputs(job.stateDir, [events.path]);
  if (outcome.kind === 'skipped') {
    io.stdout.write(`${outcome.reason}\n`);
    return EXIT.ok;
  }
  if (outcome.kind === 'declined') return EXIT.ok;
  const { result, outputs } = outcome;
  if (!outputs) {
    // Nothing finished: no report. Either the user stopped it, or the API refused the run (bad key, unknown model).
    if (io.signal.aborted) return io.stoppedWith?.() ?? EXIT.interrupted;
    throw new UsageError(result.stopped ?? 'the review stopped before any file was reviewed');
  }
  const rel = relative(io.cwd, outputs.reportPath).split(sep).join('/');
  const shown = rel.startsWith('../') ? outputs.reportPath : rel;
  io.stdout.write(result.mode === 'lenses' ? lensSummary(result, shown) : stagedSummary(result, shown));
  if (io.signal.aborted) return io.stoppedWith?.() ?? EXIT.interrupted;
  return result.failed.length > 0 || result.stopped ? EXIT.incomplete : EXIT.ok;
}

/** A large run needs a yes at the terminal; without one, say how to proceed. */
async function confirmAtTerminal(estimate: ConfirmEstimate, io: CliIo): Promise<boolean> {
  const cost = estimate.costUsd === null ? '' : ` (~${formatUsd(estimate.costUsd)})`;
  const what = `this review is estimated at ${plural(estimate.calls, 'model call')} and ~${Math.round(estimate.inputTokens / 1000)}k input tokens${cost} (over the confirmation threshold of ${estimate.threshold})`;
  if (!io.stdin.isTTY) throw new UsageError(`${what}; pass --yes to run it, or narrow the scope`);
  const rl = createInterface({ input: io.stdin, output: io.stderr });
  try {
    const answer = await rl.question(`${what}. Proceed? [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

function lensSummary(result: LensResult, reportPath: string): string {
  const every = [...result.lensFindings, ...result.crossRepo];
  const all = every.filter((f) => !f.preExisting);
  const by = (s: string) => all.filter((f) => f.severity === s).length;
  const u = result.usage;
  const prompt = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
  const lines = [
    `${plural(all.length, 'finding')} (${by('CRITICAL')} critical, ${by('HIGH')} high, ${by('MEDIUM')} medium, ${by('LOW')} low, ${by('INFO')} info)${preExistingNote(every.length - all.length)}; ${plural(u.calls, 'model call')}, cache read ${prompt ? Math.round((100 * u.cache_read_input_tokens) / prompt) : 0}% of prompt tokens, cost ${describeCost(u.cost_usd)}.`,
  ];
  if (result.validation.performed)
    lines.push(`Validation: ${result.validation.rejected} rejected, ${result.validation.timeouts} not validated.`);
  if (result.missingReviewers.length)
    lines.push(`Missing reviewers: ${result.missingReviewers.join(', ')}; the report names them.`);
  if (result.rubric) lines.push(`Rubric: ${result.rubric.passed} passed, ${result.rubric.failed} failed.`);
  lines.push(...runNotes(result));
  lines.push(`Report: ${reportPath}`);
  return lines.join('\n') + '\n';
}

function stagedSummary(result: StagedResult, reportPath: string): string {
  const main = result.findings.filter((f) => !f.pre_existing);
  const by = (p: string) => main.filter((f) => f.priority === p).length;
  const lines = [
    `${plural(main.length, 'finding')} (${by('must_fix')} must fix, ${by('should_fix')} should fix, ${by('nice_to_have')} nice to have)${preExistingNote(result.findings.length - main.length)}; ${plural(result.usage.calls, 'model call')}, cost ${describeCost(result.usage.cost_usd)}.`,
  ];
  if (result.failed.length)
    lines.push(`${plural(result.failed.length, 'unit')} failed; the report lists them under Not Reviewed.`);
  lines.push(...runNotes(result));
  lines.push(`Report: ${reportPath}`);
  return lines.join('\n') + '\n';
}

/** Pre-existing findings (off the change) are counted apart from the findings before them. */
const preExistingNote = (n: number) => (n ? `, and ${n} pre-existing apart (not on a changed line)` : '');

/** What the call count leaves out, and why the run stopped early, if it did. */
function runNotes(result: ReviewResult): string[] {
  const notes: string[] = [];
  const b = result.batch;
  if (b)
    notes.push(
      `Through the Message Batches API at half price: ${plural(b.rounds, 'round')}, ${plural(b.batches, 'batch', 'batches')}${b.collected ? `, ${plural(b.collected, 'request')} collected from batches an earlier run left running` : ''}.`,
    );
  if (result.failedAttempts)
    notes.push(
      `${result.failedAttempts} failed HTTP attempts (errors, timeouts, malformed replies) are not counted in the model calls above.`,
    );
  if (result.stopped) notes.push(`Stopped early: ${result.stopped}.`);
  return notes;
}
