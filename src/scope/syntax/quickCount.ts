/**
 * The quick finder's count of one file as the facts store keeps it (../facts.ts), under the quick finder's own
 * version: what a plan of a large scope counts instead of parsing (app/inventories.ts). Step 0 counts while it
 * holds a plan's text, so that the plan need not read the file again.
 */
import type { ContentFacts } from '../facts';
import { fallbackInventory } from '../functionFinder';
import { quickInventory } from './quickFinder';
import { FINDER_VERSION, finderLanguage, QUICK_FINDER_VERSION } from './version';

/**
 * What Step 0 keeps of a plan's file as it reads it: the quick count of a file with a grammar; of one without,
 * the regex fallback's inventory, which is what its parse finds (kept as the parser's, under FINDER_VERSION).
 */
export function planFunctions(path: string, text: string): ContentFacts['functions'] {
  const language = finderLanguage(path);
  return hasGrammar(language)
    ? quickFunctions(path, text)
    : { finder: FINDER_VERSION, language, inventory: fallbackInventory(path, text, false) };
}

/** The file's quick count, or undefined for a file without a grammar (the regex fallback reads it as quickly). */
export function quickFunctions(path: string, text: string): ContentFacts['functions'] {
  const language = finderLanguage(path);
  if (!hasGrammar(language)) return undefined;
  return { finder: QUICK_FINDER_VERSION, language, inventory: quickInventory(path, text) ?? null };
}

/** A finder language that is a grammar's, not the regex fallback's (./version.ts). */
export function hasGrammar(language: string): boolean {
  return !language.startsWith('regex:');
}
