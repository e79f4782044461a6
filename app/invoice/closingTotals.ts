/**
 * Totals that close: the document totals EN 16931 ties together — total without VAT (BT-109) + VAT (BT-110) = total
 * with VAT (BT-112) — chosen so that the identity holds, where the labels alone leave them open.
 *  1. A totals table with one row per VAT rate ("Nettobetrag | MwSt-Betrag | MwSt-% | Endbetrag" over a row for 19 %,
 *     one for 7 % and a sum row): every row closes net + VAT = gross, so the identity cannot tell a rate's row from
 *     the document's. The document's figure is the sum row — the row that equals the sum of the rows above it —
 *     and with no sum row the column is left to other evidence (perRateColumnFigure).
 *  2. One of the three missing, off by its sign (a credit note printing "Steuerbetrag -" over "1,12", a total label
 *     the text layer broke apart) or a VAT read from one rate's row: the value the identity implies, kept only where
 *     the page prints it (closeTotals).
 *  3. No total label at all (an insurer's "Gesamtbeitrag / Versicherungsteuer 19 % / Rechnungsbeitrag"): three lines
 *     in a row, each ending in one amount, where the first two add up to the third and the second is the first times
 *     a rate printed on its own line (closingTriple); or, for gross prices, two lines — a gross amount and the tax
 *     it includes ("Beitrag inklusive 19 % Versicherungsteuer 220,00 €" over "enthaltene Versicherungsteuer
 *     (35,13 €)", "Total incl. 20 % VAT" over "VAT included") — where tax = gross × rate / (1 + rate) for a rate
 *     printed on either line: the net is gross − tax, kept where printed. A subtotal read equal to the total, beside
 *     the tax it includes at a rate the page prints, is such a gross amount too (a till's "Sub Total" with prices
 *     that include the tax): no net is read then, its items being gross too, and the tax stands.
 */
import type { Word } from '../model/extraction.js';
import type { FieldValue } from './fieldValues.js';
import type { Segment, TextLine } from './layout.js';
import { printedAmount } from './inferSubtotal.js';
import { moneyAmounts } from './moneyAmounts.js';

type Money = FieldValue<number>;

/** Amounts agree within a cent per operand (rounding on the printed invoice). */
const CENT = 0.01;
/** Rows of a per-rate totals table sit at most this many row heights apart (a sum row is often set off by a gap). */
const TABLE_ROW_GAP = 2.5;
/** A table of more rows than this under a totals header is an item list, not per-rate totals. */
const MAX_RATE_ROWS = 6;
/** Evidence labels the confidence reads (fieldConfidence.ts). */
export const SUM_ROW_LABEL = 'sum row of a per-rate table';
export const CLOSED_BY_IDENTITY = 'closed by subtotal + tax = total';
export const CLOSING_TRIPLE = 'net + tax = gross lines';
export const INCLUDED_TAX = 'tax included in the gross';

const cents = (value: number): number => Math.round(value * 100) / 100;
const close = (a: number, b: number, operands: number): boolean => Math.abs(a - b) <= CENT * operands + 1e-9;

/** The amounts in a header label's column, row by row under it, until the column ends. */
function columnAmounts(lines: readonly TextLine[], headerLine: number, header: Segment): { value: Money; line: number }[] {
  const rows: { value: Money; line: number }[] = [];
  let previous = lines[headerLine]!;
  for (let l = headerLine + 1; l < lines.length && rows.length <= MAX_RATE_ROWS; l++) {
    const line = lines[l]!;
    if (line.y - (previous.y + previous.height) > TABLE_ROW_GAP * Math.max(1, previous.height)) break;
    const cell = line.segments.find((seg) => Math.min(seg.x2, header.x2) - Math.max(seg.x1, header.x1) > 0);
    const amounts = cell ? moneyAmounts(cell.text) : [];
    if (!cell || amounts.length !== 1) break;
    const amount = amounts[0]!;
    rows.push({ value: { value: amount.value, text: amount.text, words: cell.words, label: null }, line: l });
    previous = line;
  }
  return rows;
}

/**
 * A money label that heads a column of several rows: the sum row's value (rule 1), `null` where the column has
 * several rows and none sums the others, `undefined` where the label heads no such column (one row or none).
 */
export function perRateColumnFigure(lines: readonly TextLine[], headerLine: number, header: Segment): Money | null | undefined {
  const rows = columnAmounts(lines, headerLine, header);
  if (rows.length < 2 || rows.length > MAX_RATE_ROWS) return undefined;
  const last = rows[rows.length - 1]!;
  const above = rows.slice(0, -1).map((r) => r.value.value);
  if (close(cents(above.reduce((a, b) => a + b, 0)), last.value.value, above.length)) return { ...last.value, label: SUM_ROW_LABEL };
  return null;
}

export interface Totals {
  subtotal: Money | null;
  tax: Money | null;
  total: Money | null;
}

const implied = (value: number, lines: readonly TextLine[], rule: string): Money | null => {
  const printed = printedAmount(lines, value) ?? printedAmount(lines, Math.abs(value));
  return printed ? { value: cents(value), text: printed.text, words: printed.words, label: rule } : null;
};

/**
 * The tax that closes total − subtotal, where the page prints it. Never against the total's sign: a total above its
 * subtotal by a printed amount is taxed, one below it had a deduction (a till's rounding "-0.01", a discount), and
 * a VAT total is negative only on a credit note, whose total is negative too (BT-110 follows the document's sign).
 */
function impliedTax(total: Money, subtotal: Money, lines: readonly TextLine[]): Money | null {
  const value = cents(total.value - subtotal.value);
  if (value !== 0 && Math.sign(value) !== Math.sign(total.value)) return null;
  return implied(value, lines, CLOSED_BY_IDENTITY);
}

/** Rule 2: complete or re-sign the totals so that subtotal + tax = total holds, from amounts the page prints. */
export function closeTotals(lines: readonly TextLine[], totals: Totals): Totals {
  const { subtotal, tax, total } = totals;
  if (subtotal && tax && total) {
    if (close(subtotal.value + tax.value, total.value, 2)) return totals;
    // A deduction printed without its sign ("-" on the line above, a credit note's VAT printed positive).
    if (tax.value !== 0 && close(subtotal.value - tax.value, total.value, 2)) return { ...totals, tax: { ...tax, value: -tax.value } };
    // Prices that include the tax (a till's "Sub Total 67.85 / GST 6% 3.84 / Total 67.85"): the subtotal printed is the
    // gross and the tax the one it includes at a rate the page prints. No total without tax (BT-109) is read then: the
    // page's items are gross too, so a net read from elsewhere would fail the items' sum (BR-CO-10) as the gross
    // failed subtotal + tax = total; and the tax stands (the identity would have made it 0.00).
    if (includesTax(lines, subtotal, tax, total)) return { ...totals, subtotal: null };
    // The tax read was a rate's row (a breakdown row named "Umsatzsteuer"): the VAT total is what closes the identity,
    // where the page prints it.
    return { ...totals, tax: impliedTax(total, subtotal, lines) ?? tax };
  }
  if (subtotal && tax && !total) return { ...totals, total: implied(cents(subtotal.value + tax.value), lines, CLOSED_BY_IDENTITY) };
  if (subtotal && total && !tax) return { ...totals, tax: impliedTax(total, subtotal, lines) };
  if (total && !subtotal && !tax) return linesAboveTotal(lines, total) ?? totals;
  return totals;
}

/** The subtotal read is the total itself and the tax is the one a gross amount includes at a rate printed on the page. */
function includesTax(lines: readonly TextLine[], subtotal: Money, tax: Money, total: Money): boolean {
  if (tax.value <= 0 || tax.value >= total.value || !close(subtotal.value, total.value, 1)) return false;
  return includedAtRate(total.value, tax.value, lines.flatMap((line) => lineRates(line.text)));
}

/** `tax` is the tax a `gross` amount includes at one of `rates` (fractions): gross × rate / (1 + rate), to a cent. */
const includedAtRate = (gross: number, tax: number, rates: readonly number[]): boolean => rates.some((rate) => close((gross * rate) / (1 + rate), tax, 1));

/** A word that names a tax (the middle line of net / tax / gross). */
const taxWord = /(?:steuer|tax|vat|tva|mwst|ust\b|iva|btw|gst)/iu;

/**
 * A labelled total with neither subtotal nor tax read: the two lines right above it, the second naming a tax, whose
 * amounts add up to it ("Gesamtbeitrag 1.000,00 € / Versicherungsteuer … 163,40 € / Rechnungsbetrag 1.163,40 €").
 */
function linesAboveTotal(lines: readonly TextLine[], total: Money): Totals | null {
  const l = lines.findIndex((line) => total.words.length > 0 && total.words.every((w) => line.words.includes(w)));
  if (l < 2) return null;
  const [net, vat] = [endingAmount(lines[l - 2]!), endingAmount(lines[l - 1]!)];
  if (!net || !vat || !taxWord.test(lines[l - 1]!.segments[0]!.text) || !close(net.value + vat.value, total.value, 2)) return null;
  const tag = (m: Money): Money => ({ ...m, label: `${m.label} (${CLOSING_TRIPLE})` });
  return { subtotal: tag(net), tax: tag(vat), total };
}

/** Rates printed on a line, as fractions ("Versicherungsteuer 19 %" → 0.19). */
const lineRates = (text: string): number[] =>
  [...text.matchAll(/(?<![\d.,])(\d{1,2}(?:[.,]\d{1,2})?)\s?%/g)].map((m) => Number(m[1]!.replace(',', '.')) / 100).filter((r) => r > 0 && r < 0.5);

/** The one money amount a line ends with (its last segment), or null. */
function endingAmount(line: TextLine): Money | null {
  const last = line.segments[line.segments.length - 1];
  if (!last || line.segments.length < 2) return null;
  const amounts = moneyAmounts(last.text);
  if (amounts.length !== 1) return null;
  return { value: amounts[0]!.value, text: amounts[0]!.text, words: last.words as Word[], label: line.segments[0]!.text };
}

/** Rule 3: the last run of three lines net, tax (at a rate printed on its line), gross with net + tax = gross. */
export function closingTriple(lines: readonly TextLine[], skip: ReadonlySet<number>): Totals | null {
  let found: Totals | null = null;
  for (let l = 0; l + 2 < lines.length; l++) {
    if (skip.has(l) || skip.has(l + 1) || skip.has(l + 2)) continue;
    const [net, vat, gross] = [endingAmount(lines[l]!), endingAmount(lines[l + 1]!), endingAmount(lines[l + 2]!)];
    if (!net || !vat || !gross || net.value === 0 || !close(net.value + vat.value, gross.value, 2)) continue;
    if (!lineRates(lines[l + 1]!.text).some((rate) => close(net.value * rate, vat.value, 2))) continue;
    const tag = (m: Money): Money => ({ ...m, label: `${m.label} (${CLOSING_TRIPLE})` });
    found = { subtotal: tag(net), tax: tag(vat), total: tag(gross) };
  }
  return found ?? includedTaxPair(lines, skip);
}

/** Rule 3 for gross prices: the last gross line followed by the tax it includes at a rate printed on either line. */
function includedTaxPair(lines: readonly TextLine[], skip: ReadonlySet<number>): Totals | null {
  let found: Totals | null = null;
  for (let l = 0; l + 1 < lines.length; l++) {
    if (skip.has(l) || skip.has(l + 1)) continue;
    const [gross, vat] = [endingAmount(lines[l]!), endingAmount(lines[l + 1]!)];
    if (!gross || !vat || gross.value <= 0 || vat.value <= 0 || vat.value >= gross.value) continue;
    const rates = [...lineRates(lines[l]!.text), ...lineRates(lines[l + 1]!.text)];
    if (!includedAtRate(gross.value, vat.value, rates)) continue;
    const tag = (m: Money): Money => ({ ...m, label: `${m.label} (${INCLUDED_TAX})` });
    found = { subtotal: implied(cents(gross.value - vat.value), lines, INCLUDED_TAX), tax: tag(vat), total: tag(gross) };
  }
  return found;
}
