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
  type ProviderConfig,
} from '../model/providers';
import { redact } from '../model/redact';
import type { Connected, ConnectOptions, PlatformClient } from './platform';

export interface Connection extends PlatformClient {
  provider: ProviderConfig;
  capabilities: Capabilities;
}

export async function connect(o: ConnectOptions): Promise<Connection> {
  const made: Connected =
    o.provider.provider === 'bedrock'
      ? await (await import('./providers/bedrock')).connectBedrock(o)
      : o.provider.provider === 'vertex'
        ? await (await import('./providers/vertex')).connectVertex(o)
        : o.provider.provider === 'vscode-lm'
          ? await (await import('./providers/vscodeLm')).connectEditor(o)
          : firstParty(o);
  // A credential library's own words may quote what it read.
  if ('problem' in made) throw new ProviderError(redact(made.problem));
  return { ...made, provider: o.provider, capabilities: CAPABILITIES[o.provider.provider].value };
}

/** The Anthropic API, or a compatible server (whose key is optional: local servers take none). */
export function firstParty({ provider, apiKey, requestTimeout }: ConnectOptions): Connection {
  const endpoint = provider.baseUrl?.value ?? 'https://api.anthropic.com';
  const sdk = new Anthropic({
    apiKey: apiKey || null,
    authToken: null,
    ...(provider.baseUrl ? { baseURL: provider.baseUrl.value } : {}),
    maxRetries: 0,
    timeout: requestTimeout * 1000,
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
