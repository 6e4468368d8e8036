import { PRIORITY_ORDER } from '../../model/order';
import type { OptionRow } from './row';

/** What a run may spend and show, the Message Batches API, and the command's own flags. In the help's order. */
export const LIMIT_ROWS = {
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
} as const satisfies Record<string, OptionRow>;
