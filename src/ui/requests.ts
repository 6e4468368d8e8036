/** What the user asked to review, as data: enough to run it again from the report (also after a reload). */
import * as z from 'zod/mini';

export const RerunRequest = z.object({
  /** The workspace folder the review ran in. */
  folder: z.string(),
  /** Absent: the staged review; 'lenses': the Quick Review. */
  mode: z.optional(z.literal('lenses')),
  scope: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('paths'), paths: z.array(z.string()) }),
    z.object({ kind: z.literal('changes') }),
    z.object({ kind: z.literal('staged') }),
    z.object({ kind: z.literal('branch'), base: z.string() }),
  ]),
});
export type RerunRequest = z.infer<typeof RerunRequest>;
