/**
 * Each file's functions from Step 0's parser, as data for the engine (which may not import scope) and for
 * the estimate and `skeptic plan`. Parsed once per scope: the estimate and the run share the result.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { FileEntry } from '../model/records';
import { Semaphore } from '../model/semaphore';
import type { FunctionInventory } from '../model/functions';
import { functionInventory } from '../scope/syntax/finder';

export type Inventories = Map<string, FunctionInventory>;

const parsed = new WeakMap<FileEntry[], Promise<Inventories>>();

/** Files without a grammar or a fallback have no entry; a file that cannot be read has none either (the run reports it). */
export function inventoriesOf(cwd: string, entries: FileEntry[]): Promise<Inventories> {
  let found = parsed.get(entries);
  if (!found) {
    found = parseAll(cwd, entries);
    parsed.set(entries, found);
  }
  return found;
}

async function parseAll(cwd: string, entries: FileEntry[]): Promise<Inventories> {
  const io = new Semaphore(16);
  const pairs = await Promise.all(
    entries.map((e) =>
      io.run(async () => {
        const text = await readFile(resolve(cwd, e.path), 'utf8').catch(() => null);
        const inventory = text === null ? null : await functionInventory(e.path, text);
        return inventory ? ([e.path, inventory] as const) : null;
      }),
    ),
  );
  return new Map(pairs.filter((p) => p !== null));
}
