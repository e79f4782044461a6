/** The real word lists load and answer as hyphenation.ts needs (their load cost is reported in docs/reading.md). */
import { describe, expect, it } from 'vitest';
import { hyphenationLanguage } from './lexicons.js';

describe('hyphenation word lists', () => {
  it('English (dictionary-en via nspell): inflected and capitalised forms are words, joined compounds are not', async () => {
    const english = await hyphenationLanguage('eng');
    expect(english.code).toBe('eng');
    for (const word of ['responsibility', 'Responsibility', 'compiling', 'mixed', 'mode', 'age', 'eligible', 'independent']) expect(english.isWord!(word), word).toBe(true);
    for (const word of ['mixedmode', 'ageeligible', 'languageindependent', 'responsi']) expect(english.isWord!(word), word).toBe(false);
  });

  it('French (an-array-of-french-words): hyphenated compounds and accented forms', async () => {
    const french = await hyphenationLanguage('fra');
    for (const word of ['peut-être', 'facture', 'Responsabilité']) expect(french.isWord!(word), word).toBe(true);
    expect(french.isWord!('peutêtre')).toBe(false);
  });

  it('German: no word list, the closed-compound rule', async () => {
    expect(await hyphenationLanguage('deu')).toEqual({ code: 'deu', closedCompounds: true });
  });

  it('loads each language once', async () => {
    expect(await hyphenationLanguage('eng')).toBe(await hyphenationLanguage('eng'));
  });
});
