/**
 * The Message Batches endpoints, as the API reference and the batch-processing guide describe them:
 *   POST   /v1/messages/batches              create: 1–100,000 requests, at most 256 MB, custom_id unique
 *                                            and matching ^[a-zA-Z0-9_-]{1,64}$ (else 400; a body over 256 MB:
 *                                            413 request_too_large)
 *   GET    /v1/messages/batches              list, newest first (limit 1–1000, default 20; before_id, after_id)
 *   GET    /v1/messages/batches/{id}         retrieve (unknown id: 404 not_found_error)
 *   GET    /v1/messages/batches/{id}/results the results as JSON lines, in no particular order, once ended
 *   POST   /v1/messages/batches/{id}/cancel  before processing ends: `canceling`; requests running finish, the
 *                                            rest are `canceled`, then the batch is `ended` (at once if none ran)
 *   DELETE /v1/messages/batches/{id}         only once processing has ended
 * A batch starts `in_progress` with every request counted as `processing`; the counts move only when the
 * whole batch ends. Each request's `params` is checked only when it runs, as the API does: an invalid one
 * becomes an `errored` result. Every request runs through this server's own /v1/messages, so it gets the
 * same scenario, faults, cache accounting and log as a live call; a 5-minute cache entry would not outlive a
 * real batch, which is why callers use the 1-hour TTL (the accounting reports which one was written).
 * Where the reference does not say which error a refused call gets (results, cancel or delete at the wrong
 * moment), this server answers 400 invalid_request_error with a sentence saying why.
 */
import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { z } from 'zod';
import { errorTypeOf } from './faults';
import type { Fault } from './scenario';

export const MAX_BATCH_REQUESTS = 100_000;
/** "256 MB", read as the stricter 256,000,000 bytes (not 256 MiB): a client under it passes either reading. */
export const MAX_BATCH_BYTES = 256_000_000;
const CUSTOM_ID = /^[a-zA-Z0-9_-]{1,64}$/;
/** Results stay downloadable this long after creation; processing ends within 24 hours. */
const EXPIRES_MS = 24 * 3600_000;
/** Requests of one batch run side by side, a few at a time, so that cache writes of earlier ones can be read. */
const RUN_AT_ONCE = 4;

/** As strict as the API: an unknown field is a 400 (each request's params are checked when it runs, contract.ts). */
const CreateBody = z.strictObject({
  requests: z
    .array(z.strictObject({ custom_id: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/), params: z.looseObject({}) }))
    .min(1)
    .max(MAX_BATCH_REQUESTS),
});

type Status = 'in_progress' | 'canceling' | 'ended';
type Result =
  | { type: 'succeeded'; message: unknown }
  | { type: 'errored'; error: { type: 'error'; error: { type: string; message: string }; request_id: string | null } }
  | { type: 'errored'; error: { type: string; message: string } }
  | { type: 'canceled' }
  | { type: 'expired' };

interface Batch {
  id: string;
  created_at: string;
  ended_at: string | null;
  cancel_initiated_at: string | null;
  status: Status;
  /** The create body's size. */
  bytes: number;
  requests: { custom_id: string; params: Record<string, unknown> }[];
  results: Map<string, Result>;
  /** What the request of each custom_id hit among the batch-only faults. */
  faults: Map<string, Fault>;
  credentials: Record<string, string>;
  canceled: boolean;
  /** Its requests have begun to run (after the batch delay, or at once when canceled before). */
  started: boolean;
}

export interface BatchHost {
  /** This server's own address, for running each request through /v1/messages. */
  url(): string;
  /** The batch-only fault a request's params hit at its line in the results or at its batch's create, counting the hit; null when none. */
  takeFault(params: unknown, place: 'result' | 'create'): Fault | null;
  /** How long a batch waits before its requests start running. */
  delayMs(): number;
  /** The largest create body taken. */
  maxBytes(): number;
}

export class FakeBatches {
  private readonly batches = new Map<string, Batch>();

  constructor(private readonly host: BatchHost) {}

  clear(): void {
    this.batches.clear();
  }

  /** Every batch created so far, oldest first (for tests). */
  list(): { id: string; status: Status; requests: number; bytes: number; custom_ids: string[] }[] {
    return [...this.batches.values()].map((b) => ({
      id: b.id,
      status: b.status,
      requests: b.requests.length,
      bytes: b.bytes,
      custom_ids: b.requests.map((r) => r.custom_id),
    }));
  }

  /** Serves a /v1/messages/batches path; false when the path is not one of them. */
  async route(req: IncomingMessage, res: ServerResponse, path: string, send: Send, error: SendError): Promise<boolean> {
    const m = /^\/v1\/messages\/batches(?:\/([^/]+))?(\/results|\/cancel)?$/.exec(path);
    if (!m) return false;
    const [, id, action] = m;
    if (!id) {
      if (req.method === 'POST') return this.create(req, res, send, error).then(() => true);
      if (req.method === 'GET') return (this.page(req, res, send, error), true);
      return false;
    }
    const batch = this.batches.get(id);
    if (!batch) return (error(res, 404, 'not_found_error', `no message batch ${id}`), true);
    if (action === '/results' && req.method === 'GET') this.results(batch, res, error);
    else if (action === '/cancel' && req.method === 'POST') this.cancel(batch, req, res, send, error);
    else if (!action && req.method === 'GET') send(res, 200, this.retrieved(batch, req));
    else if (!action && req.method === 'DELETE') {
      if (batch.status !== 'ended')
        error(res, 400, 'invalid_request_error', `message batch ${id} is still processing; cancel it before deleting`);
      else {
        this.batches.delete(id);
        send(res, 200, { id, type: 'message_batch_deleted' });
      }
    } else return false;
    return true;
  }

  private async create(req: IncomingMessage, res: ServerResponse, send: Send, error: SendError): Promise<void> {
    const max = this.host.maxBytes();
    const text = await readCapped(req, max);
    if (text === null) return error(res, 413, 'request_too_large', `a batch may be at most ${max} bytes`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return error(res, 400, 'invalid_request_error', 'request body is not valid JSON');
    }
    const body = CreateBody.safeParse(json);
    if (!body.success) {
      const why = body.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      return error(res, 400, 'invalid_request_error', why);
    }
    const seen = new Set<string>();
    for (const [i, r] of body.data.requests.entries()) {
      if (!CUSTOM_ID.test(r.custom_id))
        return error(
          res,
          400,
          'invalid_request_error',
          `requests.${i}.custom_id: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`,
        );
      if (seen.has(r.custom_id))
        return error(
          res,
          400,
          'invalid_request_error',
          `requests.${i}.custom_id: custom_id "${r.custom_id}" is used more than once; each must be unique within the batch`,
        );
      seen.add(r.custom_id);
    }
    const refused = this.createFault(body.data.requests);
    if (refused) return error(res, refused.status, errorTypeOf(refused.status), refused.message, refused.headers);
    const batch: Batch = {
      id: `msgbatch_fake_${randomBytes(12).toString('hex')}`,
      created_at: new Date().toISOString(),
      ended_at: null,
      cancel_initiated_at: null,
      status: 'in_progress',
      bytes: Buffer.byteLength(text),
      requests: body.data.requests.map((r) => ({ custom_id: r.custom_id, params: r.params })),
      results: new Map(),
      faults: new Map(),
      credentials: credentialHeaders(req),
      canceled: false,
      started: false,
    };
    this.batches.set(batch.id, batch);
    send(res, 200, this.view(batch, req));
    // Unref'd: a batch still waiting does not keep a finished test's process alive (the server itself does).
    setTimeout(() => void this.process(batch), this.host.delayMs()).unref();
  }

  /** The planted refusal of a create call: the first request that hits a `create_status` fault (one hit a call). */
  private createFault(requests: { params: unknown }[]) {
    for (const r of requests) {
      const fault = this.host.takeFault(r.params, 'create');
      if (fault?.kind !== 'create_status') continue;
      const headers: OutgoingHttpHeaders =
        fault.retry_after === undefined ? {} : { 'retry-after': String(fault.retry_after) };
      return { status: fault.status, message: `fake-anthropic: planted ${fault.status} fault`, headers };
    }
    return null;
  }

  private async process(batch: Batch): Promise<void> {
    if (batch.started) return;
    batch.started = true;
    const queue = [...batch.requests];
    const worker = async () => {
      for (let r = queue.shift(); r; r = queue.shift()) {
        if (batch.canceled) {
          batch.results.set(r.custom_id, { type: 'canceled' });
          continue;
        }
        const fault = this.host.takeFault(r.params, 'result');
        if (fault) batch.faults.set(r.custom_id, fault);
        batch.results.set(r.custom_id, unrun(fault) ?? (await this.run(batch, r.params).catch(internalError)));
      }
    };
    await Promise.all(Array.from({ length: RUN_AT_ONCE }, worker));
    batch.status = 'ended';
    batch.ended_at = new Date().toISOString();
    if (hit(batch, 'vanish')) this.batches.delete(batch.id);
  }

  /** One request through this server's /v1/messages: a message is `succeeded`, an API error `errored`. */
  private run(batch: Batch, params: Record<string, unknown>): Promise<Result> {
    const why = batchOnly(params);
    if (why) return Promise.resolve(errored('invalid_request_error', why));
    return new Promise((resolve, reject) => {
      const body = JSON.stringify(params);
      const call = httpRequest(
        `${this.host.url()}/v1/messages`,
        {
          method: 'POST',
          headers: { ...batch.credentials, 'content-type': 'application/json', 'x-fake-batch': batch.id },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => resolve(asResult(res.statusCode ?? 500, Buffer.concat(chunks).toString('utf8'))));
        },
      );
      // A dropped connection inside the API is an internal error of that one request.
      call.on('error', () => resolve(errored('api_error', 'Internal server error')));
      call.end(body);
    });
  }

  private page(req: IncomingMessage, res: ServerResponse, send: Send, error: SendError): void {
    const query = new URL(req.url ?? '/', 'http://fake').searchParams;
    const limit = query.has('limit') ? Number(query.get('limit')) : 20;
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
      return error(res, 400, 'invalid_request_error', 'limit: Input should be between 1 and 1000');
    const newest = [...this.batches.values()].reverse();
    const after = query.get('after_id');
    const before = query.get('before_id');
    let from = 0;
    let to = newest.length;
    if (after) from = newest.findIndex((b) => b.id === after) + 1;
    if (before)
      to = Math.max(
        0,
        newest.findIndex((b) => b.id === before),
      );
    const slice = before ? newest.slice(Math.max(from, to - limit), to) : newest.slice(from, from + limit);
    const data = slice.map((b) => this.view(b, req));
    const has_more = before ? to - limit > from : from + limit < to;
    send(res, 200, { data, has_more, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null });
  }

  private results(batch: Batch, res: ServerResponse, error: SendError): void {
    if (batch.status !== 'ended')
      return error(
        res,
        400,
        'invalid_request_error',
        `message batch ${batch.id} is still ${batch.status}; its results are available once processing has ended`,
      );
    res.writeHead(200, { 'content-type': 'application/binary' });
    // Not in request order, as the reference warns: the last request's line comes first. A request with a
    // duplicate_result fault leads, so its second line is never past the last one a reader waits for.
    const order = [...batch.requests].reverse();
    const doubled = (r: (typeof order)[number]) => batch.faults.get(r.custom_id)?.kind === 'duplicate_result';
    for (const r of [...order.filter(doubled), ...order.filter((r) => !doubled(r))]) {
      const fault = batch.faults.get(r.custom_id)?.kind;
      const result = batch.results.get(r.custom_id)!;
      const line = JSON.stringify({
        custom_id: r.custom_id,
        result: fault === 'invalid_result' ? { type: 'succeeded' } : result,
      });
      if (fault === 'cut_results') {
        res.write(line.slice(0, Math.floor(line.length / 2)));
        res.destroy();
        return;
      }
      const junk = batch.faults.get(r.custom_id);
      if (junk?.kind === 'junk_line') res.write(`${junk.text}\n`);
      // Before the request's own line: a reader stops at the last result it expects, so one after it goes unread.
      if (fault === 'stray_result')
        res.write(`${JSON.stringify({ custom_id: 'stray-not-in-this-batch', result: { type: 'expired' } })}\n`);
      res.write(`${line}\n`);
      if (fault === 'duplicate_result')
        res.write(`${JSON.stringify({ custom_id: r.custom_id, result: { type: 'expired' } })}\n`);
    }
    res.end();
  }

  private cancel(batch: Batch, req: IncomingMessage, res: ServerResponse, send: Send, error: SendError): void {
    if (batch.status === 'ended')
      return error(res, 400, 'invalid_request_error', `message batch ${batch.id} has ended; it cannot be canceled`);
    batch.canceled = true;
    batch.status = 'canceling';
    batch.cancel_initiated_at ??= new Date().toISOString();
    send(res, 200, this.view(batch, req));
    // Not started yet: every request is canceled and the batch ends now, not after the delay.
    setImmediate(() => void this.process(batch));
  }

  /** The MessageBatch object as retrieve answers it: without its counts once a request hit `no_counts`. */
  private retrieved(batch: Batch, req: IncomingMessage) {
    const { request_counts, ...rest } = this.view(batch, req);
    return hit(batch, 'no_counts') ? rest : { ...rest, request_counts };
  }

  /** The MessageBatch object. */
  private view(batch: Batch, req: IncomingMessage) {
    const ended = batch.status === 'ended';
    const count = (type: Result['type']) =>
      ended ? [...batch.results.values()].filter((r) => r.type === type).length : 0;
    return {
      id: batch.id,
      type: 'message_batch',
      processing_status: batch.status,
      request_counts: {
        processing: ended ? 0 : batch.requests.length,
        succeeded: count('succeeded'),
        errored: count('errored'),
        canceled: count('canceled'),
        expired: count('expired'),
      },
      created_at: batch.created_at,
      expires_at: new Date(Date.parse(batch.created_at) + EXPIRES_MS).toISOString(),
      ended_at: batch.ended_at,
      archived_at: null,
      cancel_initiated_at: batch.cancel_initiated_at,
      results_url: ended ? `http://${req.headers.host ?? '127.0.0.1'}/v1/messages/batches/${batch.id}/results` : null,
    };
  }
}

export type Send = (res: ServerResponse, status: number, payload: unknown) => void;
export type SendError = (
  res: ServerResponse,
  status: number,
  type: string,
  message: string,
  headers?: OutgoingHttpHeaders,
) => void;

/** What a Messages request may hold but a batch request may not (the guide's list, as far as the engine could send it). */
function batchOnly(params: Record<string, unknown>): string | null {
  if (params.stream === true) return 'stream: streaming is not supported inside a message batch';
  if (params.max_tokens === 0) return 'max_tokens: must be at least 1 inside a message batch';
  return null;
}

function asResult(status: number, text: string): Result {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return errored('api_error', 'Internal server error');
  }
  if (status === 200) return { type: 'succeeded', message: body };
  const e = (body as { error?: { type?: string; message?: string } }).error;
  return errored(e?.type ?? 'api_error', e?.message ?? `HTTP ${status}`);
}

/** Whether a request of the batch hit a fault of this kind. */
function hit(batch: Batch, kind: Fault['kind']): boolean {
  return [...batch.faults.values()].some((f) => f.kind === kind);
}

/** The result of a request a fault keeps from running; null when it runs. */
function unrun(fault: Fault | null): Result | null {
  if (fault?.kind === 'expire') return { type: 'expired' };
  if (fault?.kind === 'flat_error')
    return {
      type: 'errored',
      error: { type: errorTypeOf(fault.status), message: `fake-anthropic: planted ${fault.status} fault` },
    };
  return null;
}

function errored(type: string, message: string): Result {
  return {
    type: 'errored',
    error: { type: 'error', error: { type, message }, request_id: `req_fake_${randomBytes(12).toString('hex')}` },
  };
}

function internalError(): Result {
  return errored('api_error', 'Internal server error');
}

function credentialHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof req.headers['x-api-key'] === 'string') out['x-api-key'] = req.headers['x-api-key'];
  if (req.headers.authorization) out.authorization = req.headers.authorization;
  return out;
}

/** The body as text, or null when it passes `max` bytes (read to its end and dropped, so that the 413 reaches a client still sending). */
async function readCapped(req: IncomingMessage, max: number): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= max) chunks.push(chunk as Buffer);
  }
  return size > max ? null : Buffer.concat(chunks).toString('utf8');
}
