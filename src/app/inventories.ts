/**
 * Each file's functions from Step 0's parser, as data for the engine (which may not import scope) and for
 * the estimate and `skeptic plan`. Each file is parsed at most once per scope, when first asked for: the
 * estimate asks for every file, a run for each file as its Step 2 comes (so no parse delays the run's first
 * calls), and the two share the result. What a parse found is kept with the file's content (scope/facts.ts):
 * a file whose content was parsed before, here or in an earlier run, is not read again.
 */
import { resolve } from 'node:path';
import type { FileEntry } from '../model/records';
import { Semaphore } from '../model/semaphore';
import type { FunctionInventory } from '../model/functions';
import { languageOf } from '../model/languages';
import { splitLines } from '../model/lines';
import type { ReviewAccess } from '../scope/access';
import { findFunctions } from '../scope/functionFinder';
import { FINDER_VERSION, finderLanguage } from '../scope/syntax/version';

export type Inventories = Map<string, FunctionInventory>;
/** One file's inventory, parsed on first request; undefined for a file without one. */
export type InventoryOf = (path: string) => Promise<FunctionInventory | undefined>;

interface Parses {
  io: Semaphore;
  byPath: Map<string, Promise<FunctionInventory | undefined>>;
  /** Parse on worker threads (scope/syntax/parsePool.ts): worth their start only for a scope of many files. */
  pooled: boolean;
}

/** Scopes of at least this many files are parsed on worker threads; smaller ones here, without starting any. */
const POOL_FROM_FILES = 64;

const memo = new WeakMap<FileEntry[], Parses>();

/** Files without a grammar or a fallback have no entry; a file that cannot be read has none either (the run reports it). */
export async function inventoriesOf(access: ReviewAccess, entries: FileEntry[]): Promise<Inventories> {
  const one = inventoryLookup(access, entries);
  const pairs = await Promise.all(entries.map(async (e) => [e.path, await one(e.path)] as const));
  return new Map(pairs.filter((p): p is readonly [string, FunctionInventory] => p[1] !== undefined));
}

/** The scope's files one at a time, sharing the parses `inventoriesOf` made or will make. */
export function inventoryLookup(access: ReviewAccess, entries: FileEntry[]): InventoryOf {
  let parses = memo.get(entries);
  if (!parses) {
    parses = { io: new Semaphore(16), byPath: new Map(), pooled: entries.length >= POOL_FROM_FILES };
    memo.set(entries, parses);
  }
  const { io, byPath, pooled } = parses;
  return (path) => {
    let found = byPath.get(path);
    if (!found) {
      found = io.run(() => parse(access, path, pooled));
      byPath.set(path, found);
    }
    return found;
  };
}

/**
 * The inventory kept for the file's content as last judged; else a parse of the file read through the run's
 * one confinement rule, like every other read (the file is judged again as it is now).
 */
async function parse(access: ReviewAccess, path: string, pooled: boolean): Promise<FunctionInventory | undefined> {
  const language = finderLanguage(path);
  const kept = (await access.facts.of(resolve(access.cwd, path)))?.facts.functions;
  if (kept && kept.finder === FINDER_VERSION && kept.language === language) return kept.inventory ?? undefined;
  const read = await access.readWithId(path).catch(() => null);
  if (read === null) return undefined;
  // The parser (tree-sitter and its grammars) loads with the first file that needs it, not with the program.
  const inventory = pooled
    ? await (await import('../scope/syntax/parsePool')).parsePool().parse(path, read.text)
    : await (await import('../scope/syntax/finder')).functionInventory(path, read.text);
  await access.facts.store.add(read.id, { functions: { finder: FINDER_VERSION, language, inventory } });
  return inventory ?? undefined;
}

/** The regex finder's count: cheap enough for every file before the first request, where a parse is not. */
export function quickFunctionCount(path: string, text: string): number {
  return findFunctions(
    languageOf(path),
    splitLines(text).map((t, i) => ({ no: i + 1, text: t })),
  ).length;
}
