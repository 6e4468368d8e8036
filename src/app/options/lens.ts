import { DEFAULT_REVIEWERS, LENS_ROLES, MAX_REVIEWERS } from '../../model/reviewers';
import type { OptionRow } from './row';

/** Lens mode's own choices. In the help's order. */
export const LENS_ROWS = {
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
} as const satisfies Record<string, OptionRow>;
