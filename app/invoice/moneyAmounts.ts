/**
 * The money amounts of a text: amounts with decimals or a currency (a bare "3" or "2014" is a count or a year, not
 * money), read after the text's dates are blanked out so "August 3, 2014" does not read as amounts 3 and 2014.
 */
import { findAmounts, type AmountMatch } from './amounts.js';
import { findDates } from './dates.js';

/** An amount printed as money: with decimals or a currency. */
export const isMoney = (amount: AmountMatch): boolean => amount.hasDecimals || amount.hasCurrency;

/** `text` with each date replaced by as many spaces (offsets stay those of `text`). */
export function blankDates(text: string): string {
  let cleaned = text;
  for (const d of findDates(text)) cleaned = cleaned.slice(0, d.index) + ' '.repeat(d.text.length) + cleaned.slice(d.index + d.text.length);
  return cleaned;
}

/** Money amounts of a text, its dates blanked first ("Amount due on August 3, 2014  $4.11" → 4.11). */
export function moneyAmounts(text: string): AmountMatch[] {
  return findAmounts(blankDates(text)).filter(isMoney);
}
