/** The CLI's exit codes and its one error type: a usage or setup problem (exit 2, one line). */
export class UsageError extends Error {}

export const EXIT = { ok: 0, findings: 1, usage: 2, incomplete: 3, interrupted: 130, terminated: 143 } as const;
