/**
 * Three-way matching of one invoice: find its purchase order, pair its lines with the PO's lines, and compare what
 * is billed with what was ordered and received. Steps:
 *   1. the PO: the one its purchase-order reference (BT-13) names when that PO was imported; else, among the
 *      supplier's POs (found by VAT ID, then name, by the caller), the one whose lines the invoice's lines pair with
 *      best (linePairing.ts), a PO with open quantity before a fully billed one;
 *   2. the lines: each invoice line's PO line (linePairing.ts);
 *   3. the checks (lineChecks.ts): currency, unit price, quantity against the open ordered and received quantity,
 *      lines no PO line bills.
 * The result never changes the invoice: it is findings (the exceptions' rule ids PO-NONE, PO-PRICE, PO-QTY,
 * PO-EXTRA, PO-CURRENCY) and, per line, the PO line with the ordered and received figures beside the billed ones.
 */
import { checkLine, type LineMatch } from './lineChecks.js';
import type { MatchFinding } from './findings.js';
import { billedQuantity, isBilled } from './invoiceToMatch.js';
import type { InvoiceToMatch } from './invoiceToMatch.js';
import { pairLines, type LinePair, type RememberedLinks } from './linePairing.js';
import type { PoCandidate } from './masterData.js';
import { descriptionWords, normalisedDescription } from './descriptionSimilarity.js';
import type { MatchTolerances } from './tolerances.js';

export type { MatchFinding, MatchRule } from './findings.js';

/** matched: every line as ordered; within-tolerance: some differ within tolerance; exception: a finding; no-po: nothing to match. */
export type MatchStatus = 'matched' | 'within-tolerance' | 'exception' | 'no-po';

export interface InvoiceMatchResult {
  /** The PO the invoice was matched to; null where none. */
  poNumber: string | null;
  /** How the PO was found. */
  foundBy: 'reference' | 'supplier' | null;
  lines: LineMatch[];
  findings: MatchFinding[];
  status: MatchStatus;
}

export interface MatchContext {
  /** The referenced PO (when imported) and the supplier's POs. */
  candidates: readonly PoCandidate[];
  /** Whether the project holds any PO: without master data an invoice's reference alone is no exception. */
  projectHasPos: boolean;
  links: RememberedLinks;
  tolerances: MatchTolerances;
}

/** Above this many candidate POs, only those with the most cheap evidence (shared word, item id, amount) are paired. */
const MAX_PAIRED_CANDIDATES = 24;

/** A PO's share of still-open quantity counts for less than one paired line: it only breaks ties. */
const OPEN_BONUS = 0.5;

export function matchInvoice(invoice: InvoiceToMatch, context: MatchContext): InvoiceMatchResult {
  const ref = invoice.purchaseOrder?.trim() || null;
  // A credit note or an invoice of notes only bills nothing a PO ordered.
  if (!invoice.lines.some(isBilled)) return { poNumber: null, foundBy: null, lines: [], findings: [], status: 'no-po' };
  // 1. The PO.
  const referenced = ref ? context.candidates.find((c) => c.po.poNumber === ref) : undefined;
  let chosen: { candidate: PoCandidate; pairs: LinePair[] } | null = null;
  let foundBy: InvoiceMatchResult['foundBy'] = null;
  if (referenced) {
    chosen = { candidate: referenced, pairs: pairLines(invoice.lines, referenced.po.lines, context.links, context.tolerances) };
    foundBy = 'reference';
  } else {
    chosen = bestBySupplier(invoice, context);
    foundBy = chosen ? 'supplier' : null;
  }
  if (!chosen) {
    const ordersByPo = context.candidates.length > 0 || (ref !== null && context.projectHasPos);
    const findings: MatchFinding[] = ordersByPo
      ? [{ rule: 'PO-NONE', line: null, detail: ref ? `no imported purchase order ${ref}, and none of the supplier's matches the invoice lines` : `no purchase order of this supplier matches the invoice lines` }]
      : [];
    return { poNumber: null, foundBy: null, lines: [], findings, status: findings.length > 0 ? 'exception' : 'no-po' };
  }
  // 2 and 3. The lines and their checks.
  const { candidate, pairs } = chosen;
  const findings: MatchFinding[] = [];
  const currency = invoice.currency?.trim().toUpperCase() || null;
  if (currency && currency !== candidate.po.currency.toUpperCase()) {
    findings.push({ rule: 'PO-CURRENCY', line: null, detail: `billed in ${currency}, ordered in ${candidate.po.currency} (PO ${candidate.po.poNumber})` });
  }
  const byIndex = new Map(pairs.map((p) => [p.invoiceIndex, p]));
  const lines = invoice.lines.map((line, index) => {
    const match = checkLine(line, index, byIndex.get(index) ?? null, candidate, context.tolerances);
    findings.push(...match.findings);
    return match;
  });
  const exception = findings.length > 0;
  const status: MatchStatus = exception ? 'exception' : lines.some((l) => l.differs) ? 'within-tolerance' : 'matched';
  return { poNumber: candidate.po.poNumber, foundBy, lines, findings, status };
}

/** The supplier's PO whose lines the invoice pairs with best; null where no line pairs with any. */
function bestBySupplier(invoice: InvoiceToMatch, context: MatchContext): { candidate: PoCandidate; pairs: LinePair[] } | null {
  let best: { candidate: PoCandidate; pairs: LinePair[]; score: number } | null = null;
  for (const candidate of shortlist(invoice, context)) {
    const pairs = pairLines(invoice.lines, candidate.po.lines, context.links, context.tolerances);
    if (pairs.length === 0) continue;
    let score = pairs.reduce((sum, p) => sum + p.score, 0);
    const open = pairs.filter((p) => (billedQuantity(invoice.lines[p.invoiceIndex]!) ?? 0) <= p.poLine.quantity - (candidate.invoicedElsewhere.get(p.poLine.line) ?? 0)).length;
    score += (OPEN_BONUS * open) / pairs.length;
    if (!best || score > best.score) best = { candidate, pairs, score };
  }
  return best;
}

/** The candidates worth pairing: all of them when few, else those with the most cheap evidence of the invoice's lines. */
function shortlist(invoice: InvoiceToMatch, context: MatchContext): readonly PoCandidate[] {
  if (context.candidates.length <= MAX_PAIRED_CANDIDATES) return context.candidates;
  const words = new Set(invoice.lines.flatMap((l) => descriptionWords(normalisedDescription(l.description))));
  const items = new Set(invoice.lines.map((l) => (l.itemId ?? '').toUpperCase()).filter(Boolean));
  const amounts = invoice.lines.map((l) => l.amount).filter((a): a is number => a !== null);
  const evidence = (candidate: PoCandidate): number => {
    let count = 0;
    for (const line of candidate.po.lines) {
      if (line.itemId && items.has(line.itemId.toUpperCase())) count += 2;
      if (descriptionWords(normalisedDescription(line.description)).some((w) => words.has(w))) count += 1;
      if (amounts.some((a) => Math.abs(a - line.quantity * line.unitPrice) <= context.tolerances.totalAbsolute)) count += 1;
    }
    return count;
  };
  return context.candidates
    .map((candidate) => ({ candidate, count: evidence(candidate) }))
    .filter((c) => c.count > 0)
    .sort((a, b) => b.count - a.count)
    .slice(0, MAX_PAIRED_CANDIDATES)
    .map((c) => c.candidate);
}
