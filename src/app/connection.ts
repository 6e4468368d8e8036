/**
 * Typed requests and notifications over a message port, the way vscode-jsonrpc does it: each pair is
 * declared once as a RequestType (its method, the schema of what it carries and of its answer), and this
 * class alone numbers the requests and matches each answer to its question. Everything received is
 * checked against its declaration first; what does not fit goes to `onProtocolError` and is never acted on.
 * zod/mini only: the extension host bundles it.
 */
import * as z from 'zod/mini';

export interface RequestType<P extends z.ZodMiniType, R extends z.ZodMiniType> {
  readonly method: string;
  readonly params: P;
  readonly result: R;
}

export interface NotificationType<P extends z.ZodMiniType> {
  readonly method: string;
  readonly params: P;
}

export const requestType = <P extends z.ZodMiniType, R extends z.ZodMiniType>(
  method: string,
  params: P,
  result: R,
): RequestType<P, R> => ({ method, params, result });

export const notificationType = <P extends z.ZodMiniType>(method: string, params: P): NotificationType<P> => ({
  method,
  params,
});

/**
 * Why a question got no answer: the other side has no such request, or the params did not fit it, or its
 * handler threw; or the answer that came did not fit the request's declaration.
 */
export const REMOTE_ERROR_CODES = ['unknownRequest', 'invalidParams', 'handlerFailed', 'malformedAnswer'] as const;
export type RemoteErrorCode = (typeof REMOTE_ERROR_CODES)[number];

/** A request that failed on the other side (or whose answer did not fit): `code` says which way. */
export class RemoteError extends Error {
  constructor(
    readonly code: RemoteErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const WireError = z.object({ code: z.enum(REMOTE_ERROR_CODES), message: z.string() });
type WireError = z.infer<typeof WireError>;

/** What travels on the port. */
const Envelope = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('request'), id: z.int(), method: z.string(), params: z.unknown() }),
  z.object({
    kind: z.literal('response'),
    id: z.int(),
    result: z.optional(z.unknown()),
    error: z.optional(WireError),
  }),
  z.object({ kind: z.literal('notification'), method: z.string(), params: z.unknown() }),
]);
type Envelope = z.infer<typeof Envelope>;

type Settle = (answer: { ok: true; value: unknown } | { ok: false; error: Error }) => void;

export class Connection {
  private nextId = 1;
  private readonly open = new Map<number, { result: z.ZodMiniType; settle: Settle }>();
  private readonly requests = new Map<string, { params: z.ZodMiniType; handle: (params: unknown) => unknown }>();
  private readonly notifications = new Map<string, { params: z.ZodMiniType; handle: (params: unknown) => void }>();

  constructor(
    private readonly post: (message: Envelope) => void,
    private readonly onProtocolError: (message: string) => void,
  ) {}

  /** Asks the other side; the answer is checked against the request's result schema. `signal` gives up waiting. */
  sendRequest<P extends z.ZodMiniType, R extends z.ZodMiniType>(
    type: RequestType<P, R>,
    params: z.input<P>,
    signal?: AbortSignal,
  ): Promise<z.output<R>> {
    const id = this.nextId++;
    return new Promise<z.output<R>>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason as Error);
      const giveUp = () => this.settle(id, { ok: false, error: signal!.reason as Error });
      signal?.addEventListener('abort', giveUp, { once: true });
      this.open.set(id, {
        result: type.result,
        settle: (answer) => {
          signal?.removeEventListener('abort', giveUp);
          if (answer.ok) resolve(answer.value as z.output<R>);
          else reject(answer.error);
        },
      });
      this.post({ kind: 'request', id, method: type.method, params });
    });
  }

  sendNotification<P extends z.ZodMiniType>(type: NotificationType<P>, params: z.input<P>): void {
    this.post({ kind: 'notification', method: type.method, params });
  }

  onRequest<P extends z.ZodMiniType, R extends z.ZodMiniType>(
    type: RequestType<P, R>,
    handle: (params: z.output<P>) => z.input<R> | Promise<z.input<R>>,
  ): void {
    this.requests.set(type.method, { params: type.params, handle: handle as (params: unknown) => unknown });
  }

  onNotification<P extends z.ZodMiniType>(type: NotificationType<P>, handle: (params: z.output<P>) => void): void {
    this.notifications.set(type.method, { params: type.params, handle: handle as (params: unknown) => void });
  }

  /** Every question still open fails with `error`: the other side is gone. */
  dispose(error: Error): void {
    for (const id of [...this.open.keys()]) this.settle(id, { ok: false, error });
  }

  /** One message from the port. */
  receive(raw: unknown): void {
    const parsed = Envelope.safeParse(raw);
    if (!parsed.success) return this.onProtocolError(firstIssue(parsed.error));
    const m = parsed.data;
    if (m.kind === 'response') return this.answer(m.id, m.result, m.error);
    if (m.kind === 'notification') {
      const handler = this.notifications.get(m.method);
      if (!handler) return this.onProtocolError(`no handler for the notification ${m.method}`);
      const params = handler.params.safeParse(m.params);
      if (!params.success) return this.onProtocolError(`${m.method}: ${firstIssue(params.error)}`);
      return handler.handle(params.data);
    }
    void this.serve(m.id, m.method, m.params);
  }

  private async serve(id: number, method: string, raw: unknown): Promise<void> {
    const handler = this.requests.get(method);
    const params = handler?.params.safeParse(raw);
    const fail = (code: RemoteErrorCode, message: string) =>
      this.post({ kind: 'response', id, error: { code, message } });
    if (!handler || !params) return fail('unknownRequest', `unknown request ${method}`);
    if (!params.success) return fail('invalidParams', `${method}: ${firstIssue(params.error)}`);
    try {
      this.post({ kind: 'response', id, result: await handler.handle(params.data) });
    } catch (err) {
      fail('handlerFailed', err instanceof Error ? err.message : String(err));
    }
  }

  /** An answer to a question no longer open (given up, or never asked) is dropped. */
  private answer(id: number, result: unknown, error: WireError | undefined): void {
    const open = this.open.get(id);
    if (!open) return;
    if (error !== undefined) return this.settle(id, { ok: false, error: new RemoteError(error.code, error.message) });
    const checked = open.result.safeParse(result);
    if (checked.success) return this.settle(id, { ok: true, value: checked.data });
    const malformed = `malformed answer: ${firstIssue(checked.error)}`;
    this.settle(id, { ok: false, error: new RemoteError('malformedAnswer', malformed) });
    this.onProtocolError(malformed);
  }

  private settle(id: number, answer: Parameters<Settle>[0]): void {
    const open = this.open.get(id);
    this.open.delete(id);
    open?.settle(answer);
  }
}

function firstIssue(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || 'message'}: ${issue.message}` : 'invalid';
}
