/**
 * Which reviewers a scope gets. The three defaults always run; with --full-fanout the extras join when
 * the scope calls for them, judged per language rather than by TypeScript file patterns alone. The list
 * is capped by --max-reviewers, defaults first, extras in EXTRA_REVIEWERS order.
 */
import { languageOf } from '../../model/languages';
import type { RoutingDecision } from '../../model/lens';
import type { SourceFile } from '../source';
import { DEFAULT_REVIEWERS, EXTRA_REVIEWERS, type ExtraReviewer, type ReviewerName } from '../../model/reviewers';

export interface RoutingInput {
  files: SourceFile[];
  fullFanout: boolean;
  maxReviewers: number;
  /** Change scopes: added plus removed lines. Undefined for a path scope. */
  changedLines?: number;
  /** A spec file or a PR description is available. */
  hasSpec: boolean;
}

export interface Routing {
  reviewers: ReviewerName[];
  decisions: RoutingDecision[];
}

/** Change scopes over this many changed lines, or path scopes over this many files, get the comments reviewer. */
const COMMENTS_MIN_LINES = 50;
const COMMENTS_MIN_FILES = 10;

const STATIC_LANGUAGES = new Set([
  'typescript',
  'java',
  'kotlin',
  'csharp',
  'rust',
  'go',
  'swift',
  'c',
  'cpp',
  'scala',
  'dart',
  'fs',
  'hs',
  'zig',
  'ml',
  'elm',
]);
const CODE_LANGUAGES = new Set([
  ...STATIC_LANGUAGES,
  'javascript',
  'python',
  'ruby',
  'php',
  'shell',
  'lua',
  'pl',
  'r',
  'ex',
  'exs',
  'clj',
  'erl',
  'groovy',
  'vue',
  'svelte',
]);
/** Gradual typing: Python with annotations or the typing module, PHP with declared types. */
const GRADUAL_TYPES: Record<string, RegExp> = {
  python: /^\s*(?:from typing import|import typing\b)|\)\s*->\s*[\w[]/m,
  php: /function\s+\w+\s*\([^)]*\)\s*:\s*\??\w+|declare\s*\(\s*strict_types/,
};
/** Error handling a silent-failure reviewer has something to judge in, across languages. */
const ERROR_HANDLING = [
  /\bcatch\b|\.catch\s*\(|\btry\s*[:{(]|\bfinally\b/, // JS/TS, Java, C#, Kotlin, Swift, PHP, C++, Python's try:
  /^\s*except\b|\brescue\b|\bensure\b/m, // Python, Ruby
  /\berr\s*!=\s*nil\b|,\s*_\s*:?=\s*\w|^\s*_\s*=\s*\w|\brecover\(\)/m, // Go: handled, ignored or recovered errors
  /\bErr\(|\.ok\(\)|\blet\s+_\s*=|\.unwrap_or/, // Rust
  /\|\|\s*true\b|2>\s*\/dev\/null|\bset\s+\+e\b/, // shell
];
const TEST_FILE = [
  /\.(test|spec)\.[^./]+$/,
  /(^|\/)test_[^/]+\.py$/,
  /_test\.[^./]+$/,
  /_spec\.rb$/,
  /(Test|Tests|IT)\.(java|kt|cs|scala)$/,
  /(^|\/)(tests?|__tests__|spec)\//,
];

export const isTestFile = (path: string) => TEST_FILE.some((re) => re.test(path));
export const isCode = (path: string) => CODE_LANGUAGES.has(languageOf(path));

export function routeReviewers(input: RoutingInput): Routing {
  const decisions: RoutingDecision[] = DEFAULT_REVIEWERS.map((reviewer) => ({
    reviewer,
    routed: true,
    reason: 'always runs',
  }));
  if (input.fullFanout)
    for (const reviewer of EXTRA_REVIEWERS) decisions.push({ reviewer, ...extraRule(reviewer, input) });
  let kept = 0;
  for (const d of decisions) {
    if (!d.routed) continue;
    if (kept < input.maxReviewers) kept++;
    else Object.assign(d, { routed: false, reason: `${d.reason}, but over --max-reviewers ${input.maxReviewers}` });
  }
  return { reviewers: decisions.filter((d) => d.routed).map((d) => d.reviewer), decisions };
}

function extraRule(
  reviewer: ExtraReviewer,
  { files, changedLines, hasSpec }: RoutingInput,
): { routed: boolean; reason: string } {
  const code = files.filter((f) => isCode(f.path));
  switch (reviewer) {
    case 'types': {
      const typed = code.filter(
        (f) => STATIC_LANGUAGES.has(languageOf(f.path)) || GRADUAL_TYPES[languageOf(f.path)]?.test(f.text),
      );
      return typed.length
        ? { routed: true, reason: `typed code: ${languagesOf(typed)}` }
        : { routed: false, reason: 'no statically or gradually typed code' };
    }
    case 'silent-failures': {
      const handling = code.filter((f) => ERROR_HANDLING.some((re) => re.test(f.text)));
      return handling.length
        ? { routed: true, reason: `error handling in ${count(handling.length)}` }
        : { routed: false, reason: 'no error handling in the code' };
    }
    case 'spec-compliance':
      return hasSpec
        ? { routed: true, reason: 'a spec is given' }
        : { routed: false, reason: 'no spec (--spec FILE, or a PR description)' };
    case 'comments':
      if (changedLines !== undefined) {
        return changedLines > COMMENTS_MIN_LINES
          ? { routed: true, reason: `${changedLines} changed lines` }
          : { routed: false, reason: `${changedLines} changed lines (needs > ${COMMENTS_MIN_LINES})` };
      }
      return files.length > COMMENTS_MIN_FILES
        ? { routed: true, reason: count(files.length) }
        : { routed: false, reason: `${count(files.length)} (needs > ${COMMENTS_MIN_FILES})` };
    case 'tests': {
      const sources = code.filter((f) => !isTestFile(f.path));
      return sources.length
        ? { routed: true, reason: `${sources.length} non-test source ${sources.length === 1 ? 'file' : 'files'}` }
        : { routed: false, reason: 'no non-test source files' };
    }
  }
}

const count = (n: number) => `${n} ${n === 1 ? 'file' : 'files'}`;

function languagesOf(files: SourceFile[]): string {
  return [...new Set(files.map((f) => languageOf(f.path)))].join(', ');
}
