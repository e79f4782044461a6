/**
 * Word lists of the page languages, for hyphenated line ends (layout/hyphenation.ts), loaded lazily — once per
 * language per process, and only for a page that has a line-end hyphen the page's own words may not decide.
 * Each source is chosen for its licence (the app is MIT) and its load cost (measured, docs/reading.md):
 *  - English: `dictionary-en` (MIT AND BSD; Hunspell en-US from SCOWL) read by `nspell` (MIT), which knows the
 *    affixes (inflections, capitalised forms). About 0.3 s and 17 MB on first use.
 *  - French: `an-array-of-french-words` (MIT; 336k forms including hyphenated compounds such as "peut-être"), a set.
 *    (`dictionary-fr` is MPL-2.0, and nspell takes about 6 s and 460 MB to read its affix file.)
 *  - German: no word list. `dictionary-de` is GPL; German writes compounds closed, so the rule "a break before a
 *    lower-case part is joined, a capital part is a hyphenated compound noun" needs none (`closedCompounds`).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { HyphenationLanguage } from './layout/hyphenation.js';
import type { PageLanguageCode } from './layout/pageLanguage.js';

const require = createRequire(import.meta.url);

type Spell = { correct(word: string): boolean };
type NSpell = (dictionary: { aff: Uint8Array; dic: Uint8Array }) => Spell;

const loaders: Record<PageLanguageCode, () => Promise<HyphenationLanguage>> = {
  eng: async () => {
    const { default: dictionary } = await import('dictionary-en');
    const spell = (require('nspell') as NSpell)(dictionary);
    return { code: 'eng', isWord: (word) => spell.correct(word) };
  },
  fra: async () => {
    const list: unknown = JSON.parse(await readFile(require.resolve('an-array-of-french-words'), 'utf8'));
    if (!Array.isArray(list)) throw new Error('an-array-of-french-words: not a list of words');
    const words = new Set(list.filter((word): word is string => typeof word === 'string'));
    return { code: 'fra', isWord: (word) => words.has(word.toLowerCase()) };
  },
  deu: () => Promise.resolve({ code: 'deu', closedCompounds: true }),
};

const loaded = new Map<PageLanguageCode, Promise<HyphenationLanguage>>();

/**
 * The hyphenation rules and lexicon of `code`, loaded on first use and kept. A lexicon that cannot be loaded rejects
 * with the package and the reason, and is tried again next time (the caller falls back to the page's own words).
 */
export function hyphenationLanguage(code: PageLanguageCode): Promise<HyphenationLanguage> {
  let promise = loaded.get(code);
  if (!promise) {
    promise = loaders[code]().catch((error: unknown) => {
      loaded.delete(code);
      throw new Error(`the ${code} word list for hyphenated line ends could not be loaded: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    });
    loaded.set(code, promise);
  }
  return promise;
}
