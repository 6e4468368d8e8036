/**
 * The provider's client, made before the run's first call: the SDK for its platform, credentials resolved (or a
 * ProviderError naming the fix), and what it can do. Bedrock's and Vertex AI's SDKs are loaded only when chosen,
 * from bundles of their own (dist/bedrock.js, dist/vertex.js: esbuild.mjs), so the CLI and the worker do not grow;
 * each bundle carries its own copy of the Anthropic SDK, so the error classes to test against come with it.
 */
import Anthropic from '@anthropic-ai/sdk';
import {
  CAPABILITIES,
  PROVIDER_NAMES,
  ProviderError,
  type Capabilities,
  type Env,
  type ProviderConfig,
} from '../model/providers';
import { redact } from '../model/redact';

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
}

export interface Connection extends PlatformClient {
  provider: ProviderConfig;
  capabilities: Capabilities;
}

export interface ConnectOptions {
  provider: ProviderConfig;
  /** The Anthropic API key, for the first-party API and compatible servers ('' for none). */
  apiKey: string;
  timeoutMs: number;
  env: Env;
}

/** What a platform module answers: a client, or why the credentials cannot be had (with the fix). */
export type Connected = PlatformClient | { problem: string };

export async function connect(o: ConnectOptions): Promise<Connection> {
  const made: Connected =
    o.provider.provider === 'bedrock'
      ? await (await import('./providers/bedrock')).connectBedrock(o)
      : o.provider.provider === 'vertex'
        ? await (await import('./providers/vertex')).connectVertex(o)
        : firstParty(o);
  // A credential library's own words may quote what it read.
  if ('problem' in made) throw new ProviderError(redact(made.problem));
  return { ...made, provider: o.provider, capabilities: CAPABILITIES[o.provider.provider].value };
}

/** The Anthropic API, or a compatible server (whose key is optional: local servers take none). */
export function firstParty({ provider, apiKey, timeoutMs }: ConnectOptions): Connection {
  const endpoint = provider.baseURL?.value ?? 'https://api.anthropic.com';
  const sdk = new Anthropic({
    apiKey: apiKey || null,
    authToken: null,
    ...(provider.baseURL ? { baseURL: provider.baseURL.value } : {}),
    maxRetries: 0,
    timeout: timeoutMs,
    // No key: no Authorization header at all, rather than the SDK's search for one.
    ...(apiKey ? {} : { defaultHeaders: { Authorization: null } }),
  });
  return {
    messages: sdk.messages,
    ...(provider.provider === 'anthropic' ? { batches: sdk } : {}),
    errors: Anthropic,
    credentials: apiKey ? 'an Anthropic API key' : `none (${PROVIDER_NAMES[provider.provider]} is sent no key)`,
    secrets: apiKey ? [apiKey] : [],
    endpoint,
    provider,
    capabilities: CAPABILITIES[provider.provider].value,
  };
}
