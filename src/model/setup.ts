/**
 * The one family of "fix your setup" problems: a key or token missing, a bad config, a scope that cannot be
 * reviewed, an output that would overwrite. Each is one line for the user (exit 2 on the CLI, *Check Setup* in
 * the editor), never a crash; the rooms subclass it where the problem is found (ScopeError, ProviderError,
 * GitError, UnsafeWrite, OverBudget, LedgerRefused).
 */
export class SetupError extends Error {}

/** True for any of the family: what the CLI, the worker and the hook decide on. */
export function isSetupError(err: unknown): err is SetupError {
  return err instanceof SetupError;
}
