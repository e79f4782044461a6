/**
 * The main language of a page from its most frequent function words — enough for olmOCR's `primary_language` field on
 * the languages Recto's invoices come in. Returns null when the text is too short or no language stands out, rather
 * than a guess.
 */
const functionWords: Record<string, readonly string[]> = {
  en: ['the', 'and', 'of', 'to', 'in', 'for', 'is', 'on', 'with', 'this', 'that', 'are', 'by', 'from', 'your'],
  de: ['der', 'die', 'und', 'das', 'den', 'für', 'mit', 'von', 'ist', 'im', 'des', 'nicht', 'ein', 'eine', 'zu'],
  fr: ['le', 'la', 'les', 'et', 'des', 'du', 'pour', 'est', 'une', 'dans', 'par', 'sur', 'au', 'aux', 'vous'],
  nl: ['de', 'het', 'een', 'en', 'van', 'voor', 'met', 'is', 'op', 'te', 'niet', 'aan', 'bij', 'uw', 'wordt'],
  es: ['el', 'la', 'los', 'las', 'y', 'de', 'del', 'para', 'con', 'es', 'una', 'por', 'en', 'su', 'que'],
  it: ['il', 'la', 'di', 'e', 'per', 'con', 'del', 'della', 'che', 'è', 'una', 'dei', 'le', 'alla', 'non'],
};

/** Function words needed before a language is named, and how far ahead of the runner-up it must be. */
const minimumHits = 3;
const leadFactor = 1.5;

export function guessLanguage(text: string): string | null {
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  const counts = new Map<string, number>();
  for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
  const scores = Object.entries(functionWords)
    .map(([language, list]) => [language, list.reduce((sum, word) => sum + (counts.get(word) ?? 0), 0)] as const)
    .sort((a, b) => b[1] - a[1]);
  const [best, second] = scores;
  if (!best || best[1] < minimumHits) return null;
  if (second && best[1] < second[1] * leadFactor) return null;
  return best[0];
}
