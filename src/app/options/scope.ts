import type { OptionRow } from './row';

/** The scope flags: what is reviewed, and what is left out. In the help's order. */
export const SCOPE_ROWS = {
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
} as const satisfies Record<string, OptionRow>;
