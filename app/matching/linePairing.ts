/**
 * Which PO line each invoice line bills. Evidence, strongest first (each a named score so the order is visible):
 * a link the analyst made for this supplier, the same item identifier, a similar description, and — where the
 * words say nothing — quantity × ordered price equal to the line's amount. Pairs are taken greedily from the
 * strongest, one PO line per invoice line; a small bonus for an equal quantity and a price within tolerance breaks
 * ties between PO lines with the same description (the same item ordered twice at two prices).
 */
import { descriptionSimilarity, normalisedDescription } from './descriptionSimilarity.js';
import { billedQuantity, billedUnitPrice, type LineToMatch } from './invoiceToMatch.js';
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
  if (quantity !== null && quantity === poLine.quantity) score += TIE_BREAK;
  if (price !== null && Math.abs(price - poLine.unitPrice) <= priceTolerance(t, poLine.unitPrice)) score += TIE_BREAK;
  return { by, score };
}

/** The invoice lines' PO lines among `poLines`: at most one each, strongest evidence first. */
export function pairLines(lines: readonly LineToMatch[], poLines: readonly PoLine[], links: RememberedLinks, t: MatchTolerances): LinePair[] {
  const candidates: LinePair[] = [];
  lines.forEach((line, invoiceIndex) => {
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
