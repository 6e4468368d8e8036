import { EFFORTS, STAGED_STEPS } from '../../model/models';
import type { OptionRow } from './row';

/** How a review runs: its mode, outputs, models, requests, result cache and context. In the help's order. */
export const RUN_ROWS = {
  mode: {
    flag: {
      name: 'mode',
      section: 'review',
      value: { kind: 'enum', values: ['staged', 'lenses'], default: 'staged' },
      arg: 'MODE',
      help: ['staged (default: the five-step pipeline) | lenses (parallel reviewers, faster)'],
    },
  },
  out: {
    flag: {
      name: 'out',
      section: 'review',
      value: { kind: 'file', ext: /\.md$/, noun: '.md' },
      arg: 'FILE.md',
      help: ['report path (default: code-review-{scope}.md; never overwritten: -v2, -v3…)'],
    },
  },
  json: {
    flag: {
      name: 'json',
      section: 'review',
      value: { kind: 'file', ext: /\.json$/, noun: '.json' },
      arg: 'FILE.json',
      help: ['also write the machine-readable result (never a file under review)'],
    },
  },
  sarif: {
    flag: {
      name: 'sarif',
      section: 'review',
      value: { kind: 'file', ext: /\.sarif(\.json)?$/, noun: '.sarif' },
      arg: 'FILE.sarif',
      help: ['also write the findings as SARIF 2.1.0 (code-scanning tools)'],
    },
  },
  events: {
    flag: {
      name: 'events',
      section: 'review',
      value: { kind: 'text' },
      arg: 'FILE',
      help: [
        'also write every engine event as a JSON line with a timestamp (calls, tokens,',
        'cache reads and writes, cost so far), for dashboards',
      ],
    },
  },
  model: {
    flag: {
      name: 'model',
      section: 'review',
      value: { kind: 'text' },
      arg: 'ID',
      help: ['model for every step (default: per-step defaults)'],
    },
    setting: {
      key: 'model',
      type: 'string',
      default: '',
      restricted: true,
      readme: 'model for every step (and every reviewer)',
      declared: {
        markdownDescription:
          'Model for every review step (empty: Sonnet for steps 1–3, Opus for the challenge and synthesis). Restricted in untrusted workspaces.',
      },
    },
  },
  modelPerStep: {
    flag: {
      name: 'step-model',
      section: 'review',
      mode: 'staged',
      value: { kind: 'pairs', key: 'STEP', names: STAGED_STEPS },
      arg: 'STEP=ID',
      help: ['staged mode: model for one step: curate, analyze, review, challenge, synthesize (repeatable)'],
    },
    setting: {
      key: 'modelPerStep',
      type: 'object',
      default: {},
      restricted: true,
      readme: 'model per staged step',
      declared: {
        markdownDescription:
          'Model per step, e.g. `{ "challenge": "claude-opus-5-5" }`. Steps: `curate`, `analyze`, `review`, `challenge`, `synthesize`.',
        additionalProperties: { type: 'string' },
      },
    },
  },
  maxConcurrency: {
    limit: { default: 8, min: 1, max: 64 },
    flag: {
      name: 'concurrency',
      section: 'review',
      value: { kind: 'count' },
      arg: 'N',
      help: ['concurrent model requests (default {default})'],
    },
    setting: {
      key: 'maxConcurrency',
      type: 'integer',
      readme: 'model requests in flight (default {default})',
      declared: { description: 'Model requests in flight at once.' },
    },
  },
  requestTimeout: {
    limit: { default: 300, min: 1, max: 3600 },
    flag: {
      name: 'timeout',
      section: 'review',
      value: { kind: 'count' },
      arg: 'SECONDS',
      help: ['per request attempt (default {default})', 'under --batch: the same as --batch-timeout, as it always was'],
    },
    setting: {
      key: 'requestTimeout',
      type: 'integer',
      readme: 'seconds per request attempt (default {default})',
      declared: { description: 'Seconds one model request attempt may take before it is abandoned and retried.' },
    },
  },
  maxAttempts: {
    limit: { default: 6, min: 1, max: 20 },
    flag: {
      name: 'max-attempts',
      section: 'review',
      value: { kind: 'count' },
      arg: 'N',
      help: [
        'attempts per request, the first included; rate limits, overload and dropped',
        'connections are retried with backoff (default {default}); with --batch, a result that',
        'expired or was canceled is not counted (--batch-timeout bounds those)',
      ],
    },
    setting: {
      key: 'maxAttempts',
      type: 'integer',
      readme: 'attempts per request (default {default})',
      declared: {
        description:
          'Attempts per model request, the first included: rate limits, overload and dropped connections are retried with backoff.',
      },
    },
  },
  effort: {
    flag: {
      name: 'effort',
      section: 'review',
      value: { kind: 'enum', values: EFFORTS },
      arg: 'LEVEL',
      help: ["low | medium | high | xhigh | max (default: the model's; xhigh in lens mode)"],
    },
    setting: {
      key: 'effort',
      type: 'string',
      default: '',
      readme: 'effort level sent to the model',
      declared: {
        enum: ['', 'low', 'medium', 'high', 'xhigh', 'max'],
        description: "Effort level sent to the model (empty: the model's default).",
      },
    },
  },
  cacheDir: {
    flag: {
      name: 'cache-dir',
      section: 'review',
      value: { kind: 'text' },
      arg: 'DIR',
      help: [
        'where finished units are kept and reused when the code, prompt and model are',
        'unchanged (a rerun costs no calls; an interrupted run resumes). Default: this',
        "repository's folder under ~/.cache/skeptic (XDG_CACHE_HOME), shared with the extension",
      ],
    },
  },
  cacheResults: {
    flag: {
      name: 'no-cache',
      section: 'review',
      value: { kind: 'switch' },
      negated: true,
      help: ['ask the model for every unit and keep nothing'],
    },
    setting: {
      key: 'cacheResults',
      type: 'boolean',
      default: true,
      readme: 'keep finished units and reuse them: unchanged code is not paid for twice (default on)',
      declared: {
        description:
          'Keep finished review units and reuse them when the code, prompts and model are unchanged: re-reviewing unchanged code costs no calls, and an interrupted review resumes.',
      },
    },
  },
  refresh: {
    flag: {
      name: 'refresh',
      section: 'review',
      value: { kind: 'switch' },
      help: [
        'ask again the units the cache keeps as salvaged (part of an answer kept after its',
        'repair turns) or failed after the model answered; unchanged input is otherwise not',
        'asked twice, whatever the answer was; and asks a base-URL endpoint again for what',
        'it refused before (docs/providers.md)',
      ],
    },
  },
  contextFiles: {
    flag: {
      name: 'context-file',
      section: 'review',
      value: { kind: 'list' },
      arg: 'FILE',
      help: ['extra project context for every call (repeatable)'],
    },
    setting: {
      key: 'contextFiles',
      type: 'array',
      default: [],
      restricted: true,
      readme: 'more project context for every call',
      declared: {
        items: { type: 'string' },
        description:
          'More project context files sent with every call (CLAUDE.md, AGENTS.md and .github/copilot-instructions.md are always used). Restricted in untrusted workspaces.',
      },
    },
  },
  intent: {
    flag: {
      name: 'intent',
      section: 'review',
      value: { kind: 'text' },
      arg: 'FILE|TEXT',
      help: [
        'what the change is for (a file, else the text), quoted to the reviewers as data and cut',
        "to 4000 characters; default: a pull request's title and description, or for --base the",
        "range's commit subjects",
      ],
    },
  },
  prices: {
    flag: {
      name: 'prices',
      section: 'review',
      value: { kind: 'text' },
      arg: 'FILE',
      help: [
        'JSON price overrides in dollars per million tokens, by model ID or family:',
        '{"opus": {"input": 5, "output": 25}} (cost figures use a dated list otherwise);',
        '"context_window": TOKENS sets a model\'s window (default 200000, 1M for the',
        'models that have it), which every request is checked against before it is sent',
      ],
    },
    setting: {
      key: 'prices',
      type: 'object',
      default: {},
      readme: 'price overrides (the flag names a JSON file of the same map)',
      declared: {
        markdownDescription:
          'Price overrides for the cost figures, in US dollars per million tokens, by model ID or family, e.g. `{ "opus": { "input": 5, "output": 25 } }` (optional `cache_write`, `cache_read`; default 1.25× and 0.1× of input). Unset models use the built-in dated list prices. A row may also set the model\'s `context_window` in tokens (alone or beside a price; default 200000, 1M for the models that have it), which every request is checked against before it is sent.',
        additionalProperties: {
          type: 'object',
          properties: {
            input: { type: 'number', minimum: 0 },
            output: { type: 'number', minimum: 0 },
            cache_write: { type: 'number', minimum: 0 },
            cache_read: { type: 'number', minimum: 0 },
          },
          required: ['input', 'output'],
        },
      },
    },
  },
} as const satisfies Record<string, OptionRow>;
