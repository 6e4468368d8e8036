/**
 * What connect.ts and a cloud platform's module (providers/bedrock.ts, providers/vertex.ts) agree on: the
 * options a platform is connected with and the client it hands back. Apart from connect.ts, which loads the
 * platform modules, so that neither imports the other.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { EditorModels } from '../model/editorModels';
import type { Env, ProviderConfig } from '../model/providers';
import { boundedFetch, IDLE_MS, MAX_MESSAGE_BYTES } from '../io/boundedFetch';
import type { WindowSource } from './window';

/** The SDK error classes a reply can be judged by: those of the SDK copy that made the client. */
export type ErrorClasses = Pick<
  typeof Anthropic,
  | 'APIError'
  | 'APIConnectionError'
  | 'APIConnectionTimeoutError'
  | 'AuthenticationError'
  | 'PermissionDeniedError'
  | 'NotFoundError'
  | 'BadRequestError'
>;

/** What a platform's module hands back: the client and what `skeptic doctor` says of it. */
export interface PlatformClient {
  /** `messages.create` of the platform's SDK, which rewrites the request to the platform's wire shape. */
  messages: Pick<Anthropic['messages'], 'create'>;
  errors: ErrorClasses;
  /** Where the credentials came from, never the secret. */
  credentials: string;
  /** Secrets that must never reach a message (key, secret key, session token). */
  secrets: string[];
  endpoint: string;
  /** The first-party SDK client, where Message Batches exist (the Anthropic API only). */
  batches?: Anthropic;
  /** Context windows the platform told us, by model id (the editor's models): they win over the table's. */
  windows?: Record<string, number>;
  /** What the endpoint says of a model's window and a request's tokens, where it can (window.ts). */
  window?: WindowSource;
}

export interface ConnectOptions {
  provider: ProviderConfig;
  /** The Anthropic API key, for the first-party API and compatible servers ('' for none). */
  apiKey: string;
  /** Seconds per request attempt (the SDK's own timeout). */
  requestTimeout: number;
  env: Env;
  /** The extension host's language models (provider vscode-lm; absent outside the editor). */
  editor?: EditorModels;
  /** The run's model ids by the steps or roles that use them: the editor's models are looked up for them first. */
  models?: Map<string, string[]>;
}

/** What a platform module answers: a client, or why the credentials cannot be had (with the fix). */
export type Connected = PlatformClient | { problem: string };

/**
 * Node's fetch takes a string body through WebIDL's USVString conversion (a copy of the whole request, at two
 * bytes a character once the prompt holds one non-ASCII character) and then encodes it; the request's UTF-8
 * bytes go through as they are. The conversion was 4 % of the main thread's CPU over a 30-file review. Lone
 * surrogates become U+FFFD either way (and JSON.stringify has escaped them already).
 */
const fetchBytes = (url: string | URL | Request, init?: RequestInit): Promise<Response> =>
  globalThis.fetch(url, typeof init?.body === 'string' ? { ...init, body: Buffer.from(init.body) } : init);

/**
 * The fetch every platform's SDK client calls through: one deadline of `requestTimeout` seconds per attempt
 * covers the answer's headers and its whole body (the SDK's own timeout stops at the headers), with an idle
 * limit between chunks and a cap on a reply's bytes (io/boundedFetch.ts).
 */
export function modelFetch(requestTimeout: number): ReturnType<typeof boundedFetch> {
  const deadlineMs = requestTimeout * 1000;
  return boundedFetch({ deadlineMs, idleMs: Math.min(IDLE_MS, deadlineMs), maxBytes: MAX_MESSAGE_BYTES }, fetchBytes);
}
