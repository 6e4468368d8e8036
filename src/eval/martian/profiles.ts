/**
 * The Martian benchmark's scoring profiles, for data whose golden comments carry a category: each profile
 * counts the golden comments of some categories (true positives and misses) and leaves the rest out, while
 * every candidate still counts for precision. Named as the benchmark names them; `core` is its default.
 */
export const PROFILES = {
  strict: ['bug', 'security', 'concurrency', 'data', 'api'],
  core: ['bug', 'security', 'concurrency', 'data', 'api', 'perf', 'test_gap', 'doc_defect'],
  all: ['bug', 'security', 'concurrency', 'data', 'api', 'perf', 'test_gap', 'doc_defect', 'style', 'speculative'],
} as const;
export type ProfileName = keyof typeof PROFILES;
export const PROFILE_NAMES = Object.keys(PROFILES) as ProfileName[];
export const DEFAULT_PROFILE: ProfileName = 'core';

/** Whether a golden comment of this category counts under the profile (null: no profile, every one counts). */
export function inProfile(profile: ProfileName | null, category: string | undefined): boolean {
  return profile === null || (PROFILES[profile] as readonly string[]).includes(category ?? '');
}
