/**
 * A till builds its receipt and shift numbers from the day of the sale: "S1P03201705170016" (counter, 2017-05-17,
 * sequence), "MT161201805120055", "Shf:201804141". Where OCR lost every printed date of a receipt, such a number
 * still says when it was sold. Read only as a last resort and shown low: a number whose digits hold a year, month
 * and day in that order (year first: the order that sorts, which tills use), nine digits or more so that it is more
 * than the date, the year no later than next year. Product codes (EAN/UPC, twelve or thirteen digits and nothing
 * else) are no document numbers, and two numbers naming different days name none.
 */
import type { FieldValue } from './fieldValues.js';
import type { TextLine } from './layout.js';

/** In a date's label: read from a document number's digits, no date being printed legibly. */
export const DATE_IN_NUMBER = "the sale's day in a receipt number; no date was read";

const EARLIEST_YEAR = 2000;
const embedded = /(20\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])/g;

/** The one day the document numbers on `lines` embed, or null where none does or they disagree. */
export function dateInDocumentNumber(lines: readonly TextLine[], latestYear = new Date().getUTCFullYear() + 1): FieldValue<string> | null {
  const found = new Map<string, FieldValue<string>>();
  for (const line of lines) {
    for (const word of line.words) {
      const digits = word.text.replace(/\D/g, '');
      if (digits.length < 9 || /^\d{12,13}$/.test(word.text)) continue;
      for (const m of word.text.matchAll(embedded)) {
        const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
        if (year < EARLIEST_YEAR || year > latestYear || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) continue;
        const iso = `${m[1]}-${m[2]}-${m[3]}`;
        if (!found.has(iso)) found.set(iso, { value: iso, text: word.text, words: [word], label: DATE_IN_NUMBER });
      }
    }
  }
  return found.size === 1 ? [...found.values()][0]! : null;
}
