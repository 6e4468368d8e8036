/**
 * The function finders' version, for inventories kept between runs (scope/facts.ts): a hash of the grammar
 * table, the per-language rules' code and query patterns, the regex fallback's code and FINDER_REVISION. Loading it loads no
 * parser (languageRules.ts imports the runtime's types only).
 */
import { createHash } from 'node:crypto';
import { extensionOf, languageOf } from '../../model/languages';
import { findFunctions } from '../functionFinder';
import { QUICK_FINDER } from './quickFinder';
import grammarByExtension from './grammars.json';
import { grammarFor } from './grammars';
import { RULES } from './languageRules';

/** Bump when finder.ts or a helper of the rules changes what they report (the visitors and the fallback count by themselves); 2: a blank test title is named by its call. */
const FINDER_REVISION = 2;

export const FINDER_VERSION = createHash('sha256')
  .update(
    JSON.stringify({
      revision: FINDER_REVISION,
      grammars: grammarByExtension,
      rules: Object.entries(RULES).map(([language, r]) => [
        language,
        [...r.types],
        String(r.visit),
        Object.entries(r.patterns ?? {}).map(([type, pattern]) => [type, String(pattern)]),
      ]),
      fallback: String(findFunctions),
    }),
  )
  .digest('hex')
  .slice(0, 16);

/** What decides which finder reads a file: its grammar, else its language (the same content may be both). */
export function finderLanguage(path: string): string {
  return grammarFor(extensionOf(path)) ?? `regex:${languageOf(path)}`;
}

/** The quick finder's version (a plan's count where a parse of every file would be too slow): its code and patterns. */
export const QUICK_FINDER_VERSION = `quick-${createHash('sha256').update(QUICK_FINDER).digest('hex').slice(0, 16)}`;
