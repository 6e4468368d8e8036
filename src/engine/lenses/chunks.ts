/**
 * Large scopes are split into chunks under a token budget, and under what the models' windows leave beside a
 * request without files; every reviewer runs once per chunk, and all reviewers of a chunk share its prefix.
 * Files keep their (sorted) order, so a chunk's prefix is stable.
 */
import { sourceBlock, type SourceFile } from '../source';
import { estimateTextTokens } from '../window';

export const DEFAULT_CHUNK_TOKENS = 120_000;

export interface Chunk {
  /** 1-based. */
  index: number;
  of: number;
  files: SourceFile[];
}

/** Roughly what a numbered source block (with its removed lines) costs: four characters a token, plus the line-number prefix. */
export function sourceTokens(file: SourceFile): number {
  const removed = (file.removed ?? []).reduce((n, r) => n + r.lines.reduce((m, l) => m + l.length + 1, 0), 0);
  return Math.ceil((file.text.length + removed) / 4) + 2 * file.lines.length;
}

/** What a file's source block adds to a request by the window guard's estimate (engine/window.ts). */
const windowTokens = (file: SourceFile) => estimateTextTokens(sourceBlock(file, 'primary'));

/**
 * Packs files in order, starting a new chunk when the next file would pass the budget or, by the window
 * guard's estimate, the room the windows leave; a file over either alone gets its own (and its reviewers
 * are refused as too long, never sent cut).
 */
export function chunkFiles(files: SourceFile[], budget = DEFAULT_CHUNK_TOKENS, room = Infinity): Chunk[] {
  const groups: SourceFile[][] = [];
  let size = 0;
  let inWindow = 0;
  for (const file of files) {
    const t = sourceTokens(file);
    const w = room === Infinity ? 0 : windowTokens(file);
    const last = groups.at(-1);
    if (last && size + t <= budget && inWindow + w <= room) {
      last.push(file);
      size += t;
      inWindow += w;
    } else {
      groups.push([file]);
      size = t;
      inWindow = w;
    }
  }
  return groups.map((g, i) => ({ index: i + 1, of: groups.length, files: g }));
}
