/**
 * The host ↔ worker protocol, declared once for both sides. Every message is checked on receipt:
 * a malformed one is reported, not acted on.
 */
import { z } from 'zod';
import type { ReviewEvent } from '../engine/events';
import { ReviewJob } from './job';

export const HostMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('start'), job: ReviewJob }),
  z.object({ type: z.literal('cancel') }),
]);
export type HostMessage = z.infer<typeof HostMessage>;

/** Engine events are produced by our own code on the other side; their payloads are checked by type only. */
export const WorkerMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('prepared'), files: z.number().int(), companions: z.number().int(), excluded: z.number().int() }),
  z.object({ type: z.literal('skipped'), reason: z.string() }),
  z.object({ type: z.literal('event'), event: z.custom<ReviewEvent>((v) => typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string') }),
  z.object({ type: z.literal('failed'), message: z.string(), setup: z.boolean() }),
  z.object({ type: z.literal('finished') }),
]);
export type WorkerMessage = z.infer<typeof WorkerMessage>;
