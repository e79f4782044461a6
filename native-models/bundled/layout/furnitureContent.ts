/**
 * What the text of a line near the page edge says about it, for pageFurniture.ts: running heads and feet carry
 * publication details (journal, volume, DOI, URL, copyright, a date); captions, footnotes and the rest of a sentence
 * are body text wherever they sit. Pure text tests, no geometry.
 */

/** A footnote starts with its marker ("1 See …", "51. Decision …", "* Estimated", "² …"): small print of the body. */
export const FOOTNOTE_MARK = /^(?:\d{1,3}\.?(?=[\s\p{L}])|[*†‡§¶]|[⁰¹²³⁴⁵⁶⁷⁸⁹]+)/u;

/** A caption ("Figure 7.1 …", "Table CA7.", "Abb. 3") belongs to its figure or table, however close to the edge. */
export const CAPTION = /^(?:fig(?:ure)?|table|chart|graph|exhibit|abbildung|abb|tabelle|tableau|graphique)\.?\s*(?:[a-z]{0,3}\d|[ivx]+\b)/iu;

/**
 * A line that starts with a lower-case word goes on with a sentence (a footnote carried over from the previous page:
 * "appear to use the term consistently."). A single letter before a sign ("n° d'identification") is an abbreviation.
 */
const CONTINUATION = /^\p{Ll}{2,}[\s,;:.]/u;

/** Web and mail addresses, DOIs. */
const ADDRESS = /(?:\bhttps?:\/\/|\bwww\.)\S+|\b[\w.+-]+@[\w-]+\.[\w.]+|\bdoi:\s*10\.|\b10\.\d{4,}\/\S+/iu;
/** Journal, proceedings, volume, issue, pages, ISSN / ISBN, preprint server, copyright. */
const PUBLICATION = /\b(?:vol(?:ume)?\.?\s*\d|no\.\s*\d|pp\.\s*\d|issn|isbn|journal|proceedings|transactions|conference|symposium|arxiv)\b|©|\bcopyright\b|\ball rights reserved\b/iu;
const MONTH = '(?:jan|feb|m[aä]r|apr|ma[yi]|jun|jul|aug|sep|o[ck]t|nov|de[cz])[\\p{L}]*\\.?';
/** A date: 12/03/2020, 2020-03-12, 12 March 2020, March 12, 2020, March 2020. */
const DATE = new RegExp(`\\b(?:\\d{1,2}[./-]\\d{1,2}[./-]\\d{2,4}|\\d{4}-\\d{2}-\\d{2}|\\d{1,2}\\.?\\s+${MONTH}\\s+\\d{4}|${MONTH}\\s+(?:\\d{1,2},?\\s+)?\\d{4})\\b`, 'iu');
/** "Invoice date: 12/03/2020": a date in a labelled field of the document, not furniture. */
const LABELLED_FIELD = /\p{L}\s*:\s*\S/u;

/** The line reads as page furniture by its content alone: an address, publication details, or a date. */
export function readsAsFurniture(text: string): boolean {
  if (ADDRESS.test(text) || PUBLICATION.test(text)) return true;
  return DATE.test(text) && !LABELLED_FIELD.test(text);
}

/** The line reads as body text by its content: a caption, or a sentence going on (unless it is an address). */
export function readsAsBody(text: string): boolean {
  return CAPTION.test(text) || (CONTINUATION.test(text) && !ADDRESS.test(text));
}
