/**
 * The VAT breakdown on the page against the e-invoice XML's: for every XML row, the page's row of the same rate must
 * state the same taxable amount and tax. A rate the page does not print is a gap of the reading, not a disagreement
 * (as for the other fields); a page row whose rate the XML does not have is one.
 */
import type { EngineTaxRow } from './engineFields.js';

const differ = (a: number | null, b: number | null): boolean => a !== null && b !== null && Math.abs(a - b) >= 0.005;
const sameRate = (a: EngineTaxRow, b: EngineTaxRow): boolean => a.rate !== null && b.rate !== null && Math.abs(a.rate - b.rate) < 0.005;

interface BreakdownDifference {
  text: string;
  /** The XML's value the page row differs from; null for a page row whose rate the XML does not have. */
  xml: number | null;
}

function compareBreakdown(page: readonly EngineTaxRow[], xml: readonly EngineTaxRow[] | null | undefined): BreakdownDifference[] {
  if (!xml || xml.length === 0 || page.length === 0) return [];
  const found: BreakdownDifference[] = [];
  for (const row of page) {
    const match = xml.find((x) => sameRate(x, row));
    if (!match) {
      if (row.rate !== null) found.push({ text: `VAT ${row.rate} %: on the page, not in the XML`, xml: null });
      continue;
    }
    for (const part of ['base', 'amount'] as const) {
      if (differ(row[part], match[part])) found.push({ text: `VAT ${row.rate} % ${part}: page ${row[part]} — XML ${match[part]}`, xml: match[part] });
    }
  }
  return found;
}

/**
 * Disagreements as "VAT 19 % amount: page 55.44 — XML 54.44" (plain numbers: the queue's signal text). With
 * `printed` (does the page print this amount anywhere?), one whose XML value the page prints is left out: that is
 * the reading's doubt (breakdownReadingDoubts), not the document's disagreement.
 */
export function breakdownDisagreements(page: readonly EngineTaxRow[], xml: readonly EngineTaxRow[] | null | undefined, printed?: (amount: number) => boolean): string[] {
  return compareBreakdown(page, xml).filter((d) => !(printed && d.xml !== null && printed(d.xml))).map((d) => d.text);
}

/** The differences whose XML value the page prints too: the reader took another printed amount for the row's. */
export function breakdownReadingDoubts(page: readonly EngineTaxRow[], xml: readonly EngineTaxRow[] | null | undefined, printed: (amount: number) => boolean): string[] {
  return compareBreakdown(page, xml).filter((d) => d.xml !== null && printed(d.xml)).map((d) => d.text);
}
