/** The `skeptic` command line: the same engine and reports as the extension, headless. */
import { isSetupError } from './app/runJob';
import { evalCommand } from './cli/eval';
import { planCommand } from './cli/plan';
import { reviewCommand, type CliIo } from './cli/review';
import { EXIT, USAGE, UsageError } from './cli/usage';
import { version as VERSION } from '../package.json';

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const controller = new AbortController();
  const onInterrupt = () => {
    if (controller.signal.aborted) process.exit(EXIT.interrupted); // a second Ctrl-C does not wait
    process.stderr.write('interrupted: finishing what is done and writing a partial report (Ctrl-C again to quit now)\n');
    controller.abort(new Error('interrupted'));
  };
  process.on('SIGINT', onInterrupt);
  const io: CliIo = { cwd: process.cwd(), env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, signal: controller.signal };
  try {
    switch (command) {
      case 'review':
        return await reviewCommand(rest, io);
      case 'plan':
        return await planCommand(rest, io);
      case 'eval':
        return await evalCommand(rest, io);
      case '--version':
      case '-V':
      case 'version':
        process.stdout.write(`skeptic ${VERSION}\n`);
        return EXIT.ok;
      case undefined:
      case '-h':
      case '--help':
      case 'help':
        process.stdout.write(USAGE);
        return command === undefined ? EXIT.usage : EXIT.ok;
      default:
        throw new UsageError(`unknown command "${command}"; the commands are review, plan and eval (see skeptic --help)`);
    }
  } catch (err) {
    if (err instanceof UsageError || isSetupError(err)) {
      process.stderr.write(`skeptic: ${err.message}\n`);
      return EXIT.usage;
    }
    throw err;
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`skeptic: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
