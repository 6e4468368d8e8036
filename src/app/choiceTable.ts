/**
 * Every option of a review, one row each: what a user can choose (a ReviewChoices field, under the one name it
 * keeps from the setting and the flag to the engine) and the flags `skeptic review` and `skeptic plan` take for
 * themselves (`command`). A row says the choice's default and range (`limit`), its flag (how it is parsed, its
 * line in the help), and its VS Code setting (its package.json declaration and its line in the README).
 *
 * Everything else is made from this table: the setting keys the extension reads (app/contributions.ts), the
 * flags cli/args.ts parses and cli/help.ts lists, the flags `skeptic eval` shares with review, buildJob's
 * defaults and ranges, and `settingsContribution()`, which package.json's `contributes.configuration` must
 * equal (package.json stays a static file: test/unit/contributions.test.ts holds the two, and the README's
 * table, to this one). Adding a flag or a setting is adding a row.
 */
import { EFFORTS, STAGED_STEPS } from '../model/models';
import { PRIORITY_ORDER } from '../model/order';
import { DEFAULT_REVIEWERS, LENS_ROLES, MAX_REVIEWERS } from '../model/reviewers';

/** A number's default and range: a flag outside it is refused, a setting outside it is clamped. */
export interface Limit {
  readonly default: number;
  readonly min: number;
  readonly max: number;
}

/** What a flag's value is, which says how the CLI parses and checks it (cli/flagValues.ts). */
export type FlagValue =
  | { readonly kind: 'switch' | 'text' | 'list' | 'dollars' }
  /** A whole number within the row's limit. */
  | { readonly kind: 'count' }
  /** "24h", "90m", "45s" or seconds, within the row's limit. */
  | { readonly kind: 'duration' }
  /** A path whose name ends as `ext` says (machine outputs are rewritten on every run). */
  | { readonly kind: 'file'; readonly ext: RegExp; readonly noun: string }
  | { readonly kind: 'enum'; readonly values: readonly string[]; readonly default?: string }
  /** Repeatable KEY=ID, KEY one of `names`. */
  | { readonly kind: 'pairs'; readonly key: string; readonly names: readonly string[] }
  /** Read by its command before these flags are parsed (review's --format, the CLI's --version): help only. */
  | { readonly kind: 'elsewhere' };

export interface FlagRow {
  readonly name: string;
  /** Where the help lists it. */
  readonly section: 'scope' | 'review' | 'lens' | 'provider';
  readonly value: FlagValue;
  /** How the help shows the value: `--concurrency N`. */
  readonly arg?: string;
  /** The help's label when it is not `--name ARG`. */
  readonly label?: string;
  readonly short?: string;
  /** The flag turns the choice off (`--no-cache`). */
  readonly negated?: true;
  /** Only in this mode: given in the other, the flag is refused. */
  readonly mode?: 'staged' | 'lenses';
  /** Only beside this other option's flag. */
  readonly needs?: string;
  /** The help's lines; `{default}` is the row's default. */
  readonly help: readonly string[];
}

export interface SettingRow {
  /** Under `skeptic.`. */
  readonly key: string;
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';
  /** The row's limit gives a number's. */
  readonly default?: unknown;
  /** In an untrusted workspace, read from the user's settings only. */
  readonly restricted?: true;
  /** A setting that is never a flag: what the command line has instead. */
  readonly instead?: string;
  /** The host's choice, not the run's: never sent to the worker, never a flag. */
  readonly host?: true;
  /** What it chooses, in the README's table; `{default}` is the row's default. */
  readonly readme: string;
  /** The rest of its package.json declaration (description, enum, …). */
  readonly declared: Readonly<Record<string, unknown>>;
}

export interface OptionRow {
  /** A flag of the command itself, not a choice the job takes. */
  readonly command?: true;
  readonly limit?: Limit;
  readonly flag?: FlagRow;
  readonly setting?: SettingRow;
}

/** In the help's order; rows without a flag last. */
export const OPTIONS = {
  changes: {
    command: true,
    flag: {
      name: 'changes',
      section: 'scope',
      value: { kind: 'switch' },
      help: ['uncommitted changes (git diff HEAD) plus untracked files'],
    },
  },
  includeUntracked: {
    flag: {
      name: 'no-untracked',
      section: 'scope',
      value: { kind: 'switch' },
      negated: true,
      help: ['with --changes: leave untracked files out'],
    },
    setting: {
      key: 'includeUntracked',
      type: 'boolean',
      default: true,
      readme: 'untracked files count as uncommitted changes (default on)',
      declared: { description: 'Review Uncommitted Changes includes untracked files.' },
    },
  },
  staged: {
    command: true,
    flag: {
      name: 'staged',
      section: 'scope',
      value: { kind: 'switch' },
      help: ['staged changes only'],
    },
  },
  base: {
    command: true,
    flag: {
      name: 'base',
      section: 'scope',
      value: { kind: 'text' },
      arg: 'REF',
      help: ["the branch's changes since its merge-base with REF"],
    },
  },
  pr: {
    command: true,
    flag: {
      name: 'pr',
      section: 'scope',
      value: { kind: 'text' },
      arg: 'N',
      help: ['a GitHub pull request, through the gh CLI'],
    },
  },
  force: {
    flag: {
      name: 'force',
      section: 'scope',
      value: { kind: 'switch' },
      help: ['review a change even under 5 changed lines, or a draft/merged/closed PR'],
    },
  },
  excludes: {
    flag: {
      name: 'exclude',
      section: 'scope',
      value: { kind: 'list' },
      arg: 'GLOB',
      help: ['leave matching files out (repeatable)'],
    },
    setting: {
      key: 'excludes',
      type: 'array',
      default: [],
      readme: 'globs never reviewed',
      declared: {
        items: { type: 'string' },
        description: 'Globs (relative to the workspace folder) of files never reviewed.',
      },
    },
  },
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
  yes: {
    command: true,
    flag: {
      name: 'yes',
      section: 'review',
      value: { kind: 'switch' },
      short: 'y',
      help: ['do not ask before a large run'],
    },
  },
  confirmThreshold: {
    limit: { default: 300, min: 0, max: 1_000_000 },
    flag: {
      name: 'confirm-over',
      section: 'review',
      value: { kind: 'count' },
      arg: 'N',
      help: ['ask first when the estimate exceeds N model calls (default {default})'],
    },
    setting: {
      key: 'confirmThreshold',
      type: 'integer',
      readme: 'ask before a run estimated above this many calls (default {default})',
      declared: { description: 'Ask before a review estimated at more model calls than this.' },
    },
  },
  maxCalls: {
    limit: { default: 0, min: 0, max: 1_000_000 },
    flag: {
      name: 'max-calls',
      section: 'review',
      value: { kind: 'count' },
      arg: 'N',
      help: [
        'stop the run after N model requests, failed ones included, and write a partial',
        'report (exit 3); default 0: no ceiling (each unit is capped anyway)',
      ],
    },
    setting: {
      key: 'maxCalls',
      type: 'integer',
      readme: "ceiling on a run's model requests (0: none)",
      declared: {
        description:
          'Stop a review after this many model requests (failed ones included) and show what finished; 0: no ceiling (each review unit is capped anyway).',
      },
    },
  },
  maxCostUsd: {
    limit: { default: 0, min: 0, max: 1_000_000 },
    flag: {
      name: 'max-cost',
      section: 'review',
      value: { kind: 'dollars' },
      arg: 'USD',
      help: [
        'a dollar ceiling: a run whose cheapest estimate is over it is refused before any call',
        '(exit 2); otherwise it stops before the call that would pass it and writes a partial',
        'report saying what was not reviewed (exit 3)',
      ],
    },
    setting: {
      key: 'maxCostUsd',
      type: 'number',
      readme:
        "ceiling on a run's spend in US dollars: refused at once when the cheapest estimate is over it, else stopped before the call that would pass it, with a partial report; refused with `vscode-lm`, which the editor's plan bills (0: none)",
      declared: {
        description:
          'Stop a review before the model call that would take its spend past this many US dollars, and show what finished; a review whose cheapest estimate is already over it does not start. With skeptic.provider "vscode-lm" (billed by the editor\'s plan, not in dollars) a review with a ceiling is refused: use skeptic.maxCalls. 0: no ceiling.',
      },
    },
  },
  minPriority: {
    flag: {
      name: 'min-priority',
      section: 'review',
      value: { kind: 'enum', values: PRIORITY_ORDER },
      arg: 'LEVEL',
      help: [
        'must_fix | should_fix | nice_to_have: leave the findings below it out of the summary,',
        "the report's list, --json findings and SARIF (the notes and --json's",
        'below_min_priority count them); default: all. skeptic ci: the lowest posted inline',
      ],
    },
    setting: {
      key: 'minPriority',
      type: 'string',
      default: '',
      readme:
        "what is shown and written: findings below this priority are left out of the summary, the report's list, `--json` `findings`, SARIF and the Problems panel, and counted in the report's notes and `--json` `below_min_priority` (empty: all). `skeptic ci`: the lowest priority posted inline (default `should_fix`; the rest is listed briefly in the summary comment)",
      declared: {
        enum: ['', 'must_fix', 'should_fix', 'nice_to_have'],
        description:
          "Show only findings of this priority or higher (empty: all). The findings below it are left out of the Problems panel, the report's list, the JSON and SARIF, and counted in the report's notes.",
      },
    },
  },
  format: {
    command: true,
    flag: {
      name: 'format',
      section: 'review',
      value: { kind: 'elsewhere' },
      arg: 'agent',
      help: [
        'review: print only one line per finding (new first, its fix prompt as a JSON',
        'string) and a verdict line; exit 0 converged (complete, nothing new since the last',
        'review of the same scope), 1 new findings, 2 usage or setup error, 3 incomplete',
      ],
    },
  },
  batch: {
    flag: {
      name: 'batch',
      section: 'review',
      value: { kind: 'switch' },
      help: [
        'through the Message Batches API at half price: each round sends every request that',
        'is ready and waits for its batch (most end within the hour, all within 24h); Ctrl-C',
        'leaves them running and the same command run again collects them instead of paying',
        '(not with --refresh or --no-cache, which ask again); skeptic batches --cancel stops them',
      ],
    },
    setting: {
      key: 'batch',
      type: 'boolean',
      default: false,
      readme: 'through the Message Batches API at half price (the extension: files and folders only)',
      declared: {
        markdownDescription:
          'Review files and folders through the Message Batches API: half the price, the answers usually within the hour and at most a day later (see `#skeptic.batchTimeout#`). Reviews of changes stay live. Cancelling leaves the submitted batches running; the next review of the same files collects them instead of paying again (`skeptic batches --cancel` stops them).',
      },
    },
  },
  batchTimeout: {
    limit: { default: 86_400, min: 1, max: 259_200 },
    flag: {
      name: 'batch-timeout',
      section: 'review',
      value: { kind: 'duration' },
      arg: 'DURATION',
      needs: 'batch',
      help: [
        'with --batch: how long the whole run may take (90m, 24h or seconds; default 24h,',
        'the time a batch has before it expires: an expired request gets another round only',
        'under a longer one, e.g. 48h); --timeout under --batch means the same, as before',
      ],
    },
    setting: {
      key: 'batchTimeout',
      type: 'integer',
      readme: 'seconds a whole batch run may take (default 24h; `--batch --timeout` means the same)',
      declared: {
        description:
          'Seconds a review through the Message Batches API may take in all; then it reports what is still missing, and its batches stay collectable by the next review. The default (24 hours) is also the time a batch has before it expires, so an expired request gets another round only under a longer limit.',
      },
    },
  },
  verbose: {
    command: true,
    flag: {
      name: 'verbose',
      section: 'review',
      value: { kind: 'switch' },
      short: 'v',
      label: '-v, --verbose',
      help: ['plan: list every file and exclusion, not only the counts'],
    },
  },
  help: {
    command: true,
    flag: {
      name: 'help',
      section: 'review',
      value: { kind: 'switch' },
      short: 'h',
      label: '-h, --help',
      help: ['this text'],
    },
  },
  version: {
    command: true,
    flag: {
      name: 'version',
      section: 'review',
      value: { kind: 'elsewhere' },
      label: '-V, --version',
      help: ['the version of skeptic'],
    },
  },
  fullFanout: {
    flag: {
      name: 'full-fanout',
      section: 'lens',
      mode: 'lenses',
      value: { kind: 'switch' },
      help: [
        'also route types, silent-failures, spec-compliance, comments and tests reviewers',
        'where the scope calls for them, then validate each CRITICAL/HIGH finding (up to 10)',
      ],
    },
    setting: {
      key: 'quickReview.fullFanout',
      type: 'boolean',
      default: false,
      readme: 'Quick Review: the routed extra reviewers and validation',
      declared: {
        markdownDescription:
          'Quick Review: also run the routed extra reviewers (silent failures, types, spec compliance, comments, tests) and validate CRITICAL/HIGH findings. More thorough, more calls.',
      },
    },
  },
  maxReviewers: {
    limit: { default: DEFAULT_REVIEWERS.length, min: 1, max: MAX_REVIEWERS },
    flag: {
      name: 'max-reviewers',
      section: 'lens',
      mode: 'lenses',
      value: { kind: 'count' },
      arg: 'N',
      help: ['cap on reviewers (default {default}; 8 with --full-fanout)'],
    },
  },
  reviewerModels: {
    flag: {
      name: 'reviewer-model',
      section: 'lens',
      mode: 'lenses',
      value: { kind: 'pairs', key: 'NAME', names: LENS_ROLES },
      arg: 'NAME=ID',
      help: [
        'model for one role: security, logic, performance, types, silent-failures,',
        'spec-compliance, comments, tests, validator, cross-repo (repeatable; --model sets all)',
      ],
    },
    setting: {
      key: 'quickReview.reviewerModels',
      type: 'object',
      default: {},
      restricted: true,
      readme: 'model per lens reviewer (`skeptic.model` overrides them all)',
      declared: {
        markdownDescription:
          'Quick Review: model per reviewer, e.g. `{ "performance": "claude-sonnet-5-5" }` (`security`, `logic`, `performance`, the extras, `validator`, `cross-repo`). `skeptic.model` overrides them all. Restricted in untrusted workspaces.',
        additionalProperties: { type: 'string' },
      },
    },
  },
  spec: {
    flag: {
      name: 'spec',
      section: 'lens',
      mode: 'lenses',
      value: { kind: 'text' },
      arg: 'FILE',
      help: [
        "spec or acceptance criteria for the spec-compliance reviewer (a PR's description",
        'serves when none is given)',
      ],
    },
  },
  rubric: {
    flag: {
      name: 'rubric',
      section: 'lens',
      mode: 'lenses',
      value: { kind: 'text' },
      arg: 'FILE',
      help: ['mark the criteria tagged "Evaluator: skeptic" PASS or FAIL in the report'],
    },
  },
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

export type OptionName = keyof typeof OPTIONS;
export const OPTION_ROWS = Object.entries(OPTIONS) as Array<[OptionName, OptionRow]>;

/** package.json's `contributes.configuration.properties`, as the rows declare them. */
export function settingsContribution(): Record<string, unknown> {
  return Object.fromEntries(
    OPTION_ROWS.flatMap(([, { setting, limit }]) => {
      if (!setting) return [];
      const range = limit && { default: limit.default, minimum: limit.min, maximum: limit.max };
      const declared = {
        type: setting.type,
        default: setting.default,
        ...range,
        scope: 'resource',
        ...setting.declared,
      };
      return [[`skeptic.${setting.key}`, declared]];
    }),
  );
}

/** The settings an untrusted workspace reads from the user's settings only (package.json repeats them). */
export const RESTRICTED_SETTINGS = OPTION_ROWS.flatMap(([, r]) => (r.setting?.restricted ? [r.setting.key] : []));
