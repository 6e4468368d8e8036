/**
 * A fake Anthropic Messages API on 127.0.0.1 for tests, benchmarks and trying the CLI without a key.
 * It speaks real HTTP so the real SDK (retries, error classes, headers) is exercised end to end.
 */
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { CacheError, PromptCache, tokenCounter, type Accounted, type CacheUsage } from './cache';
import { FakeBatches, MAX_BATCH_BYTES } from './batches';
import { FaultBook } from './faults';
import { cutAtMaxTokens, outputTokens } from './maxTokens';
import { reply } from './reply';
import { contractError } from './contract';
import { isObject, MessagesBody, parseRequest } from './request';
import { parseScenario, type Fault, type Scenario } from './scenario';
import {
  admit,
  metadata,
  platformError,
  platformLimits,
  platformOf,
  type PlatformName,
  type PlatformOptions,
  type PlatformRequest,
} from './platforms';

export interface LoggedRequest {
  seq: number;
  started_at: number;
  /** When the response began (its cache writes became readable); null until then, and for errors. */
  began_at: number | null;
  /** null while in flight. */
  ended_at: number | null;
  /** Which API the request came to (see platforms.ts), its path, and the scheme of its credential. */
  platform: PlatformName;
  path: string;
  auth: 'Bearer' | 'AWS4-HMAC-SHA256' | 'x-api-key' | null;
  record: string | null;
  file: string | null;
  functions: string[];
  reviewer: string | null;
  turn: number;
  /** null when no answer was sent: a `drop` fault, or the client went away first. */
  status: number | null;
  fault: Fault['kind'] | null;
  /** The parsed request JSON; null when the body was not JSON. */
  body: unknown;
  /** The Message Batch the request ran in; null for a live call. */
  batch: string | null;
  /** The usage answered (with the cache accounting); null when no message was sent. */
  usage: (CacheUsage & { output_tokens: number }) | null;
}

export interface FakeAnthropicOptions extends PlatformOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  scenario?: Scenario;
  /** Delay before every answer to /v1/messages begins (time to the first token). */
  latencyMs?: number;
  /** Then, for a message, this much per output token before it is sent whole (default 0). */
  msPerOutputToken?: number;
  /** Prefixes shorter than this are never cached (the API's minimum cacheable prompt). */
  minCacheTokens?: number;
  /**
   * The model's context window in tokens (default 1M, the current models' window): a prompt that leaves less
   * than `max_tokens` of it is refused as the API refuses it, `400 invalid_request_error "prompt is too long:
   * N tokens > M maximum"`, where M is the window less `max_tokens`.
   */
  contextWindow?: number;
  /**
   * Whether the Models API (`GET /v1/models/{id}`) states that window as the model's `max_input_tokens`
   * (default true); false answers null there, as a gateway that does not know it might.
   */
  statesWindow?: boolean;
  /**
   * Count a prompt's tokens as its UTF-8 bytes divided by this (a tokenizer denser than the default four
   * characters a token), for the window, the usage and `count_tokens` alike.
   */
  bytesPerToken?: number;
  /** How long a Message Batch waits before its requests start running (default 0). */
  batchDelayMs?: number;
  /** The largest create body a Message Batch takes, in bytes; a larger one gets 413 (default the API's 256 MB). */
  batchMaxBytes?: number;
  /** Awaited before each answer to /v1/messages is sent (after the latency): a test decides when it goes. */
  hold?: (entry: LoggedRequest) => Promise<void>;
  /** Called when a logged request ends, e.g. to write the log out as it grows. */
  onLogged?: (entry: LoggedRequest) => void;
  /** Keep only the newest this many requests in `requests` (default: all), so a long bench does not fill memory. */
  logLimit?: number;
}

export interface FakeAnthropic {
  /** The SDK's `baseURL`. */
  readonly url: string;
  /** Every /v1/messages request, in arrival order; cleared in place by reset(). */
  readonly requests: LoggedRequest[];
  /** `POST /v1/messages/count_tokens` requests answered since the last reset. */
  counted(): number;
  /** The model ids `GET /v1/models/{id}` was asked about since the last reset, in order. */
  modelsAsked(): string[];
  /** Every Message Batch created since the last reset, oldest first. */
  batches(): { id: string; status: string; requests: number; bytes: number; custom_ids: string[] }[];
  /** From now on, each new Message Batch waits this long before its requests run (reset() does not change it). */
  setBatchDelay(ms: number): void;
  /** From now on, a batch's create body over this many bytes gets 413 (reset() does not change it). */
  setBatchMaxBytes(bytes: number): void;
  /**
   * Resolves with what `find` returns once it returns something truthy: checked now and again each time a
   * request arrives (its record, file and turn read; before any latency or fault delay) or ends. Rejects
   * with `what` when that has not happened within `ms`, so a test waits on the log, never on a clock.
   */
  until<T>(find: () => T | undefined | null | false, what: string, ms?: number): Promise<T>;
  /** Validates and installs a scenario (fault counters start over); throws ScenarioError. */
  setScenario(scenario: Scenario): void;
  /** Clears the log, the prompt cache, the batches and the fault counters. */
  reset(): void;
  close(): Promise<void>;
}

export async function startFakeAnthropic(opts: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  let scenario = parseScenario(opts.scenario ?? {});
  let faults = new FaultBook(scenario.faults);
  const countText = tokenCounter(opts.bytesPerToken);
  const cache = new PromptCache(opts.minCacheTokens ?? 1024, countText);
  let counts = 0;
  const requests: LoggedRequest[] = [];
  /** Access tokens the metadata server handed out: the only ones Vertex AI's route accepts. */
  const tokens = new Set<string>();
  let seq = 0;
  /** 'change' each time a logged request arrives or ends. */
  const log = new EventEmitter();

  const asked: string[] = [];
  const reset = () => {
    requests.length = 0;
    seq = 0;
    counts = 0;
    asked.length = 0;
    cache.clear();
    faults.reset();
    batches.clear();
  };
  let batchDelayMs = opts.batchDelayMs ?? 0;
  let batchMaxBytes = opts.batchMaxBytes ?? MAX_BATCH_BYTES;
  const batches = new FakeBatches({
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    takeFault: (params, place) => {
      const body = MessagesBody.safeParse(params);
      return body.success ? faults.take(parseRequest(body.data), place) : null;
    },
    delayMs: () => batchDelayMs,
    maxBytes: () => batchMaxBytes,
  });

  async function messages(req: IncomingMessage, res: ServerResponse, at: PlatformRequest): Promise<void> {
    const entry: LoggedRequest = {
      seq: ++seq,
      started_at: Date.now(),
      began_at: null,
      ended_at: null,
      platform: at.platform,
      path: new URL(req.url ?? '/', 'http://fake').pathname,
      auth: authScheme(req),
      record: null,
      file: null,
      functions: [],
      reviewer: null,
      turn: 0,
      status: null,
      fault: null,
      body: null,
      batch: typeof req.headers['x-fake-batch'] === 'string' ? req.headers['x-fake-batch'] : null,
      usage: null,
    };
    requests.push(entry);
    if (opts.logLimit !== undefined && requests.length > opts.logLimit)
      requests.splice(0, requests.length - opts.logLimit);
    const end = (status: number | null) => {
      if (entry.ended_at !== null) return;
      entry.ended_at = Date.now();
      entry.status = status;
      opts.onLogged?.(entry);
      log.emit('change');
    };
    const gone = new AbortController();
    res.on('close', () => {
      if (res.writableFinished) return;
      gone.abort();
      end(null);
    });
    const fail = (status: number, type: string, message: string, headers: OutgoingHttpHeaders = {}) => {
      const e = platformError(at.platform, status, type, message);
      return send(res, e.status, e.payload, { ...e.headers, ...headers });
    };
    const limits = platformLimits(at.platform);

    const raw = await readBody(req);
    entry.body = parseJson(raw);
    // A compatible server such as Ollama accepts any key, or none.
    if (at.platform === 'anthropic' && !hasCredential(req))
      return end(fail(401, 'authentication_error', 'an x-api-key or Authorization: Bearer header is required'));
    const admitted = admit(req, raw, entry.body, at, opts, tokens);
    if ('status' in admitted) return end(send(res, admitted.status, admitted.payload, admitted.headers));
    if (admitted.body === null) return end(fail(400, 'invalid_request_error', 'request body is not valid JSON'));
    if (at.stream || (isObject(admitted.body) && admitted.body.stream === true)) {
      return end(
        fail(
          400,
          'invalid_request_error',
          'streaming is not supported by the fake Anthropic server; send stream: false',
        ),
      );
    }
    // The platforms' APIs hold the body to the documented one; a compatible server (Ollama) ignores what it does not know.
    const broken = at.platform === 'limited' ? null : contractError(admitted.body);
    if (broken) return end(fail(400, 'invalid_request_error', broken));
    const body = MessagesBody.safeParse(admitted.body);
    if (!body.success) {
      const why = body.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      return end(fail(400, 'invalid_request_error', why));
    }
    if (!limits.outputFormats && body.data.output_config?.format)
      return end(
        fail(
          400,
          'invalid_request_error',
          'output_config.format: structured output formats are not supported by this server',
        ),
      );

    let accounted: Accounted;
    try {
      accounted = limits.cache
        ? cache.account(body.data)
        : { usage: uncachedUsage(body.data, countText), writes: [], writtenHour: 0 };
    } catch (err) {
      if (err instanceof CacheError) return end(fail(400, 'invalid_request_error', err.message));
      throw err;
    }
    const parsed = parseRequest(body.data, { honoursToolChoice: limits.toolChoice });
    Object.assign(entry, {
      record: parsed.record,
      file: parsed.file,
      functions: parsed.functions,
      reviewer: parsed.reviewer,
      turn: parsed.turn,
    });
    const prompt = promptTokens(accounted.usage);
    const maximum = (opts.contextWindow ?? DEFAULT_CONTEXT_WINDOW) - body.data.max_tokens;
    if (prompt > maximum) {
      return end(fail(400, 'invalid_request_error', `prompt is too long: ${prompt} tokens > ${maximum} maximum`));
    }
    const fault = faults.take(parsed);
    entry.fault = fault?.kind ?? null;
    log.emit('change');
    const answer = reply(parsed, scenario, fault, credentialsOf(req));
    const outcome = answer.kind === 'message' ? cutAtMaxTokens(answer, body.data.max_tokens) : answer;
    const delay = (opts.latencyMs ?? 0) + (fault?.kind === 'slow' ? fault.ms : 0);
    if (delay > 0 && !(await wait(delay, gone.signal))) return;
    if (opts.hold) await opts.hold(entry);
    if (gone.signal.aborted) return;

    if (outcome.kind === 'drop') {
      end(null);
      req.socket.destroy();
    } else if (outcome.kind === 'html') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(GATEWAY_PAGE);
      end(200);
    } else if (outcome.kind === 'error') {
      const headers = outcome.retryAfter === undefined ? {} : { 'retry-after': String(outcome.retryAfter) };
      end(fail(outcome.status, outcome.type, outcome.message, headers));
    } else {
      const { usage, writes } = accounted;
      // Generation stopped at max_tokens: every one of them was spent.
      const output = outcome.stopReason === 'max_tokens' ? body.data.max_tokens : outputTokens(outcome.content);
      entry.usage = { ...usage, output_tokens: output };
      // The response has begun: what it wrote is readable from now on, while the rest of it is generated.
      cache.commit(writes);
      entry.began_at = Date.now();
      const generating = entry.usage.output_tokens * (opts.msPerOutputToken ?? 0);
      if (generating > 0 && !(await wait(generating, gone.signal))) return;
      const message = {
        id: `msg_fake_${randomBytes(12).toString('hex')}`,
        type: 'message',
        role: 'assistant',
        model: body.data.model,
        content: outcome.content,
        stop_reason: outcome.stopReason,
        stop_sequence: null,
        // A server without a prompt cache reports input and output tokens only (Ollama's usage).
        usage: limits.cache
          ? {
              ...entry.usage,
              cache_creation: {
                ephemeral_5m_input_tokens: usage.cache_creation_input_tokens - accounted.writtenHour,
                ephemeral_1h_input_tokens: accounted.writtenHour,
              },
              service_tier: 'standard',
            }
          : { input_tokens: usage.input_tokens, output_tokens: entry.usage.output_tokens },
      };
      end(send(res, 200, message));
    }
  }

  /**
   * The Token Counting API: the body a message would take, less `max_tokens` (refused as an extra input), answered
   * with the prompt's input tokens as the window counts them.
   */
  async function countTokens(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (refusedWithoutKey(req, res)) return;
    const raw = parseJson(await readBody(req));
    if (!isObject(raw)) return void apiError(res, 400, 'invalid_request_error', 'request body is not valid JSON');
    if ('max_tokens' in raw)
      return void apiError(res, 400, 'invalid_request_error', 'max_tokens: Extra inputs are not permitted');
    const body = MessagesBody.safeParse({ ...raw, max_tokens: 1 });
    if (!body.success) {
      const why = body.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      return void apiError(res, 400, 'invalid_request_error', why);
    }
    counts++;
    const { usage } = cache.account(body.data);
    send(res, 200, { input_tokens: promptTokens(usage) });
  }

  /** The Models API's answer for one model: its window as `max_input_tokens` (null when the fake does not state it). */
  function modelInfo(req: IncomingMessage, res: ServerResponse, id: string): void {
    asked.push(id);
    if (refusedWithoutKey(req, res)) return;
    send(res, 200, {
      type: 'model',
      id,
      display_name: id,
      created_at: '2026-01-01T00:00:00Z',
      max_input_tokens: opts.statesWindow === false ? null : (opts.contextWindow ?? DEFAULT_CONTEXT_WINDOW),
      max_tokens: 128_000,
    });
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const at = req.method === 'POST' ? platformOf(path) : null;
    if (at) return messages(req, res, at);
    if (path.startsWith('/v1/messages/batches')) {
      if (refusedWithoutKey(req, res)) return;
      if (await batches.route(req, res, path, send, apiError)) return;
    }
    if (req.method === 'POST' && path === '/v1/messages/count_tokens') return countTokens(req, res);
    const model = req.method === 'GET' ? MODEL_PATH.exec(path) : null;
    if (model) return modelInfo(req, res, decodeURIComponent(model[1]!));
    const meta = req.method === 'GET' ? metadata(req, path, opts, tokens) : null;
    if (meta) {
      res.writeHead(meta.status, { 'content-type': meta.type, 'metadata-flavor': 'Google' });
      return void res.end(meta.body);
    }
    if (req.method === 'GET' && path === '/_requests') return void send(res, 200, requests);
    if (req.method === 'POST' && path === '/_reset') {
      reset();
      return void send(res, 200, { ok: true });
    }
    apiError(res, 404, 'not_found_error', `${req.method ?? ''} ${path} is not served by the fake Anthropic server`);
  }

  const server = createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      if (res.headersSent) res.destroy();
      else apiError(res, 500, 'api_error', err instanceof Error ? err.message : String(err));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    counted: () => counts,
    modelsAsked: () => [...asked],
    batches: () => batches.list(),
    setBatchDelay(ms) {
      batchDelayMs = ms;
    },
    setBatchMaxBytes(bytes) {
      batchMaxBytes = bytes;
    },
    until: (find, what, ms = UNTIL_MS) =>
      new Promise((resolve, reject) => {
        const check = () => {
          let found;
          try {
            found = find();
          } catch (err) {
            stop();
            return reject(err as Error);
          }
          if (!found) return;
          stop();
          resolve(found);
        };
        const timer = setTimeout(() => {
          stop();
          reject(new Error(`the fake Anthropic server waited ${ms} ms for ${what}; log: ${describeLog(requests)}`));
        }, ms);
        const stop = () => {
          clearTimeout(timer);
          log.off('change', check);
        };
        log.on('change', check);
        check();
      }),
    setScenario(next) {
      scenario = parseScenario(next);
      faults = new FaultBook(scenario.faults);
    },
    reset,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // In-flight (delayed) requests and idle keep-alive sockets would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const DEFAULT_CONTEXT_WINDOW = 1_000_000;
/** The Models API's path for one model. */
const MODEL_PATH = /^\/v1\/models\/([^/]+)$/;
/** How long `until` waits by default: well inside a test's timeout, so the test fails with what it waited for. */
const UNTIL_MS = 20_000;

/** The log in one line, for a failed wait: seq, record, file and how each ended. */
function describeLog(requests: LoggedRequest[]): string {
  if (requests.length === 0) return 'empty';
  return requests
    .map(
      (r) =>
        `#${r.seq} ${r.record ?? r.path}${r.file ? ` ${r.file}` : ''} ${r.ended_at === null ? 'in flight' : (r.status ?? 'no answer')}`,
    )
    .join(', ');
}

/** Every input token counts against the window, cached or not. */
function promptTokens(u: CacheUsage): number {
  return u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
}

/** What a misconfigured proxy answers instead of the API's JSON. */
const GATEWAY_PAGE =
  '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>\n';

/** The credential headers as sent, for the fault that echoes them. */
function credentialsOf(req: IncomingMessage): string {
  return [
    req.headers.authorization && `Authorization: ${req.headers.authorization}`,
    typeof req.headers['x-api-key'] === 'string' && `x-api-key: ${req.headers['x-api-key']}`,
    typeof req.headers['x-amz-security-token'] === 'string' &&
      `X-Amz-Security-Token: ${req.headers['x-amz-security-token']}`,
  ]
    .filter(Boolean)
    .join(', ');
}

/** Answers 401 to a request without a credential (true), as the API does before anything else. */
function refusedWithoutKey(req: IncomingMessage, res: ServerResponse): boolean {
  if (hasCredential(req)) return false;
  apiError(res, 401, 'authentication_error', 'an x-api-key or Authorization: Bearer header is required');
  return true;
}

/** SDK 1.x sends `apiKey` as `Authorization: Bearer`; older clients and curl users send `x-api-key`. */
function hasCredential(req: IncomingMessage): boolean {
  const key = req.headers['x-api-key'];
  const bearer = /^Bearer\s+\S/i.test(req.headers.authorization ?? '');
  return (typeof key === 'string' && key.trim() !== '') || bearer;
}

function authScheme(req: IncomingMessage): LoggedRequest['auth'] {
  const scheme = /^(Bearer|AWS4-HMAC-SHA256)\s/i.exec(req.headers.authorization ?? '')?.[1];
  if (scheme) return scheme.toLowerCase() === 'bearer' ? 'Bearer' : 'AWS4-HMAC-SHA256';
  return typeof req.headers['x-api-key'] === 'string' ? 'x-api-key' : null;
}

/** What a server without a prompt cache counts: the whole prompt as input. */
function uncachedUsage(body: MessagesBody, count: (text: string) => number): CacheUsage {
  const { model: _model, max_tokens: _max, ...prompt } = body;
  return {
    input_tokens: count(JSON.stringify(prompt)),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** false when the client went away first. */
async function wait(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

function send(res: ServerResponse, status: number, payload: unknown, headers: OutgoingHttpHeaders = {}): number {
  res.writeHead(status, {
    'content-type': 'application/json',
    'request-id': `req_fake_${randomBytes(12).toString('hex')}`,
    ...headers,
  });
  res.end(JSON.stringify(payload));
  return status;
}

/** The API's error shape, which the SDK turns into its typed APIError subclasses; the body repeats the request id. */
function apiError(
  res: ServerResponse,
  status: number,
  type: string,
  message: string,
  headers?: OutgoingHttpHeaders,
): number {
  const id = `req_fake_${randomBytes(12).toString('hex')}`;
  return send(
    res,
    status,
    { type: 'error', error: { type, message }, request_id: id },
    { ...headers, 'request-id': id },
  );
}
