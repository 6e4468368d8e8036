/** `skeptic review`: builds the job from the flags, runs it (src/app/runJob.ts), prints progress and the summary. */
import { formatUsd } from '../model/pricing';
import { relative, sep } from 'node:path';
import { runJob, type ConfirmEstimate } from '../app/runJob';
import { summarize } from '../app/summary';
import { parseReviewArgs } from './args';
import { consoleReporter } from './console';
import { chooseScope, jobFromFlags, keyFor, providerFromFlags } from './job';
import { askYes } from './askYes';
import type { CliIo } from './io';
import { recordOutputs } from '../app/state';
import { checkProvider, modelsInUse } from '../app/jobChecks';
import { preloadRun } from '../app/jobConnection';
import { setupLine } from '../model/providers';
import { openEventLog } from './eventLog';
import { EXIT, USAGE, UsageError } from './help';
import { inventoryLine, plural } from '../model/plural';
import { agentExit, agentLines, keepAgentReview, skippedVerdict } from './agentFormat';

export async function reviewCommand(argv: string[], io: CliIo): Promise<number> {
  const { format, rest } = formatOf(argv);
  const parsed = parseReviewArgs(rest);
  if (parsed.help) {
    io.stdout.write(USAGE);
    return EXIT.ok;
  }
  // Loaded while the scope is detected: git's answers take longer than the parsing it waits on.
  preloadRun(parsed.choices.mode);
  const provider = providerFromFlags(parsed.choices, io.env);
  const apiKey = keyFor(provider, io.env);
  const { flags: args, line } = await chooseScope(parsed, io);
  const job = await jobFromFlags(args, io, apiKey, provider);
  checkProvider(job);
  const agent = format === 'agent';
  // Where the calls go comes first; the scope's line, when it was detected, second.
  if (!agent) io.stdout.write(`${setupLine(job.provider, modelsInUse(job))}\n${line ? `${line}\n` : ''}`);

  // An agent reads stdout only: no progress on stderr either.
  const progress = agent ? () => {} : consoleReporter(io.stderr, job.mode ?? 'staged');
  const events = job.outputs.events ? openEventLog(io.cwd, job.outputs.events) : undefined;
  const outcome = await runJob(job, {
    emit: (e) => {
      events?.emit(e);
      // The setup line is printed above, before the scope's.
      if (e.type === 'setup') return;
      if (e.type === 'inventory') {
        if (!agent) io.stdout.write(`${inventoryLine(e.files.length, e.companions)}\n`);
      } else progress(e);
    },
    ...(args.yes ? {} : { confirm: (estimate) => confirmAtTerminal(estimate, io) }),
    signal: io.signal,
  }).finally(() => events?.close());
  if (events?.written) await recordOutputs(job.stateDir, [events.path]);
  if (outcome.kind === 'skipped') {
    io.stdout.write(agent ? `${skippedVerdict(outcome.reason)}\n` : `${outcome.reason}\n`);
    return EXIT.ok;
  }
  if (outcome.kind === 'declined') return EXIT.ok;
  const { result, outputs } = outcome;
  if (!outputs) {
    // Nothing finished: no report. Either the user stopped it, or the API refused the run (bad key, unknown model).
    if (io.signal.aborted) return io.stoppedWith?.() ?? EXIT.interrupted;
    throw new UsageError(result.stop?.message ?? 'the review stopped before any file was reviewed');
  }
  // Every review of a scope is kept as its last, so the next one (any format, or the MCP server) can say what is new.
  const review = await keepAgentReview(job, result, outputs.reportPath);
  const stopped = io.signal.aborted ? (io.stoppedWith?.() ?? EXIT.interrupted) : undefined;
  if (agent) {
    io.stdout.write(agentLines(review).join('\n') + '\n');
    return stopped ?? agentExit(review);
  }
  const rel = relative(io.cwd, outputs.reportPath).split(sep).join('/');
  const shown = rel.startsWith('../') ? outputs.reportPath : rel;
  io.stdout.write([...summarize(result).lines, `Report: ${shown}`].join('\n') + '\n');
  return stopped ?? (result.failed.length > 0 || result.stop ? EXIT.incomplete : EXIT.ok);
}

/** `--format text` (the default) or `--format agent` (cli/agentFormat.ts), taken out before the review's own flags. */
function formatOf(argv: string[]): { format: 'text' | 'agent'; rest: string[] } {
  const at = argv.findIndex((a) => a === '--format' || a.startsWith('--format='));
  if (at < 0) return { format: 'text', rest: argv };
  const inline = argv[at]!.startsWith('--format=');
  const value = inline ? argv[at]!.slice('--format='.length) : argv[at + 1];
  if (value !== 'text' && value !== 'agent')
    throw new UsageError(`--format takes text or agent, got ${value === undefined ? 'nothing' : `"${value}"`}`);
  return { format: value, rest: [...argv.slice(0, at), ...argv.slice(at + (inline ? 1 : 2))] };
}

/** A large run needs a yes at the terminal; without one, say how to proceed. */
async function confirmAtTerminal(estimate: ConfirmEstimate, io: CliIo): Promise<boolean> {
  const cost = estimate.costUsd === null ? '' : ` (~${formatUsd(estimate.costUsd)})`;
  const what = `this review is estimated at ${plural(estimate.calls, 'model call')} and ~${Math.round(estimate.inputTokens / 1000)}k input tokens${cost} (over the confirmation threshold of ${estimate.threshold})`;
  return askYes(io, `${what}. Proceed?`, `${what}; pass --yes to run it, or narrow the scope`);
}
