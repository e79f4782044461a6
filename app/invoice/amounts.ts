/** Amount-looking substrings of page text; parsing one amount is app/numbers' (linear time, length-capped). */
import { currencyCodes, MAX_DECIMAL_DIGITS, parseAmount } from '../numbers/index.js';

export { currencyCodes, parseAmount };
const codes = currencyCodes.join('|');
/** Most decimals a printed amount or price has (unit prices to four, some to six: 0,012345 €/kWh). */
const MAX_PRINTED_DECIMALS = 6;

export interface AmountMatch {
  value: number;
  /** The matched text. */
  text: string;
  index: number;
  /** A currency symbol or code is attached to the number. */
  hasCurrency: boolean;
  /** The number has a decimal part (`12.50`, `12,50`). */
  hasDecimals: boolean;
}

const prefix = `(?:(?:(?<![A-Za-z])(?:${codes})|Rs\\.?|[€$£¥₹])\\s?)?`;
const suffix = `(?:\\s?(?:(?:${codes})(?![A-Za-z])|[€$£¥₹]|zł))?(?!\\d)(?!\\s?%)`;
// `(?<!\\d)`: a number never starts inside a run of digits (such a match is refused below anyway); without it a long
// run followed by `%` is tried from every one of its digits, each try walking to the end — quadratic.
// Decimals: any number up to MAX_PRINTED_DECIMALS — unit prices are printed with four ("9,9000") or three ("0.025 €");
// whether three digits after one separator group thousands or are decimals is parseAmount's decision, not the pattern's.
const decimals = `(?:[.,]\\d{1,${MAX_PRINTED_DECIMALS}})?`;
const amountPattern = new RegExp(`${prefix}[-−]?\\(?(?<!\\d)\\d{1,3}(?:(?:[.,'’\\u00a0\\u202f ]\\d{3})+)?${decimals}\\)?${suffix}`, 'g');
const plainNumber = new RegExp(`${prefix}[-−]?(?<!\\d)\\d{1,${MAX_DECIMAL_DIGITS}}${decimals}${suffix}`, 'g');
const currencyMark = new RegExp(`${codes}|Rs|zł|[€$£¥₹]`);
// Three digits after the last separator read as a thousands group ("1.000"), not as decimals.
const endsWithCurrency = new RegExp(`[.,](?:\\d{1,2}|\\d{4,${MAX_PRINTED_DECIMALS}})\\)?(?:\\s?(?:${codes}|[€$£¥₹]|zł))?\\s*$`);

/** Amount-looking substrings of a text, left to right; percentages are skipped. */
export function findAmounts(text: string): AmountMatch[] {
  const found = new Map<number, AmountMatch>();
  // Matches of one pattern come left to right and never overlap, so a match need only be checked against the
  // earlier pattern's matches, with a pointer that moves forward (a scan of all of them made 10^5 numbers quadratic).
  let earlier: AmountMatch[] = [];
  for (const pattern of [amountPattern, plainNumber]) {
    let next = 0;
    pattern.lastIndex = 0;
    for (const m of text.matchAll(pattern)) {
      const index = m.index ?? 0;
      const before = text[index - 1];
      if (before !== undefined && /[\p{L}\d_/.,-]/u.test(before)) continue; // inside an identifier or date
      const after = text[index + m[0].length];
      if (after !== undefined && /[\p{L}_/\-\d]/u.test(after) && !/^[€$£¥₹]/.test(after)) continue;
      const value = parseAmount(m[0]);
      if (value === null) continue;
      while (next < earlier.length && earlier[next]!.index + earlier[next]!.text.length <= index) next++;
      const covering = earlier[next];
      if (covering && index >= covering.index) continue;
      found.set(index, {
        value,
        text: m[0].trim(),
        index,
        hasCurrency: currencyMark.test(m[0]),
        hasDecimals: endsWithCurrency.test(m[0].trim()),
      });
    }
    earlier = [...found.values()].sort((a, b) => a.index - b.index);
  }
  return [...found.values()].sort((a, b) => a.index - b.index);
}
