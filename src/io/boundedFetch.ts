/**
 * fetch with every answer bounded: one deadline per call that covers the headers and the whole body, an idle
 * limit between the body's chunks, and a cap on its bytes. A server that sends 200 and then stalls, drips a
 * byte at a time, streams keep-alives forever or never stops sending is given up on, and memory stays bounded.
 * The model client (through its SDK's `fetch` option) and GitHub's client both call through it.
 */

/** The bounds of one call; `maxBytes` may be set per call in its init (see BoundedInit). */
export interface ResponseBounds {
  /** From the call to the body's last byte. */
  deadlineMs: number;
  /** The longest wait for the next chunk of the body. */
  idleMs: number;
  /** The most body bytes taken. */
  maxBytes: number;
}

/** A call's own byte cap, where it differs from the client's (a stream read line by line caps its lines instead). */
export interface BoundedInit {
  maxBytes?: number;
}

/** The largest Messages API reply taken (a reply of 128k output tokens is well under 2 MB), and a results line. */
export const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
/** The largest GitHub answer taken (a page of 100 comments at GitHub's 65,536-character limit is under 27 MB). */
export const MAX_GITHUB_BYTES = 32 * 1024 * 1024;
/** The longest silence between two chunks of a body. */
export const IDLE_MS = 30_000;
/** One GitHub call, headers and body (GitHub answers within 10 s or times out itself). */
const GITHUB_DEADLINE_MS = 60_000;

/** An answer given up on: too slow, silent too long, or too big. Its message says which. */
export class ResponseBoundError extends Error {
  override name = 'ResponseBoundError';
  constructor(
    readonly bound: 'deadline' | 'idle' | 'size',
    message: string,
  ) {
    super(message);
  }
}

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** A fetch with `bounds` on every answer; `base` is the fetch it calls (the global one by default). */
export function boundedFetch(
  bounds: ResponseBounds,
  base: Fetch = (input, init) => globalThis.fetch(input, init),
): Fetch {
  return async (input, init = {}) => {
    const { maxBytes = bounds.maxBytes, ...rest } = init as RequestInit & BoundedInit;
    const call = new Call(bounds, init.signal ?? undefined);
    let response: Response;
    try {
      response = await base(input, { ...rest, signal: call.signal });
    } catch (err) {
      call.end();
      throw call.failure ?? err;
    }
    const length = Number(response.headers.get('content-length') ?? NaN);
    if (length > maxBytes) {
      call.end();
      await response.body?.cancel().catch(() => undefined);
      throw call.tooBig(maxBytes);
    }
    if (!response.body) {
      call.end();
      return response;
    }
    const bounded = new Response(call.bound(response.body, maxBytes), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    // A paginated client reads where the answer came from.
    Object.defineProperty(bounded, 'url', { value: response.url });
    return bounded;
  };
}

/** One call's timers: the deadline runs from the call, the idle timer while a chunk is awaited. */
class Call {
  private readonly controller = new AbortController();
  private readonly deadline: NodeJS.Timeout;
  private idle: NodeJS.Timeout | undefined;
  failure: ResponseBoundError | undefined;
  private readonly unlink: () => void;

  constructor(
    private readonly bounds: ResponseBounds,
    outer: AbortSignal | undefined,
  ) {
    this.deadline = setTimeout(
      () =>
        this.fail(
          new ResponseBoundError('deadline', `timed out: no whole answer within ${seconds(bounds.deadlineMs)}`),
        ),
      bounds.deadlineMs,
    );
    // A bound never keeps the process alive on its own: an answer whose body nobody reads must not hold the exit.
    this.deadline.unref();
    const abort = () => this.controller.abort(outer?.reason);
    outer?.addEventListener('abort', abort, { once: true });
    if (outer?.aborted) abort();
    this.unlink = () => outer?.removeEventListener('abort', abort);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  tooBig(maxBytes: number): ResponseBoundError {
    return this.fail(new ResponseBoundError('size', `the answer is larger than ${Math.round(maxBytes / 1048576)} MB`));
  }

  private fail(err: ResponseBoundError): ResponseBoundError {
    this.failure ??= err;
    this.end();
    this.controller.abort(this.failure);
    return this.failure;
  }

  end(): void {
    clearTimeout(this.deadline);
    clearTimeout(this.idle);
    this.unlink();
  }

  /** The body as it arrives, within the bounds; a bound reached errors the stream and closes the connection. */
  bound(body: ReadableStream<Uint8Array>, maxBytes: number): ReadableStream<Uint8Array> {
    const reader = body.getReader();
    let bytes = 0;
    return new ReadableStream<Uint8Array>({
      pull: async (out) => {
        this.idle = setTimeout(
          () =>
            this.fail(
              new ResponseBoundError('idle', `timed out: the answer stalled for ${seconds(this.bounds.idleMs)}`),
            ),
          this.bounds.idleMs,
        );
        this.idle.unref();
        try {
          const { done, value } = await reader.read();
          clearTimeout(this.idle);
          if (done) {
            this.end();
            return out.close();
          }
          bytes += value.byteLength;
          if (bytes > maxBytes) throw this.tooBig(maxBytes);
          out.enqueue(value);
        } catch (err) {
          this.end();
          void reader.cancel().catch(() => undefined);
          out.error(this.failure ?? err);
        }
      },
      cancel: (reason) => {
        this.end();
        return reader.cancel(reason);
      },
    });
  }
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/** GitHub's REST API calls (io/github.ts): bounded like every other answer. */
export const githubFetch = boundedFetch({
  deadlineMs: GITHUB_DEADLINE_MS,
  idleMs: IDLE_MS,
  maxBytes: MAX_GITHUB_BYTES,
});
