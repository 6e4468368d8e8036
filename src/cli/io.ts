/** What a command of the CLI works with: the process's folder, environment, streams and stop signal. */
export interface CliIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  /**
   * One workflow command of Skeptic's own (an annotation), written to stdout as it is: `stdout` itself lets
   * no line be a command under GitHub Actions (src/cli/guardedStream.ts).
   */
  command: (line: string) => void;
  /** Aborts when the user interrupts (Ctrl-C) or the process is told to stop (SIGTERM). */
  signal: AbortSignal;
  /** The exit code a stop by signal ends with (130 for Ctrl-C, 143 for SIGTERM); set when `signal` aborts. */
  stoppedWith?: () => number;
}
