/**
 * What goes to and comes from the Message Batches API, checked here so batch.ts reads only checked values:
 * the create body within the API's limits on one batch, the batch a poll retrieves, and the results stream,
 * read line by line so that one bad line costs that line only.
 */
import Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import { MAX_MESSAGE_BYTES, ResponseBoundError } from '../io/boundedFetch';

/**
 * The API's limits on one batch: 100,000 requests or 256 MB, whichever comes first (a larger body is
 * refused with 413 request_too_large). Bytes are counted on the body as sent; 6 MB of margin stays below
 * 256 MB read either as 256,000,000 or as 256 MiB.
 */
export const BATCH_LIMITS = { requests: 100_000, bytes: 250_000_000 };
export type BatchLimits = typeof BATCH_LIMITS;

/** The part of a request the create body carries; `bytes`, the params' JSON length where already measured. */
export interface BatchEntry<P = unknown> {
  customId: string;
  params: P;
  bytes?: number;
}

/** The create body: exactly what is sent, and what chunks() measures. */
export function batchBody<P>(requests: readonly BatchEntry<P>[]): { requests: { custom_id: string; params: P }[] } {
  return { requests: requests.map((r) => ({ custom_id: r.customId, params: r.params })) };
}

/** `{"requests":[` and `]}` around the entries, which commas join. */
const ENVELOPE_BYTES = Buffer.byteLength(JSON.stringify(batchBody([])));
/** `{"custom_id":` `,"params":` `}` around an entry's id and params. */
const ENTRY_BYTES = Buffer.byteLength(JSON.stringify({ custom_id: '', params: 0 })) - 3;

/** One entry's bytes in the body. */
const entryBytes = (r: BatchEntry) =>
  r.bytes === undefined
    ? Buffer.byteLength(JSON.stringify(batchBody([r]).requests[0]))
    : ENTRY_BYTES + Buffer.byteLength(JSON.stringify(r.customId)) + r.bytes;

/** Batches within the limits, in order; a request over the byte limit alone still gets its own (the API says why). */
export function chunks<T extends BatchEntry>(requests: readonly T[], limits: BatchLimits = BATCH_LIMITS): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const r of requests) {
    const size = entryBytes(r);
    // Each entry after the first comes with a comma.
    if (current.length && (current.length >= limits.requests || bytes + 1 + size > limits.bytes)) {
      out.push(current);
      current = [];
    }
    bytes = current.length ? bytes + 1 + size : ENVELOPE_BYTES + size;
    current.push(r);
  }
  if (current.length) out.push(current);
  return out;
}

/** A retrieved batch, as much of it as a poll reads. */
const BatchView = z
  .looseObject({
    processing_status: z.string(),
    request_counts: z.looseObject({
      processing: z.number(),
      succeeded: z.number(),
      errored: z.number(),
      canceled: z.number(),
      expired: z.number(),
    }),
    results_url: z.string().nullable(),
  })
  .refine((b) => b.processing_status !== 'ended' || b.results_url !== null, {
    message: 'an ended batch without a results_url',
    path: ['results_url'],
  });
type BatchView = z.infer<typeof BatchView>;

/** The answer a poll got is not a Message Batch. */
export class MalformedBatch extends Error {}

export function batchView(id: string, answer: unknown): BatchView {
  const view = BatchView.safeParse(answer);
  if (view.success) return view.data;
  throw new MalformedBatch(`the API's answer for batch ${id} is not a Message Batch (${firstIssue(view.error)})`);
}

/** An error's type and message (which may be missing). */
const ErrorDetail = z.looseObject({ type: z.string(), message: z.string().optional() });
/** An errored result's error as the API reference documents it: {type: "error", error: {type, message}}. */
const Documented = z.looseObject({ type: z.literal('error'), error: ErrorDetail });
/** That, or the flat {type, message} some of the API's examples show, normalised to the documented shape. */
const ErroredError = z.union([Documented, ErrorDetail.transform((error) => ({ type: 'error' as const, error }))]);

/** What one line of a batch's results must be before anything reads it. */
const ResultLine = z.object({
  custom_id: z.string(),
  result: z.discriminatedUnion('type', [
    z.object({ type: z.literal('succeeded'), message: z.looseObject({ content: z.array(z.unknown()) }) }),
    z.object({ type: z.literal('errored'), error: ErroredError }),
    z.object({ type: z.literal('canceled') }),
    z.object({ type: z.literal('expired') }),
  ]),
});
export type BatchResult = z.infer<typeof ResultLine>['result'];

/** The HTTP status each error type stands for, so that an errored result is classified like a live answer. */
const STATUS_OF: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

/** An errored result as the SDK's error for the same answer live, so retries, refusals and reports read it alike. */
export function erroredAs(error: z.infer<typeof Documented>): Error {
  const { type, message = type } = error.error;
  const body = { ...error, error: { ...error.error, message } };
  return Anthropic.APIError.generate(STATUS_OF[type] ?? 500, body, message, new Headers());
}

/** What reading one results stream found besides the results handed on. */
export interface ResultsRead {
  /** Lines read, blank ones included. */
  lines: number;
  /** Numbers of the lines that are not JSON. */
  notJson: number[];
  /** Numbers of the JSON lines without a custom_id. */
  nameless: number[];
  /** custom_ids on more than one line: the first valid one was handed on. */
  duplicates: Set<string>;
  /** custom_id → why its line is not a valid result, for those without a valid line. */
  invalid: Map<string, string>;
  /** Why the stream ended before its end (a dropped connection), if it did. */
  cut?: unknown;
}

/**
 * Reads a results stream line by line, handing each custom_id's first valid result to `take`. A blank line
 * is skipped, a line that is not JSON is counted and skipped; every line after it still counts. The read
 * stops once `done` says every expected result is in (a stream that goes on after them is not waited on),
 * and at a line longer than `maxLine` bytes (a result is one reply: no line is larger than one).
 */
export async function readResults(
  body: AsyncIterable<Uint8Array>,
  take: (customId: string, result: BatchResult) => void,
  done: () => boolean = () => false,
  maxLine = MAX_MESSAGE_BYTES,
): Promise<ResultsRead> {
  const read: ResultsRead = { lines: 0, notJson: [], nameless: [], duplicates: new Set(), invalid: new Map() };
  const seen = new Set<string>();
  const answered = new Set<string>();
  try {
    for await (const text of lines(body, maxLine)) {
      const n = ++read.lines;
      if (text.trim() === '') continue;
      const raw = parseJson(text);
      const customId = (raw as { custom_id?: unknown } | undefined)?.custom_id;
      if (raw === undefined) read.notJson.push(n);
      else if (typeof customId !== 'string') read.nameless.push(n);
      else {
        if (seen.has(customId)) read.duplicates.add(customId);
        seen.add(customId);
        if (answered.has(customId)) continue;
        const line = ResultLine.safeParse(raw);
        if (!line.success) {
          if (!read.invalid.has(customId)) read.invalid.set(customId, firstIssue(line.error));
          continue;
        }
        answered.add(customId);
        read.invalid.delete(customId);
        take(customId, line.data.result);
        if (done()) break;
      }
    }
  } catch (err) {
    read.cut = err;
  }
  return read;
}

/**
 * The stream's lines as they arrive; a last line without its newline comes only if the stream ended whole.
 * A line that grows past `maxLine` bytes ends the read (ResponseBoundError).
 */
async function* lines(body: AsyncIterable<Uint8Array>, maxLine: number): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let rest = '';
  for await (const chunk of body) {
    const parts = (rest + decoder.decode(chunk, { stream: true })).split('\n');
    rest = parts.pop()!;
    yield* parts;
    // Counted in characters, each at least a byte: no line holds more than maxLine of them.
    if (rest.length > maxLine)
      throw new ResponseBoundError('size', `a results line is longer than ${Math.round(maxLine / 1048576)} MB`);
  }
  rest += decoder.decode();
  if (rest) yield rest;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return `${issue?.path.join('.') || 'result'}: ${issue?.message}`;
}
