/**
 * The language of a page from its own text: counts of each language's commonest function words. A page of prose holds
 * dozens of them ("the", "of", "and" / "der", "und", "nicht" / "les", "et", "pour"); a page of figures or labels
 * (an invoice's table, a chart) holds few, and then the language is left unknown rather than guessed. Pure.
 * Codes are tesseract's (ISO 639-3), so the engine's OCR language and the page's are one vocabulary.
 */

/** Languages whose reading rules the engine knows (hyphenation.ts): the OCR languages it ships. */
export const PAGE_LANGUAGES = ['eng', 'deu', 'fra'] as const;
export type PageLanguageCode = (typeof PAGE_LANGUAGES)[number];

/**
 * Function words that are frequent in one language and rare as words of the others (shared forms such as "in",
 * "des", "die", "on", "was" left out, so a hit counts for one language only).
 */
const FUNCTION_WORDS: Record<PageLanguageCode, ReadonlySet<string>> = {
  eng: new Set(['the', 'of', 'and', 'to', 'is', 'that', 'for', 'with', 'are', 'this', 'be', 'by', 'it', 'not', 'or', 'which', 'from', 'have', 'has', 'we']),
  deu: new Set(['der', 'und', 'den', 'das', 'ist', 'nicht', 'mit', 'von', 'zu', 'für', 'auf', 'sich', 'dem', 'ein', 'eine', 'im', 'wird', 'werden', 'auch', 'bei']),
  fra: new Set(['le', 'la', 'les', 'et', 'est', 'du', 'une', 'un', 'pour', 'dans', 'que', 'qui', 'au', 'sur', 'pas', 'par', 'ce', 'avec', 'sont', 'aux']),
};
/**
 * Languages without reading rules here compete too, so that a Spanish or Italian page (which shares "la", "que",
 * "un" with French) is told apart and left unknown rather than read with another language's rules. Their words are
 * ones the three known languages do not use as words ("de", "en", "il", "se", "da", "do", "met" left out).
 */
const OTHER_LANGUAGES: Record<string, ReadonlySet<string>> = {
  spa: new Set(['el', 'los', 'las', 'del', 'y', 'por', 'con', 'una', 'para', 'lo', 'como', 'al', 'sus', 'está', 'más']),
  ita: new Set(['di', 'che', 'della', 'per', 'con', 'una', 'sono', 'gli', 'nel', 'alla', 'dei', 'delle', 'è', 'degli', 'anche']),
  nld: new Set(['het', 'een', 'voor', 'op', 'dat', 'niet', 'zijn', 'wordt', 'bij', 'ook', 'naar', 'deze', 'worden', 'heeft', 'uit']),
  por: new Set(['os', 'das', 'dos', 'uma', 'para', 'não', 'com', 'ao', 'pelo', 'pela', 'são', 'foi', 'mais', 'também', 'seu']),
};
/** At least this many function words of the winning language: fewer is a page of labels, not prose. */
const MIN_FUNCTION_WORDS = 6;
/** The winner must have at least this many times the runner-up's count (a French page quoting English stays French). */
const WINNING_RATIO = 2;

const EDGE_PUNCTUATION = /^[^\p{L}]+|[^\p{L}]+$/gu;

/** The language most of the page's function words belong to, or null when the page has too few to tell. */
export function pageLanguage(texts: Iterable<string>): PageLanguageCode | null {
  const profiles: [string, ReadonlySet<string>][] = [...Object.entries(FUNCTION_WORDS), ...Object.entries(OTHER_LANGUAGES)];
  const counts = new Map<string, number>(profiles.map(([code]) => [code, 0]));
  for (const text of texts) {
    const bare = text.replace(EDGE_PUNCTUATION, '').toLowerCase();
    for (const [code, words] of profiles) if (words.has(bare)) counts.set(code, counts.get(code)! + 1);
  }
  const [first, second] = [...counts].sort((a, b) => b[1] - a[1]);
  if (first[1] < MIN_FUNCTION_WORDS || first[1] < WINNING_RATIO * second[1]) return null;
  return isPageLanguage(first[0]) ? first[0] : null;
}

export const isPageLanguage = (code: string): code is PageLanguageCode => (PAGE_LANGUAGES as readonly string[]).includes(code);
