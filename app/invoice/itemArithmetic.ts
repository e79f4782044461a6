/**
 * Arithmetic of one item row: quantity × unit price = amount. Used to choose between readings the page offers —
 * which bare number of the row is the quantity, and whether an OCR'd number lost its decimal mark ("4999" printed
 * as 49,99) — never to compute a value that is not printed.
 */
import { findAmounts, type AmountMatch } from './amounts.js';
import type { Segment } from './layout.js';
import type { InvoiceLineItem } from './lineItem.js';

const agrees = (a: number, b: number): boolean => Math.abs(a - b) < 0.005 + 1e-9 * Math.abs(b);

/** A quantity cell: a number, optionally with a short unit ("1PCS", "2 Stk", "9.5 h"). */
export function numberOnly(text: string): number | null {
  const m = /^\s*(\d+(?:[.,]\d+)?)(?:\s*\p{L}{0,6})?\s*$/u.exec(text);
  return m ? Number(m[1]!.replace(',', '.')) : null;
}

/** A short quantity cell as OCR misreads it: "l", "I" or "|" for 1, "O" for 0 ("l", "1O"). Only trusted with arithmetic. */
function misreadQuantity(text: string): number | null {
  const t = text.trim();
  if (!/^[\dlI|Oo]{1,3}$/.test(t) || /^\d+$/.test(t)) return null;
  return Number(t.replace(/[lI|]/g, '1').replace(/[Oo]/g, '0'));
}

/**
 * The values a printed amount may stand for: as read and, where it has three or more digits and no decimal mark
 * (OCR drops small commas and points), the same digits with two decimals.
 */
export function amountReadings(match: Pick<AmountMatch, 'value' | 'text'>): number[] {
  const digits = match.text.replace(/\D/g, '');
  const lostMark = !/[.,]\d/.test(match.text) && digits.length >= 3 && Number.isInteger(match.value);
  return lostMark ? [match.value, Math.round(match.value) / 100] : [match.value];
}

/**
 * The unit price and amount of a row with a known quantity, each as read unless only another of their readings makes
 * quantity × unit price = amount. Unchanged where the row is consistent as read or no reading makes it so.
 */
export function consistentPriceAndAmount(
  quantity: number | null,
  price: Pick<AmountMatch, 'value' | 'text'> | null,
  amount: Pick<AmountMatch, 'value' | 'text'>,
): { unitPrice: number | null; amount: number } {
  const asRead = { unitPrice: price?.value ?? null, amount: amount.value };
  if (quantity === null || quantity <= 0 || price === null) return asRead;
  if (agrees(quantity * price.value, amount.value)) return asRead;
  for (const a of amountReadings(amount)) {
    for (const p of amountReadings(price)) {
      if (agrees(quantity * p, a)) return { unitPrice: p, amount: a };
    }
  }
  return asRead;
}

/**
 * Quantity and unit price of a row whose columns are not named (or whose quantity column is not): a bare number q and,
 * unless the price is known, a money amount p among `segments` (left to right) with q × p = the row's amount.
 */
export function fillQuantityAndPrice(item: InvoiceLineItem, segments: readonly Segment[]): InvoiceLineItem {
  if (item.amount === null || item.quantity !== null) return item;
  const amount = item.amount;
  const quantities = segments.map((s) => numberOnly(s.text) ?? misreadQuantity(s.text));
  if (item.unitPrice !== null) {
    const q = quantities.find((q) => q !== null && q > 0 && agrees(q * item.unitPrice!, amount));
    return q === undefined || q === null ? item : { ...item, quantity: q };
  }
  for (const [i, q] of quantities.entries()) {
    if (q === null || q <= 0) continue;
    for (const segment of segments.slice(i + 1)) {
      const price = findAmounts(segment.text).filter((a) => a.hasDecimals || a.hasCurrency).pop();
      if (price && agrees(q * price.value, amount)) return { ...item, quantity: q, unitPrice: price.value };
    }
  }
  return item;
}

/**
 * Item amounts that add up to none of the amounts the invoice states for them (subtotal, total): where exactly one
 * item has another reading (`readings[i]`, see amountReadings) that makes the sum one of them, that reading is taken.
 */
export function consistentSum(amounts: readonly number[], readings: readonly number[][], stated: readonly (number | null)[]): number[] {
  const targets = stated.filter((t): t is number => t !== null && t > 0);
  const sum = amounts.reduce((a, b) => a + b, 0);
  if (targets.length === 0 || amounts.length < 2 || targets.some((t) => agrees(sum, t))) return [...amounts];
  const fixes: { item: number; value: number }[] = [];
  readings.forEach((values, item) => {
    for (const value of values) {
      if (value !== amounts[item] && targets.some((t) => agrees(sum - amounts[item]! + value, t))) fixes.push({ item, value });
    }
  });
  if (fixes.length !== 1) return [...amounts];
  return amounts.map((a, i) => (i === fixes[0]!.item ? fixes[0]!.value : a));
}

/** How OCR printed one item's amount: its text and the lowest confidence of its words (null: no confidence given). */
export interface PrintedAmount {
  text: string;
  value: number;
  confidence: number | null;
}

/** Below this word confidence the OCR was unsure of what it read; text layers give ~1. */
const UNSURE_OCR = 0.9;

/**
 * OCR drops small marks: in an amount column whose every other value (two or more) prints two decimals ("€399,00",
 * "€69,99"), a value the OCR read unsurely as bare digits ("€424") lost its decimal mark, and its digits with two
 * decimals are what is printed. Values read with confidence, or from a text layer, are kept as read. `fixed[i]`:
 * amount i is already settled by its row's arithmetic.
 */
export function columnFormatAmounts(printed: readonly PrintedAmount[], fixed: readonly boolean[]): number[] {
  const twoDecimals = (text: string): boolean => /\d[.,]\d{2}(?!\d)/.test(text);
  const bareDigits = (text: string): boolean => !/[.,]/.test(text) && text.replace(/\D/g, '').length >= 3;
  return printed.map((p, i) => {
    const unsure = p.confidence !== null && p.confidence < UNSURE_OCR;
    if (fixed[i] || !unsure || !bareDigits(p.text)) return p.value;
    // The column's format, from the other values; one whose bare digits its row's arithmetic already read says nothing.
    const others = printed.filter((q, j) => j !== i && !(fixed[j] && bareDigits(q.text)));
    if (others.length < 2 || !others.every((q) => twoDecimals(q.text))) return p.value;
    return amountReadings(p)[1] ?? p.value;
  });
}
