import type { OptionRow } from './row';

/** Where the calls go (docs/providers.md); without them, the environment decides, as for Claude Code. In the help's order. */
export const PROVIDER_ROWS = {
  provider: {
    flag: {
      name: 'provider',
      section: 'provider',
      value: { kind: 'text' },
      arg: 'NAME',
      help: [
        'anthropic (the Anthropic API) | bedrock (Amazon Bedrock) | vertex (Google Vertex AI)',
        '| compatible (an Anthropic-compatible server at ANTHROPIC_BASE_URL, e.g. Ollama)',
        "| vscode-lm (the editor's language models: the VS Code extension only)",
      ],
    },
    setting: {
      key: 'provider',
      type: 'string',
      default: '',
      restricted: true,
      readme:
        "where the calls go: `anthropic`, `bedrock`, `vertex`, `compatible` or `vscode-lm` (the editor's models; extension only) (empty: as the environment says)",
      declared: {
        enum: ['', 'anthropic', 'bedrock', 'vertex', 'compatible', 'vscode-lm'],
        enumDescriptions: [
          'Follow the environment: CLAUDE_CODE_USE_BEDROCK or CLAUDE_CODE_USE_VERTEX as Claude Code reads them, else the Anthropic API',
          'The Anthropic API, with the key saved by Skeptic: Set API Key (or ANTHROPIC_API_KEY)',
          'Amazon Bedrock, signed with your AWS credentials (profile, SSO, keys or role) or a Bedrock API key; no Anthropic key',
          'Google Vertex AI, with Google Application Default Credentials; no Anthropic key',
          'An Anthropic-compatible server (a gateway, Ollama, llama.cpp) at skeptic.baseUrl or ANTHROPIC_BASE_URL',
          "The editor's own language models (GitHub Copilot or another model provider), through VS Code's language model API; no key, no prompt cache, no batches, and VS Code asks once whether Skeptic may use them",
        ],
        description:
          "Where the model calls go. Empty: as the environment says (Claude Code's variables). Restricted in untrusted workspaces.",
      },
    },
  },
  region: {
    flag: {
      name: 'region',
      section: 'provider',
      value: { kind: 'text' },
      arg: 'REGION',
      help: ["Bedrock's AWS region (else AWS_REGION) or Vertex AI's (else CLOUD_ML_REGION)"],
    },
    setting: {
      key: 'region',
      type: 'string',
      default: '',
      restricted: true,
      readme: "Bedrock's AWS region or Vertex AI's region",
      declared: {
        description:
          "Bedrock's AWS region (else AWS_REGION) or Vertex AI's region (else CLOUD_ML_REGION, e.g. global). Restricted in untrusted workspaces.",
      },
    },
  },
  project: {
    flag: {
      name: 'project',
      section: 'provider',
      value: { kind: 'text' },
      arg: 'ID',
      help: ["Vertex AI's project (else ANTHROPIC_VERTEX_PROJECT_ID, else the credentials')"],
    },
    setting: {
      key: 'project',
      type: 'string',
      default: '',
      restricted: true,
      readme: "Vertex AI's Google Cloud project",
      declared: {
        description:
          "Vertex AI's Google Cloud project (else ANTHROPIC_VERTEX_PROJECT_ID, else the credentials' project). Restricted in untrusted workspaces.",
      },
    },
  },
  profile: {
    flag: {
      name: 'profile',
      section: 'provider',
      value: { kind: 'text' },
      arg: 'NAME',
      help: ['Bedrock: the AWS profile that signs the calls (else AWS_PROFILE, else the default chain)'],
    },
    setting: {
      key: 'profile',
      type: 'string',
      default: '',
      restricted: true,
      readme: "Bedrock's AWS profile",
      declared: {
        description:
          'Bedrock: the AWS profile whose credentials sign the calls (else AWS_PROFILE, else the default chain). Restricted in untrusted workspaces.',
      },
    },
  },
} as const satisfies Record<string, OptionRow>;
