/**
 * The platforms the fake serves besides the Messages API itself, each as its documentation describes it:
 * - Amazon Bedrock's InvokeModel, `POST /model/{modelId}/invoke`: the model in the path, none in the body (an
 *   extraneous key is a ValidationException), `"anthropic_version": "bedrock-2023-05-31"` required in the body,
 *   SigV4 (`AWS4-HMAC-SHA256 Credential=…/date/region/bedrock/aws4_request, SignedHeaders=…, Signature=…` with
 *   X-Amz-Date, the signature checked against the known secret) or a Bedrock API key as a bearer token; errors as
 *   `{"message"}` with `x-amzn-ErrorType`.
 * - Vertex AI's `POST /v1/projects/{p}/locations/{l}/publishers/anthropic/models/{m}:rawPredict`: the model in the
 *   path, `"anthropic_version": "vertex-2023-10-16"` in the body, an OAuth access token the metadata server issued;
 *   errors as `{"error": {code, message, status}}`. The metadata server (`/computeMetadata/v1/…`, header
 *   `Metadata-Flavor: Google`) hands out the tokens and the project id, as on a Google Cloud machine.
 * - A limited Anthropic-compatible server, `POST /limited/v1/messages`, as Ollama documents its compatibility:
 *   no `tool_choice` (ignored), no output formats (refused with a 400), no prompt cache (`cache_control` ignored,
 *   usage without cache fields).
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isObject } from './request';

export type PlatformName = 'anthropic' | 'bedrock' | 'vertex' | 'limited';

export interface PlatformOptions {
  /** Bedrock: the one key pair whose SigV4 signatures are accepted, and the Bedrock API keys accepted as bearer. */
  aws?: { accessKeyId: string; secretAccessKey: string; region: string; apiKeys?: string[] };
  /** Vertex AI: the project the metadata server names and the rawPredict route serves. */
  gcpProject?: string;
}

/** An error as the platform writes it. */
export interface PlatformError {
  status: number;
  payload: unknown;
  headers: Record<string, string>;
}

export interface PlatformRequest {
  platform: PlatformName;
  /** The model the path names (Bedrock, Vertex AI); null where the body names it. */
  pathModel: string | null;
  /** Vertex AI's streamRawPredict: the fake, like its Messages API, does not stream. */
  stream: boolean;
}

const BEDROCK_PATH = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream)$/;
const VERTEX_PATH =
  /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/anthropic\/models\/([^/:]+):(rawPredict|streamRawPredict)$/;

/** Which platform a POST is for, or null. */
export function platformOf(path: string): PlatformRequest | null {
  if (path === '/v1/messages') return { platform: 'anthropic', pathModel: null, stream: false };
  if (path === '/limited/v1/messages') return { platform: 'limited', pathModel: null, stream: false };
  const b = BEDROCK_PATH.exec(path);
  if (b) return { platform: 'bedrock', pathModel: decodeURIComponent(b[1]!), stream: b[2] !== 'invoke' };
  const v = VERTEX_PATH.exec(path);
  if (v) return { platform: 'vertex', pathModel: decodeURIComponent(v[3]!), stream: v[4] !== 'rawPredict' };
  return null;
}

/** What the platform documents for Messages API features. */
export function platformLimits(platform: PlatformName): {
  toolChoice: boolean;
  outputFormats: boolean;
  cache: boolean;
} {
  return platform === 'limited'
    ? { toolChoice: false, outputFormats: false, cache: false }
    : { toolChoice: true, outputFormats: true, cache: true };
}

const BEDROCK_TYPES: Record<number, string> = {
  400: 'ValidationException',
  403: 'AccessDeniedException',
  404: 'ResourceNotFoundException',
  408: 'ModelTimeoutException',
  424: 'ModelErrorException',
  429: 'ThrottlingException',
  500: 'InternalServerException',
  503: 'ServiceUnavailableException',
};
const GOOGLE_STATUSES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

/** The platform's own error shape for an error the fake answers (`anthropicType`: the Messages API's error type). */
export function platformError(
  platform: PlatformName,
  status: number,
  anthropicType: string,
  message: string,
): PlatformError {
  if (platform === 'bedrock') {
    const type = BEDROCK_TYPES[status] ?? (status >= 500 ? 'InternalServerException' : 'ValidationException');
    return {
      status,
      payload: { message },
      headers: {
        'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
        'x-amzn-requestid': requestId(),
      },
    };
  }
  if (platform === 'vertex')
    return {
      status,
      payload: { error: { code: status, message, status: GOOGLE_STATUSES[status] ?? 'UNKNOWN' } },
      headers: {},
    };
  return {
    status,
    payload: { type: 'error', error: { type: anthropicType, message } },
    headers: { 'request-id': requestId() },
  };
}

function requestId(): string {
  return `req_fake_${randomBytes(12).toString('hex')}`;
}

/** Bedrock's Claude ids: an inference profile or a base model id of a Claude family, or an ARN; any other is invalid. */
const BEDROCK_MODEL =
  /^((global|us|us-gov|eu|apac|jp|au|ca)\.)?anthropic\.claude-(opus|sonnet|haiku)-[\w.:-]+$|^arn:aws[\w-]*:bedrock:/;
/** Vertex AI's Claude ids: `claude-{family}-…`, dated with `@` or not; any other publisher model is not found. */
const VERTEX_MODEL = /^claude-(opus|sonnet|haiku)-[a-z0-9-]+(@\d{8})?$/;

/**
 * Checks a platform request's credentials and body as the platform would; returns the Messages API body to answer
 * (the path's model put in, the platform's own fields taken out) or the error to send.
 */
export function admit(
  req: IncomingMessage,
  raw: string,
  body: unknown,
  at: PlatformRequest,
  opts: PlatformOptions,
  tokens: Set<string>,
): { body: unknown } | PlatformError {
  const fail = (status: number, message: string) => platformError(at.platform, status, '', message);
  if (at.platform === 'bedrock') {
    const denied = bedrockAuth(req, raw, opts.aws);
    if (denied) return fail(403, denied);
    if (!isObject(body)) return fail(400, 'Malformed input request, please reformat your input and try again.');
    if ('model' in body)
      return fail(
        400,
        'Malformed input request: #: extraneous key [model] is not permitted, please reformat your input and try again.',
      );
    if (body.anthropic_version !== 'bedrock-2023-05-31')
      return fail(
        400,
        `Malformed input request: #/anthropic_version: ${JSON.stringify(body.anthropic_version ?? null)} is not a valid enum value, please reformat your input and try again.`,
      );
    if (!BEDROCK_MODEL.test(at.pathModel!)) return fail(400, 'The provided model identifier is invalid.');
    const { anthropic_version: _v, ...rest } = body;
    return { body: { ...rest, model: at.pathModel } };
  }
  if (at.platform === 'vertex') {
    const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!token || !tokens.has(token))
      return fail(
        401,
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
      );
    const project = VERTEX_PATH.exec(new URL(req.url ?? '/', 'http://fake').pathname)?.[1];
    if (project !== (opts.gcpProject ?? 'fake-project'))
      return fail(403, `Permission denied on resource project ${project}.`);
    if (!isObject(body)) return fail(400, 'Invalid JSON payload received.');
    if (body.anthropic_version !== 'vertex-2023-10-16')
      return fail(
        400,
        `anthropic_version: must be vertex-2023-10-16, got ${JSON.stringify(body.anthropic_version ?? null)}`,
      );
    if (!VERTEX_MODEL.test(at.pathModel!))
      return fail(
        404,
        `Publisher Model \`projects/${project}/locations/…/publishers/anthropic/models/${at.pathModel}\` not found.`,
      );
    const { anthropic_version: _v, ...rest } = body;
    return { body: { ...rest, model: at.pathModel } };
  }
  return { body };
}

const SIGV4 =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/bedrock\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;

/** Why Bedrock would refuse the request's credentials, or null: a Bedrock API key, or a SigV4 signature it can verify. */
function bedrockAuth(req: IncomingMessage, raw: string, aws: PlatformOptions['aws']): string | null {
  const authorization = req.headers.authorization ?? '';
  const bearer = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
  if (bearer) return aws?.apiKeys?.includes(bearer) ? null : 'Authentication failed: the Bedrock API key is invalid.';
  const sig = SIGV4.exec(authorization);
  if (!sig) return 'Missing Authentication Token';
  const [, keyId, date, region, signedHeaders, signature] = sig as unknown as string[];
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  if (!/^\d{8}T\d{6}Z$/.test(amzDate) || !amzDate.startsWith(date!)) return 'Missing or invalid X-Amz-Date header.';
  const signed = signedHeaders!.split(';');
  if (!signed.includes('host') || !signed.includes('x-amz-date'))
    return 'The request must sign the host and x-amz-date headers.';
  if (!aws || keyId !== aws.accessKeyId) return 'The security token included in the request is invalid.';
  if (region !== aws.region) return `Credential should be scoped to a valid region (${aws.region}).`;
  const expected = sigV4Signature(req, raw, signed, {
    date: date!,
    amzDate,
    region: region!,
    secret: aws.secretAccessKey,
  });
  return expected === signature
    ? null
    : 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.';
}

/** AWS Signature Version 4 as its documentation lays it out: canonical request, string to sign, derived key. */
function sigV4Signature(
  req: IncomingMessage,
  raw: string,
  signed: string[],
  k: { date: string; amzDate: string; region: string; secret: string },
): string {
  const url = new URL(req.url ?? '/', 'http://fake');
  const encode = (s: string) =>
    encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  // Every service but S3 encodes each path segment once more, over the encoding it arrived with.
  const path = url.pathname.split('/').map(encode).join('/');
  const query = [...url.searchParams]
    .map(([a, b]) => `${encode(a)}=${encode(b)}`)
    .sort()
    .join('&');
  const headers = signed
    .map(
      (h) =>
        `${h}:${String(req.headers[h] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const hash = (s: string) => createHash('sha256').update(s).digest('hex');
  const payload =
    typeof req.headers['x-amz-content-sha256'] === 'string' ? req.headers['x-amz-content-sha256'] : hash(raw);
  const canonical = [req.method, path, query, headers, signed.join(';'), payload].join('\n');
  const scope = `${k.date}/${k.region}/bedrock/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', k.amzDate, scope, hash(canonical)].join('\n');
  const hmac = (key: string | Buffer, s: string) => createHmac('sha256', key).update(s).digest();
  const signingKey = ['bedrock', 'aws4_request'].reduce(
    (key, part) => hmac(key, part),
    hmac(hmac(`AWS4${k.secret}`, k.date), k.region),
  );
  return createHmac('sha256', signingKey).update(toSign).digest('hex');
}

/**
 * The metadata server of a Google Cloud machine, as far as Application Default Credentials read it: the default
 * service account's access token and the project id; every request must carry `Metadata-Flavor: Google`.
 */
export function metadata(
  req: IncomingMessage,
  path: string,
  opts: PlatformOptions,
  tokens: Set<string>,
): { status: number; body: string; type: string } | null {
  if (!path.startsWith('/computeMetadata/v1/')) return null;
  if (req.headers['metadata-flavor'] !== 'Google')
    return { status: 403, body: 'Missing Metadata-Flavor:Google header.', type: 'text/html' };
  if (path === '/computeMetadata/v1/instance/service-accounts/default/token') {
    const token = `ya29.fake-${randomBytes(24).toString('hex')}`;
    tokens.add(token);
    return {
      status: 200,
      body: JSON.stringify({ access_token: token, expires_in: 3599, token_type: 'Bearer' }),
      type: 'application/json',
    };
  }
  if (path === '/computeMetadata/v1/project/project-id')
    return { status: 200, body: opts.gcpProject ?? 'fake-project', type: 'application/text' };
  if (path === '/computeMetadata/v1/universe/universe-domain')
    return { status: 200, body: 'googleapis.com', type: 'application/text' };
  if (path === '/computeMetadata/v1/instance/service-accounts/default/email')
    return { status: 200, body: 'skeptic@fake-project.iam.gserviceaccount.com', type: 'application/text' };
  return { status: 404, body: 'Not Found', type: 'text/html' };
}
