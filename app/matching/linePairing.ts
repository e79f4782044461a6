/**
 * Which PO line each invoice line bills. Evidence, strongest first (each a named score so the order is visible):
 * a link the analyst made for this supplier, the same item identifier, a similar description, and — where the
 * words say nothing — quantity × ordered price equal to the line's amount. Pairs are taken greedily from the
 * strongest, one PO line per invoice line; a small bonus for a close quantity and price breaks
 * ties between PO lines with the same description (the same item ordered twice at two prices): the closer the
 * quantity and the price, the larger.
 */
import { descriptionSimilarity, normalisedDescription } from './descriptionSimilarity.js';
import { billedQuantity, billedUnitPrice, isBilled, type LineToMatch } from './invoiceToMatch.js';
import type { PoLine } from './masterData.js';
import { priceTolerance, type MatchTolerances } from './tolerances.js';

export type PairedBy = 'link' | 'item-id' | 'description' | 'amount';

/** Below this similarity two descriptions are not taken to name the same item. */
export const DESCRIPTION_MATCH = 0.5;

const SCORE: Record<PairedBy, number> = { link: 10, 'item-id': 5, description: 2, amount: 1 };
const TIE_BREAK = 0.1;

/** The analyst's links for a supplier: normalised invoice description → PO line. */
export type RememberedLinks = ReadonlyMap<string, { poNumber: string; line: number }>;

export interface LinePair {
  /** Index into the invoice's lines. */
  invoiceIndex: number;
  poLine: PoLine;
  by: PairedBy;
  score: number;
}

const itemKey = (id: string | null | undefined): string | null => {
  const key = (id ?? '').toUpperCase().replace(/[^A-Z0-9]/g, '');
  return key || null;
};

/** 1 where two figures agree within `tolerance`, falling linearly to 0 as they differ by their own size. */
function closeness(a: number, b: number, tolerance: number): number {
  const off = Math.abs(a - b);
  if (off <= tolerance) return 1;
  const scale = Math.max(Math.abs(a), Math.abs(b));
  return scale > 0 ? Math.max(0, 1 - off / scale) : 0;
}

function pairScore(line: LineToMatch, poLine: PoLine, links: RememberedLinks, t: MatchTolerances): { by: PairedBy; score: number } | null {
  let by: PairedBy | null = null;
  let score = 0;
  const linked = links.get(normalisedDescription(line.description));
  const invoiceItem = itemKey(line.itemId);
  const similarity = descriptionSimilarity(line.description, poLine.description);
  const quantity = billedQuantity(line);
  if (linked && linked.poNumber === poLine.poNumber && linked.line === poLine.line) [by, score] = ['link', SCORE.link];
  else if (invoiceItem && invoiceItem === itemKey(poLine.itemId)) [by, score] = ['item-id', SCORE['item-id']];
  else if (similarity >= DESCRIPTION_MATCH) [by, score] = ['description', SCORE.description + similarity];
  else if (line.amount !== null && quantity !== null && Math.abs(quantity * poLine.unitPrice - line.amount) <= t.totalAbsolute) [by, score] = ['amount', SCORE.amount];
  if (!by) return null;
  const price = billedUnitPrice(line);
  if (quantity !== null) score += TIE_BREAK * closeness(quantity, poLine.quantity, 0);
  if (price !== null) score += TIE_BREAK * closeness(price, poLine.unitPrice, priceTolerance(t, poLine.unitPrice));
  return { by, score };
}

/** The invoice lines' PO lines among `poLines`: at most one each, strongest evidence first. */
export function pairLines(lines: readonly LineToMatch[], poLines: readonly PoLine[], links: RememberedLinks, t: MatchTolerances): LinePair[] {
  const candidates: LinePair[] = [];
  lines.forEach((line, invoiceIndex) => {
    if (!isBilled(line)) return;
    for (const poLine of poLines) {
      const pair = pairScore(line, poLine, links, t);
      if (pair) candidates.push({ invoiceIndex, poLine, ...pair });
    }
  });
  candidates.sort((a, b) => b.score - a.score || a.invoiceIndex - b.invoiceIndex || a.poLine.line - b.poLine.line);
  const takenLines = new Set<number>();
  const takenPoLines = new Set<PoLine>();
  const pairs: LinePair[] = [];
  for (const pair of candidates) {
    if (takenLines.has(pair.invoiceIndex) || takenPoLines.has(pair.poLine)) continue;
    takenLines.add(pair.invoiceIndex);
    takenPoLines.add(pair.poLine);
    pairs.push(pair);
  }
  return pairs.sort((a, b) => a.invoiceIndex - b.invoiceIndex);
}
