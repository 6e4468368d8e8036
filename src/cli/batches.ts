/**
 * `skeptic batches [--cancel]` with the review's provider flags: the Message Batches this repository's runs
 * left to collect, and canceling them (src/app/batches.ts).
 */
import { batchesReport } from '../app/batches';
import { LIMITS } from '../app/contributions';
import { connectJob } from '../app/jobConnection';
import { repositoryStateDir } from '../app/state';
import { parseCommandLine, PROVIDER_OPTIONS } from './args';
import { EXIT, UsageError } from './help';
import { keyFor, providerFromFlags } from './job';
import type { CliIo } from './io';

export const BATCHES_USAGE = `Usage: skeptic batches [--cancel] [--provider NAME]

Lists the Message Batches that review --batch runs of this repository left and no run has collected (Ctrl-C
or --timeout leaves them running; the same review run again collects them): each batch's state and request
counts from the API, when it was created, and the review it was sent for. Needs the API key a review needs
once there is a batch to list.
--cancel also cancels each batch still in progress: its requests not yet run are canceled and not paid for;
those already run are paid for and a rerun of the review still collects them. A batch with nothing left to
collect is dropped from the list. Stop a review still waiting on its batches (Ctrl-C) before canceling
them: a run that is still going sends canceled requests again.
Exit 3 when the API did not answer for a batch.
`;

export async function batchesCommand(argv: string[], io: CliIo): Promise<number> {
  const { values: v, positionals } = parseCommandLine(argv, {
    ...PROVIDER_OPTIONS,
    cancel: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (v.help) {
    io.stdout.write(BATCHES_USAGE);
    return EXIT.ok;
  }
  if (positionals.length)
    throw new UsageError(
      `skeptic batches takes no paths (got ${positionals.join(' ')}): it lists the batches of the repository it runs in`,
    );
  const { lines, ok } = await batchesReport({
    stateDir: await repositoryStateDir(io.cwd, io.env),
    cancel: v.cancel ?? false,
    signal: io.signal,
    // Resolved only when there is a batch to ask about: an empty list needs neither provider nor key.
    connect: () => {
      const provider = providerFromFlags(v, io.env);
      return connectJob({ provider, apiKey: keyFor(provider, io.env), requestTimeout: LIMITS.requestTimeout.default });
    },
  });
  io.stdout.write(`${lines.join('\n')}\n`);
  return ok ? EXIT.ok : EXIT.incomplete;
}
