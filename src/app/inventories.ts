/**
 * Each file's functions from Step 0's parser, as data for the engine (which may not import scope) and for
 * the estimate and `skeptic plan`. Each file is parsed at most once per scope, when first asked for: the
 * estimate asks for every file, a run for each file as its Step 2 comes (so no parse delays the run's first
 * calls), and the two share the result. What a parse found is kept with the file's content (scope/facts.ts):
 * a file whose content was parsed before, here or in an earlier run, is not read again.
 *
 * A plan of a scope with many files never parsed before (a first plan of a large repository) counts their
 * functions with the quick finder instead (scope/syntax/quickFinder.ts, a few line patterns): a parse of
 * every file is what a cold plan spends nearly all its time on, and a plan only sizes an estimate. What the
 * quick finder found is kept too, under its own version, for the next plan; a review always parses. Step 0
 * counts so as it reads a plan's files (prepareJob's `plan`), and runs the regex fallback on those without a
 * grammar, so that the plan reads none of them again.
 */
import { resolve } from 'node:path';
import type { FileEntry } from '../model/records';
import { Semaphore } from '../model/semaphore';
import type { FunctionInventory } from '../model/functions';
import type { ReviewAccess } from '../scope/access';
import { fallbackInventory } from '../scope/functionFinder';
import { hasGrammar, quickFunctions } from '../scope/syntax/quickCount';
import { FINDER_VERSION, finderLanguage, QUICK_FINDER_VERSION } from '../scope/syntax/version';

export type Inventories = Map<string, FunctionInventory>;
export interface PlanInventories {
  inventories: Inventories;
  quick: Set<string>;
}
/** One file's inventory, parsed on first request; undefined for a file without one. */
export type InventoryOf = (path: string) => Promise<FunctionInventory | undefined>;

interface Parses {
  io: Semaphore;
  byPath: Map<string, Promise<FunctionInventory | undefined>>;
  /** The files a plan counted with the quick finder (now or in an earlier plan), not the parser. */
  quick: Set<string>;
}

/**
 * A plan with at least this many files never parsed counts them quickly: about 40 s of parsing on two cores
 * at 10,000 files; some 2 s below this. Files, not time, so that the same scope always gets the same plan.
 */
export const QUICK_FROM_FILES = 1000;

/** A job's parses, by the job's access (one per prepared job): its estimate and its run share them. */
const memo = new WeakMap<ReviewAccess, Parses>();

/** Files without a grammar or a fallback have no entry; a file that cannot be read has none either (the run reports it). */
export async function inventoriesOf(access: ReviewAccess, entries: FileEntry[]): Promise<Inventories> {
  const one = inventoryLookup(access);
  const pairs = await Promise.all(entries.map(async (e) => [e.path, await one(e.path)] as const));
  return new Map(pairs.filter((p): p is readonly [string, FunctionInventory] => p[1] !== undefined));
}

/**
 * `skeptic plan`'s inventories: as `inventoriesOf`, but where at least QUICK_FROM_FILES files have no parse
 * kept, those (and any counted quickly by an earlier plan) by the quick finder. `quick`: the paths so counted.
 */
export async function planInventories(access: ReviewAccess, entries: FileEntry[]): Promise<PlanInventories> {
  const parses = parsesOf(access);
  const kept = await Promise.all(entries.map((e) => keptInventory(access, e.path, true)));
  // A file without a grammar goes to the regex fallback, which is as quick as the quick finder: never counted here.
  const grammar = entries.map((e) => hasGrammar(finderLanguage(e.path)));
  const unparsed = kept.filter((k, i) => grammar[i] && k?.finder !== FINDER_VERSION).length;
  if (unparsed >= QUICK_FROM_FILES)
    entries.forEach((e, i) => {
      const k = kept[i];
      if (!grammar[i] || k?.finder === FINDER_VERSION || parses.byPath.has(e.path)) return;
      parses.quick.add(e.path);
      parses.byPath.set(e.path, k ? Promise.resolve(k.inventory) : parses.io.run(() => quickCount(access, e.path)));
    });
  return { inventories: await inventoriesOf(access, entries), quick: parses.quick };
}

/** The scope's files one at a time, sharing the parses `inventoriesOf` made or will make. */
export function inventoryLookup(access: ReviewAccess): InventoryOf {
  const { io, byPath } = parsesOf(access);
  return (path) => {
    let found = byPath.get(path);
    if (!found) {
      found = io.run(() => parse(access, path));
      byPath.set(path, found);
    }
    return found;
  };
}

function parsesOf(access: ReviewAccess): Parses {
  let parses = memo.get(access);
  if (!parses) {
    parses = { io: new Semaphore(16), byPath: new Map(), quick: new Set() };
    memo.set(access, parses);
  }
  return parses;
}

/** The inventory kept for the file's content as last judged, by the parser (or, `quick`, either finder). */
async function keptInventory(
  access: ReviewAccess,
  path: string,
  quick: boolean,
): Promise<{ finder: string; inventory: FunctionInventory | undefined } | undefined> {
  const kept = (await access.facts.of(resolve(access.cwd, path)))?.facts.functions;
  const finders = quick ? [FINDER_VERSION, QUICK_FINDER_VERSION] : [FINDER_VERSION];
  if (!kept || !finders.includes(kept.finder) || kept.language !== finderLanguage(path)) return undefined;
  return { finder: kept.finder, inventory: kept.inventory ?? undefined };
}

/**
 * The quick finder's inventory of the file, kept under its own version for the next plan: for a file Step 0
 * did not count as it judged it (see `quickCount` in scope/access.ts).
 */
async function quickCount(access: ReviewAccess, path: string): Promise<FunctionInventory | undefined> {
  const read = await access.readWithId(path).catch(() => null);
  const functions = read && quickFunctions(path, read.text);
  if (!read || !functions) return undefined;
  await access.facts.store.add(read.id, { functions });
  return functions.inventory ?? undefined;
}

/**
 * The inventory kept for the file's content as last judged; else a parse of the file read through the run's
 * one confinement rule, like every other read (the file is judged again as it is now).
 */
async function parse(access: ReviewAccess, path: string): Promise<FunctionInventory | undefined> {
  const language = finderLanguage(path);
  const kept = await keptInventory(access, path, false);
  if (kept) return kept.inventory;
  const read = await access.readWithId(path).catch(() => null);
  if (read === null) return undefined;
  // On a worker thread, however small the scope: the main thread meanwhile sends the run's requests, and no
  // grammar is compiled on it. The parser loads with the first file that needs it, not with the program.
  const inventory = await (await import('../scope/syntax/parsePool')).parsePool().parse(path, read.text);
  await access.facts.store.add(read.id, { functions: { finder: FINDER_VERSION, language, inventory } });
  return inventory ?? undefined;
}

/** The regex finder's count: cheap enough for every file before the first request, where a parse is not. */
export function quickFunctionCount(path: string, text: string): number {
  return fallbackInventory(path, text, true)!.functions.length;
}
