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
import { endpointProblem, endpointSecrets, sdkEndpoint, shownEndpoint } from '../model/endpoint';
import { modelFetch, type Connected, type ConnectOptions, type PlatformClient } from './platform';
import { countsTokens, endpointWindow } from './endpointWindow';

export interface Connection extends PlatformClient {
  provider: ProviderConfig;
  capabilities: Capabilities;
}

export async function connect(o: ConnectOptions): Promise<Connection> {
  const platform = o.provider.provider;
  if (platform === 'anthropic' || platform === 'compatible') return firstParty(o);
  checkEndpoint(o.provider);
  const made: Connected =
    platform === 'bedrock'
      ? await (await import('./providers/bedrock')).connectBedrock(o)
      : platform === 'vertex'
        ? await (await import('./providers/vertex')).connectVertex(o)
        : await (await import('./providers/vscodeLm')).connectEditor(o);
  // A credential library's own words may quote what it read.
  if ('problem' in made) throw new ProviderError(redact(made.problem));
  return finish(made, o.provider);
}

/** Every surface's endpoint passes here before the first call (resolveProvider checks the ones it resolves). */
function checkEndpoint({ baseUrl }: ProviderConfig): void {
  const problem = baseUrl && endpointProblem(baseUrl.value, baseUrl.from);
  if (problem) throw new ProviderError(problem);
}

/** A gateway's key in the address's query is a secret like any other; the address is shown without it. */
function finish(made: PlatformClient, provider: ProviderConfig): Connection {
  const secrets = provider.baseUrl ? [...made.secrets, ...endpointSecrets(provider.baseUrl.value)] : made.secrets;
  // Only an address the user gave can carry secrets; the editor names its models here, not a URL.
  const endpoint = provider.baseUrl ? shownEndpoint(made.endpoint) : made.endpoint;
  return { ...made, secrets, endpoint, provider, capabilities: CAPABILITIES[provider.provider].value };
}

/** The Anthropic API, or a compatible server (whose key is optional: local servers take none). */
export function firstParty({ provider, apiKey, requestTimeout }: ConnectOptions): Connection {
  checkEndpoint(provider);
  const endpoint = provider.baseUrl?.value ?? 'https://api.anthropic.com';
  const sdk = new Anthropic({
    apiKey: apiKey || null,
    authToken: null,
    ...(provider.baseUrl ? sdkEndpoint(provider.baseUrl.value) : {}),
    maxRetries: 0,
    timeout: requestTimeout * 1000,
    fetch: modelFetch(requestTimeout),
    // No key: no Authorization header at all, rather than the SDK's search for one.
    ...(apiKey ? {} : { defaultHeaders: { Authorization: null } }),
  });
  const made: PlatformClient = {
    messages: sdk.messages,
    ...(provider.provider === 'anthropic' ? { batches: sdk } : {}),
    errors: Anthropic,
    credentials: apiKey ? 'an Anthropic API key' : `none (${PROVIDER_NAMES[provider.provider]} is sent no key)`,
    secrets: apiKey ? [apiKey] : [],
    endpoint,
    window: endpointWindow(sdk, countsTokens(provider.provider)),
  };
  return finish(made, provider);
}
