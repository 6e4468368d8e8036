/**
 * The `skeptic` command line: the same engine and reports as the extension, headless. Each command's code
 * is evaluated only when that command runs (a dynamic import, which the bundle turns into a lazy
 * initialiser): `--version` loads nothing else, and help only its text and the table of options (docs/caching.md,
 * "What loads when").
 */
import type { CliIo } from './cli/io';
import { guardedStream } from './cli/guardedStream';
import { EXIT, UsageError } from './cli/exit';
import { version as VERSION } from '../package.json';

// Under GitHub Actions, no line of ours but our own annotations may be a workflow command.
const underActions = process.env.GITHUB_ACTIONS === 'true';
const stdout = guardedStream(process.stdout, underActions);
const stderr = guardedStream(process.stderr, underActions);

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const signals = catchSignals();
  const io: CliIo = {
    cwd: process.cwd(),
    env: process.env,
    stdin: process.stdin,
    stdout,
    stderr,
    command: (line) => process.stdout.write(`${line}\n`),
    signal: signals.signal,
    stoppedWith: signals.stoppedWith,
  };
  try {
    return await dispatch(command, rest, io);
  } catch (err) {
    // A setup error comes from a command's own code, already loaded by then.
    if (err instanceof UsageError || (command && (await import('./model/setup')).isSetupError(err))) {
      // Loaded here: --version and --help evaluate nothing but the command line.
      const { redact } = await import('./model/redact');
      stderr.write(`skeptic: ${redact(err.message)}\n`);
      return EXIT.usage;
    }
    throw err;
  } finally {
    signals.release();
  }
}

/** Ctrl-C and SIGTERM alike: stop the calls in flight, write what finished, exit 130 or 143. */
function catchSignals(): { signal: AbortSignal; stoppedWith: () => number; release: () => void } {
  const controller = new AbortController();
  let stoppedWith: number = EXIT.interrupted;
  const onSignal = (signal: NodeJS.Signals) => {
    const code = signal === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted;
    if (controller.signal.aborted) process.exit(code); // a second signal does not wait
    stoppedWith = code;
    stderr.write(
      `${signal === 'SIGTERM' ? 'terminated' : 'interrupted'}: finishing what is done and writing a partial report (${signal === 'SIGTERM' ? 'SIGTERM' : 'Ctrl-C'} again to quit now)\n`,
    );
    controller.abort(new Error(signal === 'SIGTERM' ? 'terminated' : 'interrupted'));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    stoppedWith: () => stoppedWith,
    release: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/** Runs one command, loading its code only then. */
async function dispatch(command: string | undefined, rest: string[], io: CliIo): Promise<number> {
  switch (command) {
    case 'review':
      return (await import('./cli/review')).reviewCommand(rest, io);
    case 'plan':
      return (await import('./cli/plan')).planCommand(rest, io);
    case 'ci':
      return (await import('./cli/ci')).ciCommand(rest, io);
    case 'hook':
      return (await import('./cli/hook')).hookCommand(rest, io);
    case 'eval':
      return (await import('./cli/eval')).evalCommand(rest, io);
    case 'doctor':
      return (await import('./cli/doctor')).doctorCommand(rest, io);
    case 'batches':
      return (await import('./cli/batches')).batchesCommand(rest, io);
    case 'mcp':
      return (await import('./cli/mcp/server')).mcpCommand(rest, io);
    case '--version':
    case '-V':
    case 'version':
      stdout.write(`skeptic ${VERSION}\n`);
      return EXIT.ok;
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      stdout.write((await import('./cli/help')).USAGE);
      return command === undefined ? EXIT.usage : EXIT.ok;
    default:
      throw new UsageError(
        `unknown command "${command}"; the commands are review, plan, ci, hook, eval, doctor, batches and mcp (see skeptic --help)`,
      );
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // Stopped by a signal: the partial report is written; do not wait for idle connections to wind down.
    if (code === EXIT.interrupted || code === EXIT.terminated) process.exit(code);
  },
  async (err: unknown) => {
    const { redact } = await import('./model/redact');
    stderr.write(
      `skeptic: internal error: ${redact(err instanceof Error ? (err.stack ?? err.message) : String(err))}\n`,
    );
    process.exitCode = 1;
  },
);
