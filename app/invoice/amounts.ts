/**
 * Money amounts as printed on invoices, in either convention: `1,234.56` / `1.234,56` / `1 234,56` / `1'234.56`,
 * with currency symbols or codes around them, a minus sign or accounting parentheses.
 *
 * A single separator followed by exactly three digits is a thousands separator (`1,234` = 1234, `1.234` = 1234);
 * otherwise the last separator is the decimal mark. Returns null for text that is not one amount.
 */
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

export function parseAmount(raw: string): number | null {
  let s = raw.trim();
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
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
  if (!/^\d[\d.,'’\u00a0\u202f ]*$/.test(s) || /[.,'’ ]$/.test(s)) return null;
  const compact = s.replace(/[\s'’\u00a0\u202f]/g, '');
  const separators = compact.match(/[.,]/g) ?? [];
  let normalised: string;
  if (separators.length === 0) normalised = compact;
  else {
    const lastSep = Math.max(compact.lastIndexOf('.'), compact.lastIndexOf(','));
    const decimals = compact.length - lastSep - 1;
    const distinct = new Set(separators);
    if (distinct.size === 1 && (separators.length > 1 || decimals === 3)) {
      // Only one kind of separator, used for grouping ("1,234,567" or "1.234").
      if (!/^\d{1,3}([.,]\d{3})+$/.test(compact)) return null;
      normalised = compact.replace(/[.,]/g, '');
    } else {
      const integerPart = compact.slice(0, lastSep).replace(/[.,]/g, '');
      if (!/^\d+$/.test(integerPart) && integerPart !== '') return null;
      normalised = `${integerPart || '0'}.${compact.slice(lastSep + 1)}`;
    }
  }
  const value = Number(normalised);
  if (!Number.isFinite(value)) return null;
  return negative ? -value : value;
}

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
const amountPattern = new RegExp(`${prefix}[-−]?\\(?\\d{1,3}(?:(?:[.,'’\\u00a0\\u202f ]\\d{3})+)?(?:[.,]\\d{1,2})?\\)?${suffix}`, 'g');
const plainNumber = new RegExp(`${prefix}[-−]?\\d+(?:[.,]\\d{1,2})?${suffix}`, 'g');
const currencyMark = new RegExp(`${codes}|Rs|zł|[€$£¥₹]`);
const endsWithCurrency = new RegExp(`[.,]\\d{1,2}\\)?(?:\\s?(?:${codes}|[€$£¥₹]|zł))?\\s*$`);

/** Amount-looking substrings of a text, left to right; percentages are skipped. */
export function findAmounts(text: string): AmountMatch[] {
  const found = new Map<number, AmountMatch>();
  for (const pattern of [amountPattern, plainNumber]) {
    pattern.lastIndex = 0;
    for (const m of text.matchAll(pattern)) {
      const index = m.index ?? 0;
      const before = text[index - 1];
      if (before !== undefined && /[\p{L}\d_/.,-]/u.test(before)) continue; // inside an identifier or date
      const after = text[index + m[0].length];
      if (after !== undefined && /[\p{L}_/\-\d]/u.test(after) && !/^[€$£¥₹]/.test(after)) continue;
      const value = parseAmount(m[0]);
      if (value === null) continue;
      if ([...found.values()].some((f) => index >= f.index && index < f.index + f.text.length)) continue;
      found.set(index, {
        value,
        text: m[0].trim(),
        index,
        hasCurrency: currencyMark.test(m[0]),
        hasDecimals: endsWithCurrency.test(m[0].trim()),
      });
    }
  }
  return [...found.values()].sort((a, b) => a.index - b.index);
}
