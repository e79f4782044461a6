/**
 * A receipt's amount paid held against the page's own arithmetic. The till conventions (receiptReading.ts) take the
 * last total line before the payment lines, or the amount tendered − change; OCR of a faded print misreads one of
 * those amounts often enough ("TOTAL 48.20" over "MASTER 46.20", "Net Total 3.00" under "Total Sales 9.00") that
 * the one chosen is checked against what the rest of the receipt adds up to:
 *
 * - its tax summary: Σ (base + tax) over the rows, where every row's tax is its base × its printed rate (BR-CO-17, to
 *   the cent a till rounds each line to) — a strong check: two amounts tied by a printed rate rarely agree by chance;
 * - the printed subtotal + tax − discount (+ a rounding adjustment) — a weak one: its labels are read by OCR too;
 * - a tax the total includes at a printed rate ("Bill inclusive of 6 % GST: 3.62": 3.62 = paid × 6 / 106) — weak:
 *   a cent of tax spans several cents of total.
 *
 * Where the chosen amount passes no check (or none was chosen) and another amount the receipt prints as paid passes a
 * strong one, or is tendered − change and passes a weak one, that amount is the one paid: two independent prints
 * agreeing outweigh one. Failing those, a subtotal that passes a strong one.
 * A chosen amount that any check or the till's identity confirms stands, and so does every receipt without checks.
 */
import type { Word } from '../model/extraction.js';
import type { FieldValue } from './fieldValues.js';
import type { TextLine } from './layout.js';
import { moneyAmounts } from './moneyAmounts.js';
import { isPaymentLine } from './receiptConventions.js';
import { roundingLine, tillText, type PaidAlternatives } from './receiptReading.js';
import { CASH_STEP, round2, toCashStep, toCents, withinCents } from './rules/money.js';
import type { VatRow } from './vatBreakdown.js';

export interface PaidCheck {
  /** What the check adds up, for the total's label ("tax summary 8.49 + 0.51"). */
  why: string;
  strong: boolean;
  holds(paid: number): boolean;
}

export interface PaidContext {
  lines: readonly TextLine[];
  /** Printed under their labels (not derived from the total). */
  subtotal: number | null;
  tax: number | null;
  breakdown: readonly VatRow[];
}

const discountLine = /(?<![\p{L}])(?:disc(?:ount)?|less)(?![\p{L}])/iu;
const rateOnLine = /(?<![\d.,])(\d{1,2}(?:[.,]\d{1,2})?)\s?%/gu;

/** The amount a line ends with (read as a till's line: "RM0.02"), or null. */
function endingValue(line: TextLine): number | null {
  const amounts = moneyAmounts(tillText(line.text));
  return amounts.length > 0 ? amounts[amounts.length - 1]!.value : null;
}

/** `sum` equals `paid` to the cent, or once rounded to the smallest coin where the till prints a rounding line. */
const sameAmount = (sum: number, paid: number, rounds: boolean): boolean => toCents(sum) === toCents(paid) || (rounds && toCents(toCashStep(sum)) === toCents(paid));

/** A tax summary row: a base and its tax at one printed rate, the tax being the base × rate (taxAtRate). */
interface TaxRow {
  base: number;
  tax: number;
  /** The row's words where it was read from a line (not from the invoice readers' breakdown). */
  words?: Word[];
}

/** Lines that charge a service or take a discount at a rate ("Srv Chrg 10% 31.70 3.17"): no tax, whatever the arithmetic. */
const notTaxRow = /(?<![\p{L}])(?:serv|svc|srv|service|chrg|charge|disc|discount|tip)/iu;

/**
 * Tax summary rows the page prints ("SR (6%) 8.49 0.51", "S 6% 4.66 0.29"): a line with one rate and two amounts, the
 * second the first × the rate, whether or not a header names the table (a till's summary rarely has one the invoice
 * readers know). The breakdown the invoice readers found adds its rows; a row printed twice counts once.
 */
function taxRows(lines: readonly TextLine[], breakdown: readonly VatRow[]): TaxRow[] {
  const rows: TaxRow[] = [];
  const add = (row: TaxRow): void => {
    if (!rows.some((r) => toCents(r.base) === toCents(row.base) && toCents(r.tax) === toCents(row.tax))) rows.push(row);
  };
  for (const line of lines) {
    const text = tillText(line.text);
    const rates = [...text.matchAll(rateOnLine)].map((m) => Number(m[1]!.replace(',', '.')));
    const amounts = moneyAmounts(text.replace(rateOnLine, ' '));
    if (rates.length !== 1 || amounts.length !== 2 || notTaxRow.test(text)) continue;
    const [base, tax] = [amounts[0]!.value, amounts[1]!.value];
    if (base > 0 && tax >= 0 && taxAtRate(base, rates[0]!, tax)) add({ base, tax, words: line.words });
  }
  for (const row of breakdown) if (row.rate !== null && row.base !== null && row.amount !== null && !row.baseFromSubtotal && taxAtRate(row.base, row.rate, row.amount)) add({ base: row.base, tax: row.amount });
  return rows;
}

/** `tax` is `base` × `rate` % to the cent a till's per-line rounding leaves. */
const taxAtRate = (base: number, rate: number, tax: number): boolean => rate >= 0 && rate < 50 && withinCents(round2((base * rate) / 100), tax, 0.01);

/** The checks a receipt's own arithmetic offers for its amount paid (see the module comment); none where it prints no sums. */
export function paidChecks(context: PaidContext): PaidCheck[] {
  const { lines, subtotal, tax, breakdown } = context;
  const rounding = lines.findIndex((line) => roundingLine.test(line.text));
  const rounds = rounding >= 0;
  const checks: PaidCheck[] = [];
  const rows = taxRows(lines, breakdown);
  if (rows.length > 0) {
    const sum = rows.reduce((a, row) => a + toCents(row.base) + toCents(row.tax), 0) / 100;
    if (sum > 0) checks.push({ why: `tax summary ${rows.map((r) => `${r.base.toFixed(2)} + ${r.tax.toFixed(2)}`).join(' + ')}`, strong: true, holds: (paid) => sameAmount(sum, paid, rounds) });
  }
  if (subtotal !== null && tax !== null && tax > 0 && tax < subtotal) {
    const discount = lines.filter((line) => discountLine.test(line.text)).map(endingValue).find((v) => v !== null) ?? 0;
    const adjustment = rounds ? (endingValue(lines[rounding]!) ?? 0) : 0;
    // A rounding adjustment is under the smallest coin; a larger amount on that line is the rounded total itself.
    const adjust = Math.abs(adjustment) < CASH_STEP ? adjustment : 0;
    const sum = (toCents(subtotal) + toCents(tax) - Math.abs(toCents(discount)) + toCents(adjust)) / 100;
    checks.push({ why: `subtotal ${subtotal.toFixed(2)} + tax ${tax.toFixed(2)}${discount ? ` − discount ${Math.abs(discount).toFixed(2)}` : ''}`, strong: false, holds: (paid) => sameAmount(sum, paid, rounds) });
  }
  // A tax the paid amount includes, printed on a line with its rate and no other amount ("Inclusive of 6% GST: 3.62").
  for (const line of lines) {
    const text = tillText(line.text);
    const rates = [...text.matchAll(rateOnLine)].map((m) => Number(m[1]!.replace(',', '.'))).filter((r) => r > 0 && r < 50);
    const amounts = moneyAmounts(text.replace(rateOnLine, ' '));
    if (rates.length !== 1 || amounts.length !== 1 || !/incl/iu.test(text)) continue;
    const [rate, included] = [rates[0]!, amounts[0]!.value];
    if (included <= 0) continue;
    checks.push({ why: `${included.toFixed(2)} tax included at ${rate} %`, strong: false, holds: (paid) => paid > included && toCents((paid * rate) / (100 + rate)) === toCents(included) });
  }
  return checks;
}

/** The line whose words hold all of `value`'s; −1 where none does. */
const lineOf = (lines: readonly TextLine[], value: FieldValue<number>): number =>
  value.words.length === 0 ? -1 : lines.findIndex((line) => value.words.every((w) => line.words.includes(w)));

/**
 * Whether a line between `from` and `to` (exclusive) ends with the amount `difference`: a deduction or addition the
 * receipt prints between two totals ("Total 21.20", "Member Savings 2.00", "Net Total 19.20") explains why they differ,
 * whatever its label.
 */
function differencePrinted(lines: readonly TextLine[], from: number, to: number, difference: number): boolean {
  const [a, b] = from < to ? [from, to] : [to, from];
  if (a < 0) return false;
  for (let i = a + 1; i < b; i++) {
    const amount = endingValue(lines[i]!);
    if (amount !== null && toCents(Math.abs(amount)) === toCents(Math.abs(difference))) return true;
  }
  return false;
}

/**
 * The amount paid where the chosen one fails every check (or none was chosen) and another amount the receipt prints
 * as paid (receiptTotalAlternatives) is confirmed (see the module comment); null where the chosen one stands. An
 * alternative whose difference from the chosen amount is printed between their lines is no contradiction: the
 * receipt took it off or added it on there.
 */
export function corroboratedPaid(lines: readonly TextLine[], chosen: FieldValue<number> | null, alternatives: PaidAlternatives, checks: readonly PaidCheck[]): FieldValue<number> | null {
  if (checks.length === 0) return null;
  const { tillPaid, printed, subtotals } = alternatives;
  if (chosen && (checks.some((check) => check.holds(chosen.value)) || (tillPaid && toCents(tillPaid.value) === toCents(chosen.value)))) return null;
  const chosenLine = chosen ? lineOf(lines, chosen) : -1;
  for (const alternative of [...(tillPaid ? [tillPaid] : []), ...printed]) {
    if (chosen && toCents(alternative.value) === toCents(chosen.value)) continue;
    if (chosen && differencePrinted(lines, chosenLine, alternative.line, alternative.value - chosen.value)) continue;
    const passed = checks.filter((check) => check.holds(alternative.value));
    const confirmed = passed.some((check) => check.strong) || (alternative === tillPaid && passed.length > 0);
    if (confirmed) return { ...alternative, label: `${alternative.label ?? ''} (= ${passed.map((c) => c.why).join(' = ')})`.trim() };
  }
  // No total line confirmed: a subtotal the tax summary's arithmetic confirms ("Subtotal: 130.00" and "SR @6% 122.64
  // 7.36", where the line read as the total is the amount before tax, its "Excl." misread "Exal."). A till prices its
  // items with their tax, so the subtotal is the amount paid where the summary — made after any discount — adds up to
  // it; a difference printed between the subtotal and the chosen total (a saving) still explains the chosen one. A
  // subtotal with only a weak check (the printed subtotal + tax) proves nothing: that check is made of the subtotal.
  for (const subtotal of subtotals) {
    if (chosen && toCents(subtotal.value) === toCents(chosen.value)) continue;
    if (chosen && chosenLine > subtotal.line && differencePrinted(lines, subtotal.line, chosenLine, subtotal.value - chosen.value)) continue;
    const passed = checks.filter((check) => check.strong && check.holds(subtotal.value));
    if (passed.length > 0) return { ...subtotal, label: `${subtotal.label ?? ''} (= ${passed.map((c) => c.why).join(' = ')})`.trim() };
  }
  return null;
}

/** In a total's label: no line named what was paid, and the tax summary's amounts + tax were taken. */
export const SUMMARY_ONLY = 'the tax summary\'s amounts + tax; no line names what was paid';

/**
 * Where no line of a receipt names what was paid (its total line lost to OCR), the tax summary's Σ amount + tax over
 * rows whose tax is the amount × the printed rate (taxRows): the till's total before any rounding, two amounts tied by
 * a printed rate. A better last resort than the largest amount (often the cash tendered or the summary's own amount),
 * though a summary that leaves out untaxed items falls short of the total: held low. Null where no such row is read,
 * or where an amount off the payment lines is larger (a part of the sale larger than the whole).
 */
export function summaryPaid(lines: readonly TextLine[]): FieldValue<number> | null {
  const rows = taxRows(lines, []);
  const sum = rows.reduce((a, row) => a + toCents(row.base) + toCents(row.tax), 0) / 100;
  if (rows.length === 0 || sum <= 0) return null;
  // What was paid is no less than any part of the sale the page prints — an item, the subtotal: an amount above the
  // sum off the payment lines says a row was misread ("S 6% 4.66 0.29" under "SUBTOTAL 5.15", its 4.86 read 4.66).
  // Amounts with their cents only, as a till prints them: an item's barcode after a stray "¥" is none.
  if (lines.some((line) => !isPaymentLine(line.text) && moneyAmounts(tillText(line.text)).some((a) => /\d[.,]\d{2}$/.test(a.text) && toCents(a.value) > toCents(sum)))) return null;
  return { value: sum, text: sum.toFixed(2), words: rows.flatMap((row) => row.words ?? []), label: `tax summary ${rows.map((r) => `${r.base.toFixed(2)} + ${r.tax.toFixed(2)}`).join(' + ')} (${SUMMARY_ONLY})` };
}
