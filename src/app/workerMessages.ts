/**
 * Messages from the review worker to the extension host (see protocol.ts). Declared with zod/mini: the
 * host bundle parses only these, and the full zod would be most of its size.
 */
import * as z from 'zod/mini';
import type { ReviewEvent } from '../model/events';

/** Engine events come from our own code on the other side; their payloads are checked by type tag only. */
const Event = z.custom<ReviewEvent>((v) => typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string');

export const WorkerMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('prepared'), files: z.int(), companions: z.int(), excluded: z.int(), paths: z.array(z.string()) }),
  z.object({ type: z.literal('confirm'), calls: z.int(), inputTokens: z.int() }),
  z.object({ type: z.literal('skipped'), reason: z.string() }),
  z.object({ type: z.literal('event'), event: Event }),
  z.object({ type: z.literal('report'), path: z.string(), markdown: z.string() }),
  /** `setup`: a problem with the request or the environment, not a crash. */
  z.object({ type: z.literal('failed'), message: z.string(), setup: z.boolean() }),
  z.object({ type: z.literal('finished') }),
]);
export type WorkerMessage = z.infer<typeof WorkerMessage>;
