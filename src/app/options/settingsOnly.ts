import type { OptionRow } from './row';

/** Settings that are never a flag: each says what stands instead, or that it is the host's. In the help's order. */
export const SETTING_ONLY_ROWS = {
  baseUrl: {
    setting: {
      key: 'baseUrl',
      type: 'string',
      default: '',
      restricted: true,
      instead: 'ANTHROPIC_BASE_URL',
      readme: 'the API endpoint',
      declared: {
        description:
          "The provider's endpoint, e.g. a gateway (empty: the provider's own, or ANTHROPIC_BASE_URL, ANTHROPIC_BEDROCK_BASE_URL, ANTHROPIC_VERTEX_BASE_URL). Restricted in untrusted workspaces.",
      },
    },
  },
  reportFolder: {
    setting: {
      key: 'reportFolder',
      type: 'string',
      default: '',
      instead: '--out',
      readme: 'where reports go (default `.skeptic/reports`; the CLI writes beside the work)',
      declared: {
        description:
          'Folder for reports, relative to the workspace folder (empty: .skeptic/reports, a folder that keeps itself out of git).',
      },
    },
  },
  severityMap: {
    setting: {
      key: 'severityMap',
      type: 'object',
      default: { must_fix: 'error', should_fix: 'warning', nice_to_have: 'information' },
      host: true,
      readme: 'Problems-panel severity per priority',
      declared: {
        description: 'Problems-panel severity per finding priority.',
        properties: {
          must_fix: { type: 'string', enum: ['error', 'warning', 'information', 'hint'] },
          should_fix: { type: 'string', enum: ['error', 'warning', 'information', 'hint'] },
          nice_to_have: { type: 'string', enum: ['error', 'warning', 'information', 'hint'] },
        },
        additionalProperties: false,
      },
    },
  },
} as const satisfies Record<string, OptionRow>;
