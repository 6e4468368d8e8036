/**
 * Where the model calls go: the Anthropic API, Amazon Bedrock, Google Vertex AI, or an Anthropic-compatible
 * server (a gateway such as LiteLLM, a local model server). The provider is the user's choice, else what the
 * environment says as Claude Code's users already have it set; its model ids, its regional price premium and
 * what it can do are tables here, each capability with where we know it from. Every missing capability has
 * a fallback where the call is made (engine/runner.ts, engine/client.ts) and in the estimate (app/estimate.ts).
 */
import { HAIKU, OPUS, SONNET } from './models';
import { endpointProblem, PROJECT, REGION, shownEndpoint } from './endpoint';
import { SetupError } from './setup';

export const PROVIDERS = ['anthropic', 'bedrock', 'vertex', 'compatible', 'vscode-lm'] as const;
export type Provider = (typeof PROVIDERS)[number];

export const PROVIDER_NAMES: Record<Provider, string> = {
  anthropic: 'the Anthropic API',
  bedrock: 'Amazon Bedrock',
  vertex: 'Google Vertex AI',
  compatible: 'an Anthropic-compatible server',
  'vscode-lm': "the editor's language models (VS Code)",
};

/** A provider setup that cannot work (unknown name, no region, no credentials): one line, before any call. */
export class ProviderError extends SetupError {}

/** A value and what set it (a flag, a setting, an environment variable), for the first line and `skeptic doctor`. */
export interface Sourced {
  value: string;
  from: string;
}

export interface ProviderConfig {
  provider: Provider;
  /** What chose it: a flag, a setting, CLAUDE_CODE_USE_BEDROCK / CLAUDE_CODE_USE_VERTEX, or the default. */
  chosenBy: string;
  /** Bedrock's AWS region, or Vertex AI's region ('global', 'us-east5', …). */
  region?: Sourced;
  /** Vertex AI's Google Cloud project; absent: the one the credentials name. */
  project?: Sourced;
  /** Bedrock: the AWS profile whose credentials sign the calls; absent: the default chain. */
  profile?: Sourced;
  /** The endpoint, when not the provider's own (a gateway, a proxy, a test's fake). */
  baseUrl?: Sourced;
  /** A gateway adds the credentials: nothing is signed or sent (CLAUDE_CODE_SKIP_BEDROCK_AUTH, …_VERTEX_AUTH). */
  skipAuth: boolean;
}

/** What the user chose, by flag or setting; `via` names each for the messages (e.g. `--region` or `skeptic.region`). */
export interface ProviderChoices {
  provider?: string;
  region?: string;
  project?: string;
  profile?: string;
  /** The endpoint setting; otherwise each provider's own environment variable. */
  baseUrl?: string;
  via: { provider: string; region: string; project: string; profile: string; baseUrl: string };
}

export type Env = Record<string, string | undefined>;

/** Claude Code's reading of its switches: set and not "0" or "false". */
const on = (v: string | undefined) => v !== undefined && v.trim() !== '' && !/^(0|false|no)$/i.test(v.trim());

/** The first of `candidates` that is set, with its name. */
function first(...candidates: [string | undefined, string][]): Sourced | undefined {
  for (const [value, from] of candidates) if (value?.trim()) return { value: value.trim(), from };
  return undefined;
}

/**
 * The provider and its settings: an explicit choice wins, then CLAUDE_CODE_USE_BEDROCK / CLAUDE_CODE_USE_VERTEX,
 * then the Anthropic API. Throws ProviderError for what cannot work, naming the fix.
 */
export function resolveProvider(c: ProviderChoices, env: Env): ProviderConfig {
  const named = c.provider?.trim();
  let provider: Provider;
  let chosenBy: string;
  if (named) {
    if (!(PROVIDERS as readonly string[]).includes(named))
      throw new ProviderError(`${c.via.provider} must be one of ${PROVIDERS.join(', ')}; got "${named}"`);
    provider = named as Provider;
    chosenBy = c.via.provider;
  } else if (on(env.CLAUDE_CODE_USE_BEDROCK) && on(env.CLAUDE_CODE_USE_VERTEX)) {
    throw new ProviderError(
      `both CLAUDE_CODE_USE_BEDROCK and CLAUDE_CODE_USE_VERTEX are set; unset one, or choose with ${c.via.provider}`,
    );
  } else if (on(env.CLAUDE_CODE_USE_BEDROCK)) [provider, chosenBy] = ['bedrock', 'CLAUDE_CODE_USE_BEDROCK'];
  else if (on(env.CLAUDE_CODE_USE_VERTEX)) [provider, chosenBy] = ['vertex', 'CLAUDE_CODE_USE_VERTEX'];
  else [provider, chosenBy] = ['anthropic', 'the default'];

  const setting = (value: string | undefined, key: keyof ProviderChoices['via']): [string | undefined, string] => [
    value,
    c.via[key],
  ];
  const endpoint = (envName: string) => valid(first(setting(c.baseUrl, 'baseUrl'), [env[envName], envName]));
  switch (provider) {
    case 'bedrock': {
      const region = first(
        setting(c.region, 'region'),
        [env.AWS_REGION, 'AWS_REGION'],
        [env.AWS_DEFAULT_REGION, 'AWS_DEFAULT_REGION'],
      );
      if (!region)
        throw new ProviderError(
          `Amazon Bedrock needs an AWS region: pass ${c.via.region} or export AWS_REGION (e.g. us-east-1)`,
        );
      checkName(region, REGION, 'an AWS region name (e.g. us-east-1)');
      const profile = first(setting(c.profile, 'profile'), [env.AWS_PROFILE, 'AWS_PROFILE']);
      const baseUrl = endpoint('ANTHROPIC_BEDROCK_BASE_URL');
      return {
        provider,
        chosenBy,
        region,
        ...(profile ? { profile } : {}),
        ...(baseUrl ? { baseUrl } : {}),
        skipAuth: on(env.CLAUDE_CODE_SKIP_BEDROCK_AUTH),
      };
    }
    case 'vertex': {
      const region = first(setting(c.region, 'region'), [env.CLOUD_ML_REGION, 'CLOUD_ML_REGION']);
      if (!region)
        throw new ProviderError(
          `Google Vertex AI needs a region: pass ${c.via.region} or export CLOUD_ML_REGION (e.g. global or us-east5)`,
        );
      const project = first(setting(c.project, 'project'), [
        env.ANTHROPIC_VERTEX_PROJECT_ID,
        'ANTHROPIC_VERTEX_PROJECT_ID',
      ]);
      checkName(region, REGION, 'a Google Cloud region name (e.g. global or us-east5)');
      if (project) checkName(project, PROJECT, 'a Google Cloud project id (e.g. my-project-123)');
      const skipAuth = on(env.CLAUDE_CODE_SKIP_VERTEX_AUTH);
      // Without credentials nothing can name the project.
      if (!project && skipAuth)
        throw new ProviderError(
          `Google Vertex AI needs a project: pass ${c.via.project} or export ANTHROPIC_VERTEX_PROJECT_ID`,
        );
      const baseUrl = endpoint('ANTHROPIC_VERTEX_BASE_URL');
      return { provider, chosenBy, region, ...(project ? { project } : {}), ...(baseUrl ? { baseUrl } : {}), skipAuth };
    }
    case 'compatible': {
      const baseUrl = endpoint('ANTHROPIC_BASE_URL');
      if (!baseUrl)
        throw new ProviderError(
          `an Anthropic-compatible server needs its address: ${c.via.baseUrl === 'ANTHROPIC_BASE_URL' ? '' : `set ${c.via.baseUrl} or `}export ANTHROPIC_BASE_URL (e.g. http://localhost:11434)`,
        );
      return { provider, chosenBy, baseUrl, skipAuth: false };
    }
    case 'vscode-lm':
      // The editor picks the endpoint and signs the calls: nothing to resolve here.
      return { provider, chosenBy, skipAuth: false };
    case 'anthropic': {
      const baseUrl = endpoint('ANTHROPIC_BASE_URL');
      return { provider, chosenBy, ...(baseUrl ? { baseUrl } : {}), skipAuth: false };
    }
  }
}

/** A region or project goes into the endpoint's host and path: nothing but a name may (`attacker.example/x?` is refused). */
function checkName(value: Sourced, shape: RegExp, what: string): void {
  if (!shape.test(value.value))
    throw new ProviderError(`${value.from} must be ${what}; got ${JSON.stringify(value.value.slice(0, 80))}`);
}

/** An endpoint that can be used: see endpointProblem. */
function valid(url: Sourced | undefined): Sourced | undefined {
  const problem = url && endpointProblem(url.value, url.from);
  if (problem) throw new ProviderError(problem);
  return url;
}

/** Bedrock and Vertex AI sign with their cloud's own credential chain: no Anthropic key. */
export function needsApiKey(provider: Provider): boolean {
  return provider === 'anthropic';
}

/**
 * Skeptic's model names as each cloud lists them: Bedrock's global cross-region inference profiles and Vertex
 * AI's undated ids (the newest models have no date). A name not in the table, such as an id given with
 * --model, goes through as it is.
 */
const MODEL_IDS: Record<'bedrock' | 'vertex', Record<string, string>> = {
  bedrock: {
    [OPUS]: 'global.anthropic.claude-opus-5-5-v1',
    [SONNET]: 'global.anthropic.claude-sonnet-5-5-v1',
    [HAIKU]: 'global.anthropic.claude-haiku-5-5-v1',
  },
  vertex: { [OPUS]: 'claude-opus-5-5', [SONNET]: 'claude-sonnet-5-5', [HAIKU]: 'claude-haiku-5-5' },
};

export function providerModelId(provider: Provider, model: string): string {
  return provider === 'bedrock' || provider === 'vertex' ? (MODEL_IDS[provider][model] ?? model) : model;
}

/** Bedrock's model ids: an inference profile (`global.`, `us.`, …), a base model id, or an ARN. */
const BEDROCK_ID = /^((global|us|us-gov|eu|apac|jp|au|ca)\.)?anthropic\.[\w.:-]+$|^arn:aws[\w-]*:bedrock:/;

/** Why `id` cannot be a model id of `provider` (an id of another platform, most often), or undefined. */
export function modelIdProblem(provider: Provider, id: string): string | undefined {
  const bedrockShaped = BEDROCK_ID.test(id);
  if (provider === 'bedrock' && !bedrockShaped)
    return `"${id}" is not an Amazon Bedrock model id; Bedrock names models like ${MODEL_IDS.bedrock[SONNET]} (an inference profile) or anthropic.claude-…-v1:0`;
  if (provider === 'vertex' && (bedrockShaped || !/^[\w.-]+(@\w+)?$/.test(id)))
    return `"${id}" is not a Google Vertex AI model id; Vertex AI names models like ${MODEL_IDS.vertex[SONNET]} or claude-…@DATE`;
  if (provider === 'anthropic' && (bedrockShaped || id.includes('@')))
    return `"${id}" is not an Anthropic API model id; the API names models like ${SONNET} (for Bedrock or Vertex AI, choose --provider)`;
  return undefined;
}

/**
 * The price factor of a call: Bedrock's regional and geographic inference profiles and Vertex AI's regional
 * endpoints cost 10% more than the global ones for the models Skeptic uses (Claude's pricing page, "third-party
 * platforms"); everything else is at list price.
 */
export function regionalPremium(provider: Provider, region: string | undefined, modelId: string): number {
  if (provider === 'bedrock') return modelId.startsWith('global.') || modelId.startsWith('arn:') ? 1 : 1.1;
  if (provider === 'vertex') return region === 'global' ? 1 : 1.1;
  return 1;
}

/** What a provider can do. Missing ones fall back: see the fallback each field names. */
export interface Capabilities {
  /** `output_config.format` (a JSON schema for the reply) and `strict` tools. Fallback: the record through a submit tool, validated and repaired. */
  structuredOutputs: boolean;
  /** `tool_choice` naming a tool (or `none`). Fallback: auto, with the submit tool named in the instructions, and repair. */
  forcedToolChoice: boolean;
  /** `cache_control` breakpoints. Fallback: none sent, no cache primes, and the estimate without cache discounts. */
  promptCache: boolean;
  /** The cache lifetimes the provider accepts (Skeptic writes the default, 5 minutes). */
  cacheTtls: readonly string[];
  /** `/v1/messages/count_tokens`. Fallback: the local estimate (which is what Skeptic uses today everywhere). */
  tokenCounting: boolean;
  /** Message Batches. Fallback: none; `--batch` is refused with the reason. */
  batches: boolean;
  /** Calls billed per token, so the price table gives dollars. Fallback: calls and tokens counted, no dollar figure, `--max-cost` refused. */
  listPrices: boolean;
}

export type Capability = keyof Capabilities;

/** The whole Messages API, as the first-party API has it; the clouds differ from it in a field or two. */
const FULL: Capabilities = {
  structuredOutputs: true,
  forcedToolChoice: true,
  promptCache: true,
  cacheTtls: ['5m', '1h'],
  tokenCounting: true,
  batches: true,
  listPrices: true,
};

/** Each provider's capabilities as built, and where each fact comes from. */
export const CAPABILITIES: Record<Provider, { value: Capabilities; source: Record<Capability, string> }> = {
  anthropic: {
    value: FULL,
    source: {
      structuredOutputs: 'Anthropic API docs',
      forcedToolChoice: 'Anthropic API docs',
      promptCache: 'Anthropic API docs',
      cacheTtls: 'Anthropic API docs',
      tokenCounting: 'Anthropic API docs',
      batches: 'Anthropic API docs',
      listPrices: 'Anthropic pricing page (the price table, model/pricing.ts)',
    },
  },
  bedrock: {
    value: { ...FULL, tokenCounting: false, batches: false },
    source: {
      structuredOutputs: 'Bedrock docs: output_config.format and strict tools on InvokeModel (bedrock-runtime)',
      forcedToolChoice: 'Bedrock docs: tool_choice in the Messages request',
      promptCache: 'Bedrock docs: prompt caching for Claude',
      cacheTtls: 'Bedrock docs: 5m, and 1h since January 2026 for recent Claude models',
      tokenCounting: '@anthropic-ai/bedrock-sdk: no countTokens',
      batches: '@anthropic-ai/bedrock-sdk: no batches (Bedrock batch inference is a separate S3 job API)',
      listPrices: "Bedrock pricing: Anthropic's list prices, 10% more on regional endpoints",
    },
  },
  vertex: {
    value: { ...FULL, batches: false },
    source: {
      structuredOutputs:
        'Anthropic docs (an organisation policy may turn it off: the first refusal switches to submit tools)',
      forcedToolChoice: 'Anthropic docs: the Vertex API supports the Messages API options',
      promptCache: 'Anthropic docs: the Vertex API supports the Messages API options',
      cacheTtls: 'Anthropic docs',
      tokenCounting: '@anthropic-ai/vertex-sdk: count-tokens:rawPredict',
      batches: '@anthropic-ai/vertex-sdk: no batches',
      listPrices: "Vertex AI pricing: Anthropic's list prices, 10% more on regional endpoints",
    },
  },
  compatible: {
    value: {
      structuredOutputs: false,
      forcedToolChoice: false,
      promptCache: false,
      cacheTtls: [],
      tokenCounting: false,
      batches: false,
      listPrices: true,
    },
    source: {
      structuredOutputs: 'assumed absent (Ollama refuses output formats): records come through submit tools',
      forcedToolChoice: 'assumed absent (Ollama ignores tool_choice): the instructions name the tool, with repair',
      promptCache: 'assumed absent (Ollama ignores cache_control)',
      cacheTtls: 'assumed absent',
      tokenCounting: 'assumed absent (Ollama has no count_tokens)',
      batches: 'assumed absent (Ollama has no batches)',
      listPrices:
        'the price table by model name (a gateway to Claude bills list prices); a local model has none: see --prices',
    },
  },
  'vscode-lm': {
    value: {
      structuredOutputs: false,
      forcedToolChoice: false,
      promptCache: false,
      cacheTtls: [],
      tokenCounting: true,
      batches: false,
      listPrices: false,
    },
    source: {
      structuredOutputs: 'VS Code language model API: no response format; records come through submit tools',
      forcedToolChoice: 'VS Code language model API: a tool mode of auto or required, no tool by name',
      promptCache: 'VS Code language model API: no cache breakpoints',
      cacheTtls: 'VS Code language model API: none',
      tokenCounting: "VS Code language model API: LanguageModelChat.countTokens, the model's own tokenizer",
      batches: 'VS Code language model API: none',
      listPrices: "VS Code language model API: the editor's plan bills the calls (a Copilot plan, say), not per token",
    },
  },
};

/** Why `--batch` cannot run on `provider`, or undefined where it can. */
export function batchRefusal(provider: Provider): string | undefined {
  return CAPABILITIES[provider].value.batches
    ? undefined
    : `--batch (skeptic.batch) needs the Message Batches API, which ${PROVIDER_NAMES[provider]} does not have; review without it, or with --provider anthropic`;
}

/** Why `--max-cost` cannot hold a run on `provider` to dollars, or undefined where it can. */
export function costCeilingRefusal(provider: Provider): string | undefined {
  return CAPABILITIES[provider].value.listPrices
    ? undefined
    : `--max-cost (skeptic.maxCostUsd) is a dollar ceiling, and ${PROVIDER_NAMES[provider]} are billed by the editor's plan, not in dollars Skeptic can count: nothing was sent. Bound the run by calls with --max-calls (skeptic.maxCalls), or remove the dollar ceiling`;
}

/** The run's first line: provider, what chose it, region or project, endpoint if not the provider's own, and the models by use. */
export function setupLine(config: ProviderConfig, models: Map<string, string[]>): string {
  const where = [
    config.region && `region ${config.region.value}`,
    config.project && `project ${config.project.value}`,
    config.profile && `profile ${config.profile.value}`,
    config.baseUrl && `endpoint ${shownEndpoint(config.baseUrl.value)}`,
  ].filter(Boolean);
  const used = [...models].map(([id, roles]) => `${id} (${roles.join(', ')})`).join(', ');
  return `Provider: ${config.provider} (${PROVIDER_NAMES[config.provider]}, chosen by ${config.chosenBy}${where.length ? `; ${where.join(', ')}` : ''}) · models: ${used}`;
}
