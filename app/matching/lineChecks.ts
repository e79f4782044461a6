/**
 * One invoice line against its PO line: the unit price billed against the price ordered, the quantity billed
 * against the quantity still open on the PO line (ordered less what other invoices billed) and, where goods
 * receipts were imported for the PO, against the quantity received and not yet billed. A line with no PO line is
 * PO-EXTRA (a credit line or a note is not: invoiceToMatch.ts isBilled). Differences within tolerance are kept (`differs`) so the review can show them, but are no finding.
 */
import { billedQuantity, billedUnitPrice, isBilled, type LineToMatch } from './invoiceToMatch.js';
import type { LinePair, PairedBy } from './linePairing.js';
import type { MatchFinding } from './findings.js';
import type { PoCandidate } from './masterData.js';
import { priceTolerance, type MatchTolerances } from './tolerances.js';

export interface LineMatch {
  /** The invoice line, 1-based. */
  line: number;
  description: string;
  poNumber: string | null;
  poLine: number | null;
  poDescription: string | null;
  pairedBy: PairedBy | null;
  billedQuantity: number | null;
  billedUnitPrice: number | null;
  orderedQuantity: number | null;
  /** Ordered less what the project's other invoices billed on this PO line. */
  openQuantity: number | null;
  /** Received on this PO line in all; null where no goods receipt was imported for the PO. */
  receivedQuantity: number | null;
  orderedUnitPrice: number | null;
  /** Billed price or quantity differs from the PO at all (within tolerance or not). */
  differs: boolean;
  findings: MatchFinding[];
}

/** Numbers as a person reads them in a finding: up to four decimals, no trailing zeros. */
const show = (n: number): string => String(Math.round(n * 10_000) / 10_000);

/** Quantities equal to this precision are equal (a quantity computed as amount ÷ price is rarely exact). */
const QUANTITY_EPSILON = 1e-6;

export function checkLine(line: LineToMatch, index: number, pair: LinePair | null, candidate: PoCandidate, t: MatchTolerances): LineMatch {
  const number = index + 1;
  const quantity = billedQuantity(line);
  const price = billedUnitPrice(line);
  const label = `line ${number}${line.description ? ` "${line.description.slice(0, 60)}"` : ''}`;
  if (!pair) {
    const billed = isBilled(line);
    return {
      line: number, description: line.description, poNumber: null, poLine: null, poDescription: null, pairedBy: null,
      billedQuantity: quantity, billedUnitPrice: price, orderedQuantity: null, openQuantity: null, receivedQuantity: null, orderedUnitPrice: null,
      differs: billed,
      findings: billed ? [{ rule: 'PO-EXTRA', line: number, detail: `${label}: on no line of PO ${candidate.po.poNumber}` }] : [],
    };
  }
  const poLine = pair.poLine;
  const where = `PO ${poLine.poNumber} line ${poLine.line}`;
  const elsewhere = candidate.invoicedElsewhere.get(poLine.line) ?? 0;
  const open = poLine.quantity - elsewhere;
  const received = candidate.received ? (candidate.received.get(poLine.line) ?? 0) : null;
  const findings: MatchFinding[] = [];
  let differs = false;
  if (price !== null) {
    const off = Math.abs(price - poLine.unitPrice);
    if (off > QUANTITY_EPSILON) differs = true;
    if (off > priceTolerance(t, poLine.unitPrice)) {
      findings.push({ rule: 'PO-PRICE', line: number, detail: `${label}: billed ${show(price)} a unit, ordered ${show(poLine.unitPrice)} (${where})` });
    }
  }
  if (quantity !== null) {
    if (Math.abs(quantity - poLine.quantity) > QUANTITY_EPSILON) differs = true;
    const overOrdered = quantity > open + t.quantityOver + QUANTITY_EPSILON;
    const overReceived = received !== null && quantity > received - elsewhere + t.quantityOver + QUANTITY_EPSILON;
    if (overOrdered || overReceived) {
      const billedBefore = elsewhere > 0 ? `, ${show(elsewhere)} billed before` : '';
      const receivedText = received !== null ? `, received ${show(received)}` : '';
      findings.push({ rule: 'PO-QTY', line: number, detail: `${label}: billed ${show(quantity)}, ordered ${show(poLine.quantity)}${billedBefore}${receivedText} (${where})` });
    }
  }
  return {
    line: number, description: line.description, poNumber: poLine.poNumber, poLine: poLine.line, poDescription: poLine.description, pairedBy: pair.by,
    billedQuantity: quantity, billedUnitPrice: price, orderedQuantity: poLine.quantity, openQuantity: open, receivedQuantity: received, orderedUnitPrice: poLine.unitPrice,
    differs, findings,
  };
}
