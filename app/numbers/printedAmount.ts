/**
 * Money amounts as printed on invoices, in either convention: `1,234.56` / `1.234,56` / `1 234,56` / `1'234.56`,
 * with currency symbols or codes around them, a minus sign or accounting parentheses.
 *
 * A single separator followed by exactly three digits is a thousands separator (`1,234` = 1234, `1.234` = 1234),
 * except after a lone zero (`0,025` = 0.025); otherwise the last separator is the decimal mark (`9,9000` = 9.9). Returns null for text that is not one amount.
 *
 * The text is page text or an analyst's entry, so untrusted: it is refused above MAX_AMOUNT_TEXT_CHARS before any
 * pattern looks at it (every pattern below then runs on a bounded string), the number itself is checked by one
 * left-to-right scan, and more than MAX_DECIMAL_DIGITS digits is refused, so a 400-digit "amount" is null, never
 * Infinity.
 */
import { MAX_DECIMAL_DIGITS } from './xmlDecimal.js';

/**
 * Longest text that can be one printed amount: 40 digits with their separators, a currency code, a sign and a few
 * spaces. Longer text is a sentence or a hostile run of digits, not an amount.
 */
export const MAX_AMOUNT_TEXT_CHARS = 80;

/**
 * ISO 4217 codes printed next to amounts on invoices. A closed list, not any three capitals: units ("1 PCS", "2 STK"),
 * tax markers and abbreviations beside a number must not turn the number into money.
 */
export const currencyCodes = [
  'EUR', 'USD', 'GBP', 'INR', 'PLN', 'CHF', 'JPY', 'CNY', 'CAD', 'AUD', 'SEK', 'NOK', 'DKK', 'CZK', 'HUF', 'RON', 'BGN',
  'SGD', 'HKD', 'NZD', 'ZAR', 'BRL', 'MXN', 'TRY', 'RUB', 'UAH', 'ISK', 'ILS', 'AED', 'SAR', 'KRW', 'TWD', 'THB', 'MYR',
  'IDR', 'PHP', 'VND', 'EGP', 'MAD', 'NGN', 'KES', 'ARS', 'CLP', 'COP', 'PEN', 'XOF', 'XAF',
] as const;
const codes = currencyCodes.join('|');
const currencyAffix = new RegExp(`^(?:${codes}|Rs\\.?|zł|[€$£¥₹₩₽])\\s*|\\s*(?:${codes}|Rs\\.?|zł|[€$£¥₹₩₽]|TTC|HT)$`);

/** Characters that group thousands in printed amounts (besides `.` and `,`). */
const GROUP_SPACES = new Set([' ', "'", '’', '\u00a0', '\u202f']);

function isDigit(ch: string): boolean {
  return ch >= '0' && ch <= '9';
}

/** Digits of `s`, or -1 when there are more than the cap (counted while scanning, so the scan stops early). */
export function digitCountWithin(s: string, cap = MAX_DECIMAL_DIGITS): number {
  let count = 0;
  for (let i = 0; i < s.length; i++) {
    if (isDigit(s[i]!) && ++count > cap) return -1;
  }
  return count;
}

export function parseAmount(raw: string): number | null {
  let s = raw.trim();
  if (s.length > MAX_AMOUNT_TEXT_CHARS) return null;
  let negative = false;
  if (s.startsWith('(') && s.endsWith(')')) {
    negative = true;
    s = s.slice(1, -1).trim();
  }
  for (let i = 0; i < 3; i++) s = s.replace(currencyAffix, '').trim();
  if (/^[-−–]/.test(s)) {
    negative = true;
    s = s.slice(1).trim();
  }
  for (let i = 0; i < 2; i++) s = s.replace(currencyAffix, '').trim();
  if (s.endsWith('-')) s = s.slice(0, -1).trim(); // "12,50-" (German credit notation)
  const normalised = normaliseAmountCore(s);
  if (normalised === null) return null;
  const value = Number(normalised);
  if (!Number.isFinite(value)) return null;
  return negative ? -value : value;
}

/**
 * `1.234,56` / `1,234.56` / `1 234` (no sign, no currency) → `1234.56` / `1234.56` / `1234`, or null. One scan
 * collects the digits and the separators' positions; the rules then look at those positions only.
 */
function normaliseAmountCore(s: string): string | null {
  if (s === '' || !isDigit(s[0]!)) return null;
  let compact = '';
  const separatorAt: number[] = []; // positions of `.` and `,` in `compact`
  const kinds = new Set<string>();
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (isDigit(ch)) compact += ch;
    else if (ch === '.' || ch === ',') {
      separatorAt.push(compact.length);
      kinds.add(ch);
      compact += ch;
    } else if (!GROUP_SPACES.has(ch)) return null;
    else if (i === s.length - 1) return null; // ends with a grouping space
  }
  if (!isDigit(compact[compact.length - 1]!)) return null; // ends with a separator
  if (digitCountWithin(compact) < 0) return null;
  if (separatorAt.length === 0) return compact;
  const lastSep = separatorAt[separatorAt.length - 1]!;
  const decimals = compact.length - lastSep - 1;
  // A thousands group never follows a lone zero: "0.025" and "0,025" are decimals (a price per unit), not 25.
  const zeroThenDecimals = separatorAt.length === 1 && lastSep === 1 && compact[0] === '0';
  if (kinds.size === 1 && (separatorAt.length > 1 || decimals === 3) && !zeroThenDecimals) {
    // Only one kind of separator, used for grouping ("1,234,567" or "1.234"): 1–3 digits, then groups of three.
    if (separatorAt[0]! < 1 || separatorAt[0]! > 3) return null;
    for (let k = 1; k < separatorAt.length; k++) if (separatorAt[k]! - separatorAt[k - 1]! !== 4) return null;
    if (decimals !== 3) return null;
    return compact.replace(/[.,]/g, '');
  }
  const integerPart = compact.slice(0, lastSep).replace(/[.,]/g, '');
  return `${integerPart || '0'}.${compact.slice(lastSep + 1)}`;
}
