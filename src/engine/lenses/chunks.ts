/**
 * Large scopes are split into chunks under a token budget; every reviewer runs once per chunk, and all
 * reviewers of a chunk share its prefix. Files keep their (sorted) order, so a chunk's prefix is stable.
 */
import type { SourceFile } from '../source';

export const DEFAULT_CHUNK_TOKENS = 120_000;

export interface Chunk {
  /** 1-based. */
  index: number;
  of: number;
  files: SourceFile[];
}

/** Roughly what a numbered source block costs: four characters a token, plus the line-number prefix. */
export function sourceTokens(file: SourceFile): number {
  return Math.ceil(file.text.length / 4) + 2 * file.lines.length;
}

/** Packs files in order, starting a new chunk when the next file would pass the budget; a file over it alone gets its own. */
export function chunkFiles(files: SourceFile[], budget = DEFAULT_CHUNK_TOKENS): Chunk[] {
  const groups: SourceFile[][] = [];
  let size = 0;
  for (const file of files) {
    const t = sourceTokens(file);
    const last = groups.at(-1);
    if (last && size + t <= budget) {
      last.push(file);
      size += t;
    } else {
      groups.push([file]);
      size = t;
    }
  }
  return groups.map((g, i) => ({ index: i + 1, of: groups.length, files: g }));
}
