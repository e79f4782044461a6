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

const currencySymbols: [RegExp, string][] = [
  [/€/g, 'EUR'],
  [/\$/g, 'USD'],
  [/£/g, 'GBP'],
  [/₹|(?<![\p{L}])Rs\.?(?=\s?-?\d)/gu, 'INR'],
  // The ringgit's symbol before an amount ("RM 12.50", "RM12.50") or over an amount column ("Amount (RM)").
  [/(?<![\p{L}])RM(?=\s?-?\d|\))/gu, 'MYR'],
  [/zł/g, 'PLN'],
  [/¥/g, 'JPY'],
];

export function detectCurrency(words: Word[], text: string): FieldValue<string> | null {
  const counts = new Map<string, number>();
  for (const code of currencyCodes) {
    const n = (text.match(new RegExp(`(?<![A-Za-z])${code}(?![A-Za-z])`, 'g')) ?? []).length;
    if (n) counts.set(code, (counts.get(code) ?? 0) + 2 * n);
  }
  for (const [pattern, code] of currencySymbols) {
    const n = (text.match(pattern) ?? []).length;
    if (n) counts.set(code, (counts.get(code) ?? 0) + n);
  }
  const best = [...counts].sort((a, b) => b[1] - a[1])[0];
  if (!best) return null;
  const code = best[0];
  const evidence = words.filter((w) => w.text.includes(code) || currencySymbols.some(([p, c]) => c === code && new RegExp(p.source, p.flags).test(w.text)));
  return { value: code, text: evidence[0]?.text ?? code, words: evidence.slice(0, 1), label: null };
}
