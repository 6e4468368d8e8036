/**
 * Step 0's files as they are judged: a run starts on each file as soon as its own verdict is in, instead of
 * waiting for the last file of the scope (scope/inventory.ts makes them, engine/staged/pipeline.ts reads them).
 */
import type { DiscoveryResult, FileEntry } from './records';

export interface FileStream {
  review_roots: string[];
  /** Every file Step 0 judges, in the order a review takes those it keeps. */
  candidates: string[];
  /** The candidate's entry (by its place in `candidates`) once Step 0 has judged it; null when it is left out. */
  entry(index: number): Promise<FileEntry | null>;
}

/** A finished inventory as a stream whose every verdict is in. */
export function streamOf(discovery: DiscoveryResult): FileStream {
  const entries = discovery.file_entries;
  return {
    review_roots: discovery.review_roots,
    candidates: entries.map((e) => e.path),
    entry: (index) => Promise.resolve(entries[index] ?? null),
  };
}

/** How many of the files Step 0 keeps, counted up to `most`: resolves as soon as that many are in, or all are. */
export function keptUpTo(files: FileStream, most: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let kept = 0;
    let judged = 0;
    const total = files.candidates.length;
    if (total === 0 || most <= 0) return resolve(0);
    for (let i = 0; i < total; i++)
      void files.entry(i).then((entry) => {
        if (entry) kept++;
        if (kept >= most || ++judged === total) resolve(Math.min(kept, most));
      }, reject);
  });
}
