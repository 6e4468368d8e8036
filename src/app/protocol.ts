/**
 * The host ↔ worker protocol, declared once for both sides. Every message is checked on receipt:
 * a malformed one is reported, not acted on. The worker's messages live in their own module so the
 * extension host, which only reads those, does not bundle the engine behind the job schema.
 */
import { z } from 'zod';
import { ReviewJob } from './job';

export const HostMessage = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('start'),
    job: ReviewJob,
    /** Ask the host before a run estimated above this many model calls; null: never ask. */
    confirmOver: z.number().int().min(0).nullable(),
    /** Where the report goes (default: the job's cwd). */
    reportDir: z.string().optional(),
  }),
  /** The user agreed to a run over the threshold. */
  z.object({ type: z.literal('proceed') }),
  z.object({ type: z.literal('cancel') }),
]);
/** What a sender writes (job defaults may be left out). */
export type HostMessage = z.input<typeof HostMessage>;

export { WorkerMessage } from './workerMessages';
