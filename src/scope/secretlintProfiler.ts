/**
 * Stands in for `@secretlint/profiler` in every bundle (the alias is in esbuild.mjs). secretlint's profiler
 * keeps every performance mark it ever saw, searches them linearly on each new one, and leaves them in
 * the process's global timeline: on a large tree that is quadratic time, and a leak in the long-lived
 * extension worker. Skeptic never reads the profile, so marking does nothing here.
 */
export const secretLintProfiler = {
  mark(): void {},
};
