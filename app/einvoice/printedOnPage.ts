/**
 * Whether a page's text prints a value its e-invoice XML states, anywhere and the way pages print it. A page ≠ XML
 * disagreement where the page also prints the XML's value is Recto's reader choosing between two printed values (the
 * goods value read for the net amount, a document title taken for a name under a label, the order date for the issue
 * date): a doubt of the reading, not something the document says — it must not ask for a reason to approve. Where the
 * page prints the XML's value nowhere, the document itself disagrees, and that stays an exception.
 */
import { findAmounts } from '../invoice/amounts.js';
import { scalarFieldOf } from '../invoice/fieldCatalogue.js';
import { normaliseName } from './pageVsXml.js';

/** Terms printed as magnitudes whatever their sign in the XML: sum of allowances (BT-107), of charges (BT-108). */
const MAGNITUDE_TERMS: ReadonlySet<string> = new Set(['BT-107', 'BT-108']);

/** Money within half a cent is the same amount (as pageVsXml compares it). */
const MONEY_TOLERANCE = 0.005;

/** An amount printed with decimals (a bare count, a rate or a year is no amount) equal to `value`. */
export function printsAmount(text: string, value: number): boolean {
  return findAmounts(text).some((a) => a.hasDecimals && Math.abs(a.value - value) < MONEY_TOLERANCE);
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** An ISO date printed day-first, month-first or ISO, with `.`, `/` or `-`, padded or not, with a two- or four-digit year. */
export function printsDate(text: string, iso: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return false;
  const [, y, mo, d] = m as unknown as [string, string, string, string];
  const days = [d, String(Number(d))];
  const months = [mo, String(Number(mo))];
  const years = [y, y.slice(2)];
  const forms = new Set<string>([`${y}-${mo}-${d}`]);
  for (const day of days) {
    for (const month of months) {
      for (const year of years) for (const sep of ['.', '/', '-']) forms.add(`${day}${sep}${month}${sep}${year}`).add(`${month}${sep}${day}${sep}${year}`);
    }
  }
  return [...forms].some((form) => new RegExp(`(?<![\\d.])${escape(form)}(?![\\d])`).test(text));
}

/** A name printed on the page: the whole of it, or — for a name the XML spreads over lines (GLN, customer number, name) — each of its lines. */
export function printsName(text: string, name: string): boolean {
  const page = ` ${normaliseName(text)} `;
  const parts = name.split(/\r?\n/).map(normaliseName).filter((p) => p !== '');
  const whole = normaliseName(name);
  if (whole !== '' && page.includes(` ${whole} `)) return true;
  return parts.length > 0 && parts.every((p) => page.includes(` ${p} `));
}

/** An identifier printed as a whole token, not inside a longer one ("42" is not printed by "R-2042"). */
export function printsIdentifier(text: string, id: string): boolean {
  const value = id.trim();
  if (value === '') return false;
  return new RegExp(`(?<![\\p{L}\\d])${escape(value)}(?![\\p{L}\\d])`, 'u').test(text);
}

/**
 * Whether the page prints `value`, an XML value of the invoice-level field `field` (fieldCatalogue.ts), in the way its
 * kind is printed; a currency code is never taken as printed (every page names one).
 */
export function printsFieldValue(text: string, field: string, value: string | number): boolean {
  const entry = scalarFieldOf(field);
  const kind = entry?.kind;
  // Document allowances and charges (BT-107, BT-108) are printed as magnitudes under their label ("Abschlag 0,23")
  // while a credit's XML states them negative: either sign is the value printed.
  if (typeof value === 'number') return printsAmount(text, value) || (MAGNITUDE_TERMS.has(entry?.bt ?? '') && printsAmount(text, -value));
  if (kind === 'date') return printsDate(text, value);
  if (kind !== 'text') return false;
  return field === 'seller' || field === 'buyer' ? printsName(text, value) : printsIdentifier(text, value);
}
