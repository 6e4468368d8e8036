/**
 * The quick finder's count of one file as the facts store keeps it (../facts.ts), under the quick finder's own
 * version: what a plan of a large scope counts instead of parsing (app/inventories.ts). Step 0 counts while it
 * holds a plan's text, so that the plan need not read the file again.
 */
import type { ContentFacts } from '../facts';
import { quickInventory } from './quickFinder';
import { finderLanguage, QUICK_FINDER_VERSION } from './version';

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
