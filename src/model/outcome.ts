/**
 * How a run stopped early, or a request failed, as a value: every reader (the CLI's exit code, `--json`, MCP,
 * the editor's notices, the report) decides on `kind` and `status`, never on the words. `message` is the one
 * line the user reads, the same wherever it is shown. zod/mini: it crosses the worker connection.
 */
import * as z from 'zod/mini';

/**
 * `cancelled`: the user stopped it. `maxCalls`, `maxCost`, `deadline`: a limit of the run's own (--max-calls,
 * --max-cost, a batch run's --timeout). `refused`: the API refused the run as a whole (a key, a model).
 * `setup`: something to fix before a run can work (a missing key or token, a bad config, a provider without
 * what the run needs). `fatal`: anything else that ended it.
 */
export const STOP_KINDS = ['cancelled', 'maxCalls', 'maxCost', 'deadline', 'refused', 'setup', 'fatal'] as const;
export type StopKind = (typeof STOP_KINDS)[number];

export const Stop = z.object({
  kind: z.enum(STOP_KINDS),
  /** The HTTP status of the answer behind it (a refused key: 401); null where no answer was. */
  status: z.nullable(z.int()),
  message: z.string(),
});
export type Stop = z.infer<typeof Stop>;

export const CANCELLED: Stop = { kind: 'cancelled', status: null, message: 'cancelled' };

/** A limit the run set itself: it reports what it finished, even nothing. */
export function isOwnLimit(stop: Stop): boolean {
  return stop.kind === 'maxCalls' || stop.kind === 'maxCost' || stop.kind === 'deadline';
}

/** How a request across the worker connection failed: a setup to fix (SetupError), or anything else. */
export const FAILURE_CODES = ['setup', 'fatal'] as const;
export type FailureCode = (typeof FAILURE_CODES)[number];
