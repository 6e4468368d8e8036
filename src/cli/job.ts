/**
 * The job the flags describe, the same for `skeptic review` and `skeptic plan`: the choices as flagged, with
 * what the process adds (its folder, the endpoint from ANTHROPIC_BASE_URL, the --prices and --intent files read, the
 * repository's state folder), so the plan counts what the review will ask.
 */
import { withAutoScope } from '../app/autoScope';
import { buildJob } from '../app/buildJob';
import { needsApiKey, resolveProvider, type Env, type ProviderConfig } from '../model/providers';
import { SetupError } from '../model/setup';
import type { ReviewJob } from '../app/job';
import type { ReviewChoices } from '../app/choices';
import { flagOf } from '../app/contributions';
import { repositoryStateDir } from '../app/state';
import { userDismissals } from '../app/agentDismiss';
import type { ScopeSpec } from '../model/scope';
import type { ReviewFlags } from './args';
import type { CliIo } from './io';
import { loadPrices } from './prices';
import { loadIntent } from './intent';

/** `apiKey`: '' for a plan, which makes no call. */
export async function jobFromFlags(
  flags: ReviewFlags & { choices: { scope: ScopeSpec } },
  io: Pick<CliIo, 'cwd' | 'env'>,
  apiKey: string,
  provider: ProviderConfig = providerFromFlags(flags.choices, io.env),
): Promise<ReviewJob & { stateDir: string }> {
  const prices = await loadPrices(io.cwd, flags.pricesFile);
  const intent = await loadIntent(io.cwd, flags.intent);
  const stateDir = await repositoryStateDir(io.cwd, io.env);
  const baseUrl = io.env.ANTHROPIC_BASE_URL;
  // The user's own dismissals (skeptic mcp's dismiss with who: user); the team's file is read by the run.
  const dismissals = await userDismissals(stateDir);
  const job = buildJob(
    {
      ...flags.choices,
      cwd: io.cwd,
      ...(baseUrl ? { baseUrl } : {}),
      ...(prices ? { prices } : {}),
      ...(intent ? { intent } : {}),
    },
    { apiKey, stateDir, provider, dismissals },
  );
  return { ...job, stateDir };
}

/** With no path and no scope flag, the detected scope, and its line (which and why) for the output. */
export async function chooseScope(
  flags: ReviewFlags,
  io: Pick<CliIo, 'cwd' | 'env'>,
): Promise<{ flags: ReviewFlags & { choices: { scope: ScopeSpec } }; line?: string }> {
  const { target, line } = await withAutoScope({ ...flags.choices, cwd: io.cwd }, io.env);
  return { flags: { ...flags, choices: { ...flags.choices, scope: target.scope } }, ...(line ? { line } : {}) };
}

/**
 * The flags' provider, else the environment's: CLAUDE_CODE_USE_BEDROCK and the rest, as Claude Code reads them.
 * The endpoint is each provider's own variable (ANTHROPIC_BASE_URL only for the Anthropic API and compatible servers).
 */
export function providerFromFlags(
  flags: Pick<ReviewChoices, 'provider' | 'region' | 'project' | 'profile'>,
  env: Env,
): ProviderConfig {
  const via = {
    provider: flagOf('provider'),
    region: flagOf('region'),
    project: flagOf('project'),
    profile: flagOf('profile'),
    baseUrl: 'ANTHROPIC_BASE_URL',
  };
  const { provider, region, project, profile } = flags;
  return resolveProvider({ provider, region, project, profile, via }, env);
}

/**
 * The Anthropic key the provider needs: required for the Anthropic API, optional for a compatible server (local
 * ones take none), none for Bedrock and Vertex AI, which sign with their cloud's credentials.
 */
export function keyFor(provider: ProviderConfig, env: Env): string {
  const key = envKey(provider, env);
  if (!key && needsApiKey(provider.provider))
    throw new SetupError(
      'no API key: set ANTHROPIC_API_KEY (export ANTHROPIC_API_KEY=sk-ant-…), from https://console.anthropic.com/settings/keys; or choose --provider bedrock or vertex',
    );
  return key;
}

/** The environment's Anthropic key for the provider, '' for none: Bedrock and Vertex AI are sent none. */
export function envKey(provider: ProviderConfig, env: Env): string {
  if (provider.provider === 'anthropic') return env.ANTHROPIC_API_KEY?.trim() ?? '';
  if (provider.provider === 'compatible')
    return env.ANTHROPIC_API_KEY?.trim() || env.ANTHROPIC_AUTH_TOKEN?.trim() || '';
  return '';
}
