/**
 * Amazon Bedrock through @anthropic-ai/bedrock-sdk, in a bundle of its own (dist/bedrock.js) that only a Bedrock
 * run loads. The SDK puts the model in the path (`/model/{id}/invoke`) and the API version in the body. The
 * credentials, in the SDK's own order: a Bedrock API key (AWS_BEARER_TOKEN_BEDROCK) as a bearer token, else the
 * AWS credential chain (the environment's keys, then the profile's SSO, files or process, then a web identity,
 * container or instance role) signing every call with SigV4. The chain is asked here, before the first call, so
 * that missing credentials are one line and not a run of failed calls.
 */
import { AnthropicBedrock } from '@anthropic-ai/bedrock-sdk';
import Anthropic from '@anthropic-ai/sdk';
import { createCredentialChain, fromEnv, fromNodeProviderChain } from '@aws-sdk/credential-providers';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';
import { sdkEndpoint } from '../../model/endpoint';
import { modelFetch, type ConnectOptions, type Connected } from '../platform';

/** The version Bedrock's InvokeModel requires in the body (the SDK copies the `anthropic-version` header there). */
const BEDROCK_VERSION = 'bedrock-2023-05-31';
/** Credentials this close to expiring are asked for again before a call. */
const REFRESH_MS = 5 * 60_000;

export async function connectBedrock({ provider, requestTimeout, env }: ConnectOptions): Promise<Connected> {
  const region = provider.region!.value;
  const endpoint = provider.baseUrl?.value ?? `https://bedrock-runtime.${region}.amazonaws.com`;
  const common = {
    awsRegion: region,
    ...sdkEndpoint(endpoint),
    maxRetries: 0,
    timeout: requestTimeout * 1000,
    fetch: modelFetch(requestTimeout),
    defaultHeaders: { 'anthropic-version': BEDROCK_VERSION },
  };
  const done = (client: AnthropicBedrock, credentials: string, secrets: string[]): Connected => ({
    messages: client.messages,
    errors: Anthropic,
    credentials,
    secrets,
    endpoint,
  });
  if (provider.skipAuth)
    return done(
      new AnthropicBedrock({ ...common, apiKey: null, skipAuth: true }),
      'none sent: the gateway adds them (CLAUDE_CODE_SKIP_BEDROCK_AUTH)',
      [],
    );
  const bearer = env.AWS_BEARER_TOKEN_BEDROCK?.trim();
  if (bearer)
    return done(new AnthropicBedrock({ ...common, apiKey: bearer }), 'a Bedrock API key (AWS_BEARER_TOKEN_BEDROCK)', [
      bearer,
    ]);

  const profile = provider.profile?.value;
  // The SDK's own default: keys in the environment win over a profile, as with the AWS CLI.
  const chain = profile
    ? fromNodeProviderChain({ profile })
    : createCredentialChain(fromEnv(), fromNodeProviderChain());
  let identity: AwsCredentialIdentity;
  try {
    identity = await chain();
  } catch (err) {
    const how = profile
      ? `sign in to the profile (aws sso login --profile ${profile}) or check it in ~/.aws/config`
      : 'export AWS_PROFILE (and aws sso login), AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a Bedrock API key as AWS_BEARER_TOKEN_BEDROCK';
    return {
      problem: `no AWS credentials for Amazon Bedrock (${err instanceof Error ? err.message : String(err)}); ${how}`,
    };
  }
  const current: AwsCredentialIdentityProvider = async () => {
    if (identity.expiration && identity.expiration.getTime() - Date.now() < REFRESH_MS) identity = await chain();
    return identity;
  };
  const fromKeys = env.AWS_ACCESS_KEY_ID && identity.accessKeyId === env.AWS_ACCESS_KEY_ID?.trim();
  const source = fromKeys
    ? 'AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY'
    : profile
      ? `the AWS profile "${profile}" (${provider.profile!.from})`
      : 'the AWS default credential chain';
  return done(
    new AnthropicBedrock({ ...common, apiKey: null, providerChainResolver: async () => current }),
    `${source}, access key …${identity.accessKeyId.slice(-4)}, signed with SigV4`,
    [identity.secretAccessKey, identity.sessionToken ?? ''].filter(Boolean),
  );
}
