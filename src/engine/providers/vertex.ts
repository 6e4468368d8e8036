/**
 * Google Vertex AI through @anthropic-ai/vertex-sdk, in a bundle of its own (dist/vertex.js) that only a Vertex
 * run loads. The SDK sends each call to the model's `:rawPredict` in the project and region, with the API version
 * in the body and a Google access token as the bearer. The token comes from Application Default Credentials
 * (GOOGLE_APPLICATION_CREDENTIALS, then `gcloud auth application-default login`, then the metadata server of a
 * Google Cloud machine); they are asked here, before the first call, as is the project they name when none is set.
 */
import Anthropic from '@anthropic-ai/sdk';
import { AnthropicVertex } from '@anthropic-ai/vertex-sdk';
import { GoogleAuth, type AuthClient } from 'google-auth-library';
import { sdkEndpoint } from '../../model/endpoint';
import { modelFetch, type ConnectOptions, type Connected } from '../platform';

/** The version Vertex AI requires in the body (the SDK copies the `anthropic-version` header there). */
const VERTEX_VERSION = 'vertex-2023-10-16';
const SCOPE = 'https://www.googleapis.com/auth/cloud-platform';

/** What each kind of Application Default Credentials is, for `skeptic doctor`. */
const KINDS: Record<string, string> = {
  Compute: 'the metadata server of this Google Cloud machine',
  UserRefreshClient: 'gcloud auth application-default login',
  JWT: 'a service account key (GOOGLE_APPLICATION_CREDENTIALS)',
  Impersonated: 'an impersonated service account',
  ExternalAccountAuthorizedUserClient: 'a workforce identity (gcloud auth application-default login)',
};

export async function connectVertex({ provider, requestTimeout }: ConnectOptions): Promise<Connected> {
  const region = provider.region!.value;
  const common = {
    region,
    ...(provider.baseUrl ? sdkEndpoint(provider.baseUrl.value) : {}),
    maxRetries: 0,
    timeout: requestTimeout * 1000,
    fetch: modelFetch(requestTimeout),
    defaultHeaders: { 'anthropic-version': VERTEX_VERSION },
  };
  const endpoint =
    provider.baseUrl?.value ??
    (region === 'global' ? 'https://aiplatform.googleapis.com/v1' : `https://${region}-aiplatform.googleapis.com/v1`);
  const noProject = () => ({
    problem:
      'Google Vertex AI needs a project: pass --project, set skeptic.project, or export ANTHROPIC_VERTEX_PROJECT_ID',
  });
  let authClient: AuthClient;
  let projectId = provider.project?.value;
  let credentials: string;
  let secrets: string[] = [];
  if (provider.skipAuth) {
    if (!projectId) return noProject();
    // A gateway adds the credentials: the client sends no Authorization header of its own.
    authClient = { projectId, getRequestHeaders: async () => new Headers() } as unknown as AuthClient;
    credentials = 'none sent: the gateway adds them (CLAUDE_CODE_SKIP_VERTEX_AUTH)';
  } else {
    const auth = new GoogleAuth({ scopes: SCOPE, ...(projectId ? { projectId } : {}) });
    try {
      authClient = await auth.getClient();
      const token = (await authClient.getAccessToken()).token;
      if (token) secrets = [token];
      projectId ??= (await auth.getProjectId().catch(() => null)) ?? undefined;
    } catch (err) {
      return {
        problem: `no Google credentials for Vertex AI (${err instanceof Error ? err.message : String(err)}); run gcloud auth application-default login, or set GOOGLE_APPLICATION_CREDENTIALS to a service account key`,
      };
    }
    if (!projectId) return noProject();
    credentials = `Application Default Credentials: ${KINDS[authClient.constructor.name] ?? authClient.constructor.name}`;
  }
  const client = new AnthropicVertex({ ...common, projectId, authClient });
  return { messages: client.messages, errors: Anthropic, credentials, secrets, endpoint };
}
