/**
 * xs:decimal arithmetic as the EN 16931 schematron does it, exactly (big.js): sums, products, comparisons, and
 * XPath's `round()`, which rounds half towards positive infinity (round(2.5) = 3, round(-2.5) = -2) — so the
 * `.005` boundary of `round(x * 10 * 10) div 100` lands where the official validator puts it.
 */
import Big from 'big.js';
import type { Opt, Term } from './model/semanticInvoice.js';
import { parseXmlDecimal } from '../numbers/index.js';

export type Decimal = Big;

/** xs:decimal(term): null when the term is absent or is not a decimal (the XSLT would raise a cast error). */
export function dec(t: Opt): Big | null {
  if (!t) return null;
  const text = parseXmlDecimal(t.text);
  return text === null ? null : Big(text);
}

export function decOf(text: string): Big | null {
  const parsed = parseXmlDecimal(text);
  return parsed === null ? null : Big(parsed);
}

/** XPath fn:round on a decimal: floor(x + 0.5). */
export function xround(x: Big): Big {
  const shifted = x.plus('0.5');
  const truncated = shifted.round(0, 0);
  return shifted.s < 0 && !truncated.eq(shifted) ? truncated.minus(1) : truncated;
}

/** `round(x * 10 * 10) div 100`, the schematron's rounding to cents. */
export function round2(x: Big): Big {
  return xround(x.times(100)).times('0.01');
}

/** sum() of xs:decimal casts; null when any item is not a decimal. An empty sum is 0. */
export function sum(items: readonly Opt[]): Big | null {
  let total = Big(0);
  for (const item of items) {
    const value = dec(item);
    if (value === null) return null;
    total = total.plus(value);
  }
  return total;
}

/** Equality of two decimals, false when either is missing (an XPath comparison with an empty sequence). */
export function same(a: Big | null, b: Big | null): boolean {
  return a !== null && b !== null && a.eq(b);
}

/**
 * An untyped value compared with a number (`cac:Price/cbc:PriceAmount >= 0`): XPath casts untypedAtomic to
 * xs:double, and a general comparison over a sequence holds when any item satisfies it.
 */
export function someDouble(items: readonly Term[], test: (n: number) => boolean): boolean {
  return items.some((t) => {
    const n = xsDouble(t.text);
    return n !== null && test(n);
  });
}

/** xs:double lexical form (decimal or exponent, INF, NaN); null when not castable. */
export function xsDouble(text: string): number | null {
  const s = text.trim();
  if (s === 'INF' || s === '+INF') return Infinity;
  if (s === '-INF') return -Infinity;
  if (s === 'NaN') return NaN;
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(s)) return null;
  return Number(s);
}

/** `string-length(substring-after(x, '.')) <= 2`: the decimals as written (absent or no point: holds). */
export function atMostTwoDecimals(t: Opt): boolean {
  if (!t) return true;
  const dot = t.text.indexOf('.');
  return dot < 0 || [...t.text.slice(dot + 1)].length <= 2;
}
