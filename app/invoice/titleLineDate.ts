/**
 * The issue date where no label names it: the date printed on the document's title line ("Beitragsrechnung zur
 * Kraftfahrtversicherung Nr. 00.123.456.7   11. März 2014", "Facture n° 4711 du 02/07/2015", "Invoice 2024-17,
 * 3 May 2024"). An issuer dates the document where it names it; the first date elsewhere on the page is as likely a
 * period, a delivery or an office-hours line. A line with two dates or more is a period, and a line that names a
 * period, a delivery or a due date is not the title's. A long title wraps: "Rechnung Nr. 4711 vom" over
 * "06.12.2018", or "Gutschrift Nr. 4711" over "vom 31.10.2018" — the dating word ("vom", "du", "dated") ties the
 * next line's date to the title.
 */
import { findDates } from './dates.js';
import type { FieldValue } from './fieldValues.js';
import type { TextLine } from './layout.js';

/** A word that names the document (alone or in a compound: "Beitragsrechnung", "Rechnungskopie"). */
const titleWord = /(?:rechnung|invoice|facture|gutschrift|factuur|faktura|credit\s+note|avoir)/iu;
/** Words that make a dated line something else than the title. */
const otherDate = /(?:zeitraum|period|période|periode|liefer|delivery|livraison|leistung|fällig|due|échéance|zahlbar|payable|bis\b|until|jusqu)/iu;
/** A dating word ("of", "dated") at the end of a title line or the start of the next: the date belongs to the title. */
const datingWordAtEnd = /(?<![\p{L}])(?:vom|du|dated|of|del|van)\s*$/iu;
const datingWordAtStart = /^\s*(?:vom|du|dated|del|van|d\.d\.)(?![\p{L}])/iu;

function dateOn(line: TextLine, monthFirst: boolean): FieldValue<string> | null {
  if (otherDate.test(line.text)) return null;
  const dates = findDates(line.text, { monthFirst });
  if (dates.length !== 1) return null;
  const date = dates[0]!;
  return { value: date.iso, text: date.text, words: line.words.filter((w) => date.text.includes(w.text)), label: null };
}

export function titleLineDate(lines: readonly TextLine[], monthFirst: boolean): FieldValue<string> | null {
  for (const [l, line] of lines.entries()) {
    if (!titleWord.test(line.text) || otherDate.test(line.text)) continue;
    const own = dateOn(line, monthFirst);
    if (own) return own;
    const next = lines[l + 1];
    if (next && findDates(line.text, { monthFirst }).length === 0 && (datingWordAtEnd.test(line.text) || datingWordAtStart.test(next.text))) {
      const wrapped = dateOn(next, monthFirst);
      if (wrapped) return wrapped;
    }
  }
  return null;
}
