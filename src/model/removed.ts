/**
 * Lines a change removed, kept per hunk so the reviewer sees what is gone (a guard, a lock, an `await`), not
 * only what is new. Numbered on the base side; `before` places the removal among the new file's lines.
 */
export interface RemovedHunk {
  /** Base-side number of the first removed line. */
  base: number;
  /** The new file's line the removal sits before (one past the last line when it sits at the end). */
  before: number;
  /** The first removed lines, at most REMOVED_CAPS.hunkLines of them. */
  lines: string[];
  /** Removed lines of this hunk beyond `lines`: counted, not kept. */
  omitted: number;
  /**
   * A file the change deleted, when this run is its text shown beside a file that still names what it defined
   * (app/deletedFiles.ts); `before` then means nothing.
   */
  from?: string;
}

/** How much removed text one file sends: what is over is counted and said, never sent. */
export const REMOVED_CAPS = { hunkLines: 80, fileLines: 400, fileChars: 24_000, lineChars: 400 } as const;
