/**
 * The issue date where no label names it: the date printed on the document's title line ("Beitragsrechnung zur
 * Kraftfahrtversicherung Nr. 00.123.456.7   11. März 2014", "Facture n° 4711 du 02/07/2015", "Invoice 2024-17,
 * 3 May 2024"). An issuer dates the document where it names it; the first date elsewhere on the page is as likely a
 * period, a delivery or an office-hours line. A line with two dates or more is a period, and a line that names a
 * period, a delivery or a due date is not the title's.
 */
import { findDates } from './dates.js';
import type { FieldValue } from './fieldValues.js';
import type { TextLine } from './layout.js';

/** A word that names the document (alone or in a compound: "Beitragsrechnung", "Rechnungskopie"). */
const titleWord = /(?:rechnung|invoice|facture|gutschrift|factuur|faktura|credit\s+note|avoir)/iu;
/** Words that make a dated line something else than the title. */
const otherDate = /(?:zeitraum|period|période|periode|liefer|delivery|livraison|leistung|fällig|due|échéance|zahlbar|payable|bis\b|until|jusqu)/iu;

export function titleLineDate(lines: readonly TextLine[], monthFirst: boolean): FieldValue<string> | null {
  for (const line of lines) {
    if (!titleWord.test(line.text) || otherDate.test(line.text)) continue;
    const dates = findDates(line.text, { monthFirst });
    if (dates.length !== 1) continue;
    const date = dates[0]!;
    return { value: date.iso, text: date.text, words: line.words.filter((w) => date.text.includes(w.text)), label: null };
  }
  return null;
}
