/** `skeptic review`: Step 0, then the staged pipeline, then the report files. Returns the exit code. */
import { relative, sep } from 'node:path';
import { assertReviewable, executeJob, prepareJob, type ReviewJob } from '../app/job';
import { writeOutputs } from '../app/output';
import type { StagedResult } from '../engine/events';
import { parseReviewArgs } from './args';
import { consoleReporter } from './console';
import { EXIT, USAGE, UsageError } from './usage';

export interface CliIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
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
  const job: ReviewJob = {
    cwd: io.cwd,
    paths: args.paths,
    excludes: args.excludes,
    contextFiles: args.contextFiles,
    models: args.models,
    concurrency: args.concurrency,
    timeoutMs: args.timeoutMs,
    maxAttempts: 6,
    ...(args.effort ? { effort: args.effort } : {}),
    apiKey,
    ...(io.env.ANTHROPIC_BASE_URL ? { baseURL: io.env.ANTHROPIC_BASE_URL } : {}),
  };

  const prepared = await prepareJob(job);
  const files = prepared.inventory.discovery.file_entries.length;
  io.stdout.write(`${files} files under review, ${prepared.companions} companions discovered.\n`);
  assertReviewable(prepared);
  if (args.effort === 'max') io.stderr.write('warning: max effort risks overthinking on straightforward code\n');

  const result = await executeJob(job, prepared, consoleReporter(io.stderr), io.signal);
  if (result.stopped && !result.files.some((f) => f.analysis || f.status === 'skipped')) {
    // Nothing finished: no report, and the reason is a setup problem (bad key, unknown model) or an early stop.
    if (io.signal.aborted) return EXIT.interrupted;
    throw new UsageError(result.stopped);
  }
  const written = await writeOutputs(result, { cwd: io.cwd, ...(args.out ? { out: args.out } : {}), ...(args.json ? { json: args.json } : {}) });
  io.stdout.write(summary(result, relative(io.cwd, written.reportPath).split(sep).join('/')));
  if (io.signal.aborted) return EXIT.interrupted;
  return result.failed.length > 0 || result.stopped ? EXIT.incomplete : EXIT.ok;
}

function summary(result: StagedResult, reportPath: string): string {
  const by = (p: string) => result.findings.filter((f) => f.priority === p).length;
  const lines = [
    `${result.findings.length} findings (${by('must_fix')} must fix, ${by('should_fix')} should fix, ${by('nice_to_have')} nice to have); ${result.usage.calls} model calls.`,
  ];
  if (result.failed.length) lines.push(`${result.failed.length} units failed; the report lists them under Not Reviewed.`);
  lines.push(`Report: ${reportPath}`);
  return lines.join('\n') + '\n';
}
