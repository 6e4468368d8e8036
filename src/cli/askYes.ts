import { createInterface } from 'node:readline/promises';
import { UsageError } from './help';
import type { CliIo } from './io';

/**
 * A yes at the terminal before something that spends. The question goes to stderr, so stdout stays the
 * result; anything but y or yes is a no. Without a terminal there is no one to ask: `howWithout` says how to
 * agree instead (a usage error, so nothing is spent).
 */
export async function askYes(io: CliIo, question: string, howWithout: string): Promise<boolean> {
  if (!io.stdin.isTTY) throw new UsageError(howWithout);
  const rl = createInterface({ input: io.stdin, output: io.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}
