/**
 * What a finding is about, as every record names it (prompts/noise.md lists the same values): the kinds a
 * review reports, and the kinds that are never findings, which the pipeline removes by this label instead of
 * guessing from wording.
 */
import { z } from 'zod';

export const REPORTED_CATEGORIES = [
  'logic',
  'contract',
  'error_handling',
  'resources',
  'concurrency',
  'security',
  'performance',
  'types',
  'design',
  'naming',
  'duplication',
  'readability',
  'testability',
  'documentation',
  'formatting',
  'tests',
  'spec',
] as const;

/** Never findings, each with the reason a removal records. */
export const NOISE_CATEGORIES = {
  tool_reported: 'a linter or formatter warns of it',
  missing_docs: 'a missing docstring, type hint or comment',
  exception_type: 'a request for a narrower exception type',
  missing_tests: 'a missing test the context files do not ask for',
  lint_suppressed: 'silenced by a lint-suppression comment with a reason',
  theoretical_race: 'a theoretical timing or race attack',
  outdated_dependency: 'an outdated dependency',
  hardening: 'missing hardening with no concrete vulnerability',
  denial_of_service: 'generic denial of service or resource exhaustion',
  log_spoofing: 'log spoofing',
  regex_injection: 'regex injection',
  path_only_ssrf: 'request forgery that controls only the path',
  llm_prompt_input: 'user text in a language-model prompt',
  framework_escaped_xss: 'cross-site scripting in output the framework escapes',
  client_side_authorization: 'authorization missing in client-side code',
  open_redirect: 'an open redirect',
  memory_safety: 'a memory-safety claim in a memory-safe language',
} as const;

export type NoiseCategory = keyof typeof NOISE_CATEGORIES;

export const Category = z.enum([...REPORTED_CATEGORIES, ...(Object.keys(NOISE_CATEGORIES) as NoiseCategory[])]);
export type Category = z.infer<typeof Category>;

/**
 * The record field: required, null where no category applies (a clean or na verdict), so a finding cannot
 * skip the noise filter by leaving it out; a reply without it is repaired like any other schema miss.
 */
export const categoryField = () => Category.nullable();
