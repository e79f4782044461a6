/**
 * Money arithmetic for the rules: amounts compared in whole cents, rounding half away from zero (as EN 16931's
 * "rounded to two decimals" is read by the reference validators), so -1.905 rounds to -1.91 like 1.905 to 1.91.
 */

/** Float noise of binary fractions (1.005 × 100 = 100.49999…) is cut at this many significant digits first. */
const SIGNIFICANT_DIGITS = 12;

export function toCents(value: number): number {
  const scaled = Number((Math.abs(value) * 100).toPrecision(SIGNIFICANT_DIGITS));
  const cents = Math.round(scaled);
  return value < 0 ? -cents : cents;
}

/** Rounded to two decimals, half away from zero. */
export function round2(value: number): number {
  return toCents(value) / 100;
}

/** The smallest coin a till rounds a cash total to where it prints a rounding adjustment (5 sen, 5 cents, 5 Rappen). */
export const CASH_STEP = 0.05;

/** `value` rounded to the smallest coin (CASH_STEP), to the cent. */
export function toCashStep(value: number): number {
  return round2(Math.round(toCents(value) / (CASH_STEP * 100)) * CASH_STEP);
}

/** Already a multiple of the smallest coin (to the cent): what a till that rounds asks a cash payer for. */
export function onCashStep(value: number): boolean {
  return toCents(toCashStep(value)) === toCents(value);
}

/** Equal once both are rounded to the cent. */
export function sameCents(a: number, b: number): boolean {
  return toCents(a) === toCents(b);
}

/** Within `tolerance` (a money amount) of each other, compared in cents so that 0.02 means two cents exactly. */
export function withinCents(a: number, b: number, tolerance: number): boolean {
  return Math.abs(toCents(a) - toCents(b)) <= toCents(tolerance);
}

/** A money amount as the rules' messages print it: two decimals, a minus sign for negatives. */
export function money(value: number): string {
  return round2(value).toFixed(2);
}

/** Σ of amounts, in cents (no float drift over many lines). */
export function sumCents(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + toCents(value), 0);
}

/**
 * How the rules' messages print numbers: amounts and plain numbers (quantities, rates). The default prints amounts
 * with two decimals and a dot; the review passes the document's own format (app/invoice/review/numberFormat.ts), so a
 * message names "1.234,50" where the German page prints it.
 */
export interface RuleFormat {
  amount(value: number): string;
  number(value: number): string;
}

export const plainFormat: RuleFormat = { amount: money, number: (value) => String(value) };
