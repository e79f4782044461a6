/**
 * Readers of one value from a label's candidate text: an identifier, a date, a money amount, and the page's currency
 * and date order. Each returns the words that carry the value, so the UI can draw their boxes. Number formats
 * `1,234.56` and `1.234,56` (amounts.ts); dates in the page's own order (dates.ts).
 */
import type { Word } from '../model/extraction.js';
import { currencyCodes } from './amounts.js';
import { findDates } from './dates.js';
import type { FieldValue } from './fieldValues.js';
import type { Candidate } from './labelHits.js';
import { moneyAmounts } from './moneyAmounts.js';

// The page's date order has its own module; kept importable from here.
export { monthFirstDates } from './dateOrder.js';

export function wordsOf(candidate: Candidate, text: string): Word[] {
  const tokens = new Set(text.split(/\s+/).filter(Boolean));
  const picked = candidate.words.filter((w) => tokens.has(w.text) || [...tokens].some((t) => w.text.includes(t) || t.includes(w.text)));
  return picked.length > 0 ? picked : candidate.words;
}

const idStopwords = /^(?:n[°º]\.?|no\.?|nr\.?|num\.?|#|:|number|nummer)$/i;

/** A specific label ("Rechnung Nr.") vouches for a short number ("42"); after a generic one an id needs 3 characters. */
export const SHORT_ID_LENGTH = 2;
export const ID_LENGTH = 3;

export function readIdentifier(candidate: Candidate, minLength = ID_LENGTH): Candidate | null {
  const tokens = candidate.text.split(/\s+/).filter((t) => t && !idStopwords.test(t));
  if (tokens.length === 0) return null;
  let id = tokens[0]!.replace(/^(?:[#:]+|n[°º]\.?|no\.|nr\.)/i, '').replace(/[,;:.]+$/, '');
  // A short letter prefix printed apart from the number ("F 1234K20/1234/12", "# BLR_…" handled above).
  if (/^[A-Z]{1,3}$/.test(id) && tokens[1] && /\d/.test(tokens[1])) id = `${id} ${tokens[1].replace(/[,;:.]+$/, '')}`;
  if (!/\d/.test(id) || id.replace(/\s/g, '').length < minLength) return null;
  if (findDates(id).length > 0 && findDates(id)[0]!.text.length === id.length) return null;
  return { text: id, words: wordsOf(candidate, id) };
}

export function readDate(candidate: Candidate, monthFirst: boolean): FieldValue<string> | null {
  const date = findDates(candidate.text, { monthFirst })[0];
  return date ? { value: date.iso, text: date.text, words: wordsOf(candidate, date.text), label: null } : null;
}

export function readMoney(candidates: Candidate[]): FieldValue<number> | null {
  let last: FieldValue<number> | null = null;
  for (const candidate of candidates) {
    for (const amount of moneyAmounts(candidate.text)) {
      last = { value: amount.value, text: amount.text, words: wordsOf(candidate, amount.text), label: null };
    }
  }
  return last;
}

/** The least evidence that names the page's currency: one sign by an amount or over a column, not a lone sign. */
const NAMES_THE_CURRENCY = 0.75;
/** A sign of one glyph: OCR makes one of a speck, never a sign of two letters ("RM"). */
const singleGlyph = /^.$/u;
/** Currency signs and the code each stands for. */
const currencySigns: [RegExp, string][] = [
  [/€/u, 'EUR'],
  [/\$/u, 'USD'],
  [/£/u, 'GBP'],
  [/₹/u, 'INR'],
  // The ringgit's sign as a word of its own: before an amount ("RM 12.50", "RM12.50"), over an amount column
  // ("Amount (RM)"), beside a label ("Parking fee RM"); never inside a word ("FORM").
  [/(?<![\p{L}])RM(?![\p{L}])/u, 'MYR'],
  [/zł/u, 'PLN'],
  [/¥/u, 'JPY'],
];
/** Signs that are also letters of words ("Rs" of "Mrs"): a sign only where an amount stands beside them. */
const amountBoundSigns: [RegExp, string][] = [[/(?<![\p{L}])Rs\.?(?![\p{L}])/u, 'INR']];

/** A number as an amount prints it: up to six digits, or digits grouped by thousands, with or without decimals. */
const printedNumber = /^[(\-−]?(?:\d{1,3}(?:[.,'\u00a0]\d{3})+|\d{1,6})(?:[.,]\d{1,2})?\)?$/u;
/** An amount with its decimals ("0.20", "1.234,56"): what a price prints, unlike a grade or a count ("RON 95"). */
const decimalAmount = /^[(\-−]?\d[\d.,'\u00a0]*[.,]\d{2}\)?$/u;
/** What stands before a currency in a column's header, "Gesamt/€", "Betrag/EUR": the column's currency. */
const columnHeader = /^\p{L}[\p{L}.-]*\/$/u;
const trimmed = (token: string): string => token.replace(/^[:;]+|[:;,.]+$/gu, '');

/**
 * How much one token says the page is in `code`, with its neighbours: a code or sign beside an amount is the
 * amount's currency; a sign alone (a column's "(€)", the ringgit's "RM" over a column) names the page's; a code
 * alone may be a word ("PEN", "SAR" on an English receipt) or a column header ("Betrag EUR"), weaker; a sign
 * inside other characters is OCR's noise on a scan ("$0gzm", "¥%", "*¥*", a phone number "$4004290047"), and a
 * code glued to a whole number a product's grade ("RON95"): no evidence. Null where the token names no currency.
 */
function currencyWeight(token: string, before: string, after: string, lineHasDecimals: boolean): { code: string; weight: number } | null {
  const beside = [before, after].map(trimmed);
  const besideDecimals = beside.some((t) => decimalAmount.test(t));
  const besideNumber = beside.some((t) => printedNumber.test(t));
  const bare = trimmed(token).replace(/^[([]+|[)\]]+$/gu, '');
  const bracketed = /^[([]|[)\]]$/u.test(trimmed(token));
  const code = currencyCodes.find((c) => bare.startsWith(c) || bare.endsWith(c));
  if (code && new RegExp(`(?<![A-Za-z])${code}(?![A-Za-z])`).test(bare)) {
    const rest = bare.replace(code, '');
    if (rest !== '') return { code, weight: decimalAmount.test(rest) ? 2 : columnHeader.test(rest) ? 1 : 0 };
    // A label's value ("Währung: EUR", "Currency : USD"), or the code an amount is printed with.
    if (besideDecimals || before.endsWith(':')) return { code, weight: 2 };
    // Between two words, a code is one of them ("TAU SAR PNEAH", a product).
    if (beside.every((t) => /^\p{L}{2,}$/u.test(t))) return { code, weight: 0 };
    return { code, weight: bracketed ? 1 : 0.5 };
  }
  for (const [sign, signCode] of [...currencySigns, ...amountBoundSigns]) {
    const match = sign.exec(bare);
    if (!match) continue;
    const rest = bare.replace(match[0], '').replace(/^[([]+|[)\]]+$/gu, '');
    const amountBound = amountBoundSigns.some(([p]) => p === sign);
    // Alone, or per unit ("€/kWh").
    if (rest === '' || rest.startsWith('/')) {
      if (amountBound && !besideNumber) return null;
      return { code: signCode, weight: besideDecimals || bracketed || lineHasDecimals ? 1 : singleGlyph.test(match[0]) ? 0.5 : NAMES_THE_CURRENCY };
    }
    if (columnHeader.test(rest)) return { code: signCode, weight: 1 };
    if (decimalAmount.test(rest)) return { code: signCode, weight: 1 };
    if (printedNumber.test(rest)) return { code: signCode, weight: 0.5 };
    return null;
  }
  return null;
}

/**
 * The page's currency: the code or sign its amounts are printed with, weighed by what stands beside each
 * (currencyWeight) — a scan's stray "$" or "¥" in noise does not outweigh the ringgit printed by the amounts, and
 * alone names nothing. Null where nothing names a currency.
 */
export function detectCurrency(words: Word[], text: string): FieldValue<string> | null {
  const weights = new Map<string, number>();
  for (const line of text.split('\n')) {
    // A bracketed sign or code is a word of its own where OCR glued it to its label ("Amount(RM)", "Tax(MYR)"), and
    // so is an amount after a label's colon ("CC'7186:RM76.30").
    const tokens = line.replace(/(?<=[\p{L}\p{N}])(?=[([])|(?<=:)(?=\S)/gu, ' ').split(/\s+/).filter(Boolean);
    const lineHasDecimals = tokens.some((t) => decimalAmount.test(trimmed(t)));
    tokens.forEach((token, i) => {
      const found = currencyWeight(token, tokens[i - 1] ?? '', tokens[i + 1] ?? '', lineHasDecimals);
      if (found && found.weight > 0) weights.set(found.code, (weights.get(found.code) ?? 0) + found.weight);
    });
  }
  const [best, second] = [...weights].sort((a, b) => b[1] - a[1]);
  // Two currencies named as strongly, or one only by a lone sign among words (a scan's noise as often as a currency):
  // the page does not say which is its own.
  if (!best || best[1] < NAMES_THE_CURRENCY || (second && second[1] === best[1])) return null;
  const code = best[0];
  const evidence = words.filter((w) => w.text.includes(code) || currencySigns.some(([p, c]) => c === code && p.test(w.text)));
  return { value: code, text: evidence[0]?.text ?? code, words: evidence.slice(0, 1), label: null };
}
