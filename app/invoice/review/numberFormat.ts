/**
 * Amounts in the document's own number format: a German invoice prints `1.234,56`, an English one `1,234.56`. The
 * format is read off the amounts the engine found (their printed text); an analyst's edit is parsed in that format,
 * so `12,50` on a German invoice is 12.5 and not 1250, and an ambiguous entry is refused rather than guessed.
 */

import type { NumberFormat } from '../../numbers/index.js';

export { parseAmountIn, type NumberFormat } from '../../numbers/index.js';

export const dotDecimal: NumberFormat = { decimal: '.', group: ',' };
export const commaDecimal: NumberFormat = { decimal: ',', group: '.' };

/** The decimal mark of printed amounts: the separator followed by exactly two digits at the end. */
export function detectNumberFormat(printed: readonly string[]): NumberFormat {
  let comma = 0;
  let dot = 0;
  for (const text of printed) {
    if (/\d,\d{2}(?!\d)/.test(text)) comma++;
    if (/\d\.\d{2}(?!\d)/.test(text)) dot++;
  }
  return comma > dot ? commaDecimal : dotDecimal;
}

/** An amount as the document would print it: two decimals, grouped thousands. */
export function formatAmountIn(value: number, format: NumberFormat): string {
  const negative = value < 0;
  const [whole, fraction] = Math.abs(value).toFixed(2).split('.') as [string, string];
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, format.group);
  return `${negative ? '-' : ''}${grouped}${format.decimal}${fraction}`;
}

/** A quantity: like an amount, but printed with as many decimals as it has. */
export function formatQuantityIn(value: number, format: NumberFormat): string {
  return String(value).replace('.', format.decimal);
}
