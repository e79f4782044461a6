/**
 * The subtotal (amount before tax) of an invoice that prints no subtotal label, derived from what it does print:
 *  1. total − tax, where both were read: by definition the untaxed amount (a zero tax makes it the total);
 *  2. else the sum of the line amounts, where the amount column's header says they are net of tax
 *     ("Zeilenbetrag ohne MwSt.", "Amount excl. VAT", "Montant HT").
 * A derived value is kept only where that amount is printed on the page — outside the item rows for a sum (a
 * missed or extra item gives a sum printed nowhere) — and its words are the printed amount's. Shipping, discounts or
 * a misread tax make total − tax an amount the page does not print, so no value is reported rather than a wrong one.
 */
import type { Word } from '../model/extraction.js';
import { findAmounts } from './amounts.js';
import { findDates } from './dates.js';
import type { TextLine } from './layout.js';

export interface DerivedAmount {
  value: number;
  /** The printed amount that confirms the value. */
  text: string;
  words: Word[];
  /** How it was derived, for the UI: "total − tax" or "sum of net line amounts". */
  rule: string;
}

const cents = (value: number): number => Math.round(value * 100) / 100;

/** The last printed money amount equal to `value` whose words are not in `exclude`. */
export function printedAmount(lines: readonly TextLine[], value: number, exclude: ReadonlySet<Word> = new Set()): { text: string; words: Word[] } | null {
  let found: { text: string; words: Word[] } | null = null;
  for (const line of lines) {
    for (const segment of line.segments) {
      if (segment.words.some((w) => exclude.has(w))) continue;
      let text = segment.text;
      for (const d of findDates(text)) text = text.slice(0, d.index) + ' '.repeat(d.text.length) + text.slice(d.index + d.text.length);
      for (const amount of findAmounts(text)) {
        if (!(amount.hasDecimals || amount.hasCurrency) || Math.abs(amount.value - value) >= 0.005) continue;
        const words = segment.words.filter((w) => amount.text.includes(w.text) || w.text.includes(amount.text));
        found = { text: amount.text, words: words.length > 0 ? words : segment.words };
      }
    }
  }
  return found;
}

export interface SubtotalEvidence {
  lines: readonly TextLine[];
  total: number | null;
  tax: number | null;
  /** Line items with their amounts and the words of their rows. */
  items: readonly { amount: number | null; words: readonly Word[] }[];
  /** What the amount column's header says the line amounts are. */
  lineAmounts: 'net' | 'gross' | null;
}

export function inferSubtotal(evidence: SubtotalEvidence): DerivedAmount | null {
  const { lines, total, tax, items, lineAmounts } = evidence;
  if (total !== null && tax !== null && tax >= 0 && total - tax > 0) {
    const net = cents(total - tax);
    const printed = printedAmount(lines, net);
    if (printed) return { value: net, ...printed, rule: 'total − tax' };
  }
  const amounts = items.map((item) => item.amount).filter((a): a is number => a !== null);
  if (lineAmounts === 'net' && amounts.length > 0) {
    const sum = cents(amounts.reduce((a, b) => a + b, 0));
    if (total !== null && sum > total + 0.005) return null;
    const printed = printedAmount(lines, sum, new Set(items.flatMap((item) => item.words)));
    if (printed) return { value: sum, ...printed, rule: 'sum of net line amounts' };
  }
  return null;
}
