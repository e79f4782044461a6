/**
 * Purchase orders built from real invoices' own lines, for the matching tests and bench:match. Each invoice of the
 * e-invoice test set (einvoices/ and einvoice-corpus/ truth.json: the lines of its embedded XML) gets a PO of its
 * supplier whose lines are its billed lines — quantity as billed, net price = line net amount ÷ quantity — and the
 * invoice to match carries no PO number, so the PO must be found by supplier and lines. Perturbations plant one
 * difference each (a price, a quantity, an extra line, a receipt short of the billed quantity) on a line chosen from
 * the invoice, so every one must surface as its exception and nothing else may.
 *
 * Left out, with the reason counted: credit notes (negative lines: a credit is matched to an invoice, not a PO) and
 * invoices with a billed line lacking quantity or amount (no price can be ordered for it).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isBilled, type InvoiceToMatch, type PurchaseOrder } from '../../app/matching/index.js';

export interface TruthLine {
  description: string | null;
  quantity: number | null;
  unit_price: number | null;
  amount: number | null;
}

export interface RealInvoice {
  /** testdata folder and file. */
  file: string;
  /** The seller family (einvoice-corpus) or seller name: held-out splits take whole families. */
  family: string;
  seller: string;
  currency: string;
  lines: { description: string; quantity: number | null; unitPrice: number | null; amount: number | null }[];
}

export const TRUTH_FOLDERS = ['einvoices', 'einvoice-corpus'] as const;

export function realInvoicesAvailable(testdataRoot: string): boolean {
  return TRUTH_FOLDERS.every((f) => existsSync(path.join(testdataRoot, f, 'truth.json')));
}

/** The usable invoices of both truth files, and how many were left out for each reason. */
export function loadRealInvoices(testdataRoot: string): { invoices: RealInvoice[]; leftOut: Record<string, number> } {
  const invoices: RealInvoice[] = [];
  const leftOut: Record<string, number> = { 'credit note': 0, 'a billed line without quantity or amount': 0, 'no lines or seller': 0 };
  for (const folder of TRUTH_FOLDERS) {
    const truth = JSON.parse(readFileSync(path.join(testdataRoot, folder, 'truth.json'), 'utf8')) as Record<string, { family?: string; fields?: { seller?: string | null; currency?: string | null; lines?: TruthLine[] } }>;
    for (const [file, entry] of Object.entries(truth)) {
      const fields = entry.fields;
      const lines = (fields?.lines ?? []).map((l) => ({ description: l.description ?? '', quantity: l.quantity, unitPrice: l.unit_price, amount: l.amount }));
      if (!fields?.seller || !fields.currency || lines.length === 0) {
        leftOut['no lines or seller']!++;
        continue;
      }
      if (lines.some((l) => (l.quantity ?? 0) < 0 || (l.amount ?? 0) < 0)) {
        leftOut['credit note']!++;
        continue;
      }
      if (lines.some((l) => isBilled(l) && (l.quantity === null || l.amount === null || l.quantity === 0))) {
        leftOut['a billed line without quantity or amount']!++;
        continue;
      }
      invoices.push({ file: `${folder}/${file}`, family: entry.family ?? fields.seller, seller: fields.seller, currency: fields.currency, lines });
    }
  }
  return { invoices, leftOut };
}

/** The invoice's own PO: one line per billed line, quantity as billed, price = amount ÷ quantity. */
export function purchaseOrderOf(invoice: RealInvoice, poNumber: string): PurchaseOrder {
  const lines = invoice.lines
    .filter((l) => isBilled(l))
    .map((l, i) => ({ poNumber, line: (i + 1) * 10, description: l.description, itemId: null, quantity: l.quantity!, unit: null, unitPrice: l.amount! / l.quantity! }));
  return { poNumber, supplierName: invoice.seller, supplierVatId: null, currency: invoice.currency, orderDate: '2026-01-15', lines };
}

/** The invoice as matching reads it: its lines, its supplier's name, no PO number. */
export function invoiceToMatchOf(invoice: RealInvoice): InvoiceToMatch {
  return {
    supplierName: invoice.seller,
    supplierVatId: null,
    currency: invoice.currency,
    purchaseOrder: null,
    iban: null,
    lines: invoice.lines.map((l) => ({ description: l.description, quantity: l.quantity, unitPrice: l.unitPrice, amount: l.amount })),
  };
}

export type Perturbation = 'none' | 'price' | 'quantity' | 'extra-line' | 'missing-receipt';
export const perturbations: readonly Perturbation[] = ['none', 'price', 'quantity', 'extra-line', 'missing-receipt'];

export interface Planted {
  invoice: InvoiceToMatch;
  /** Goods receipts to import for the invoice's PO (line → quantity received); null where none are. */
  received: Map<number, number> | null;
  /** The exception that must be raised, on which invoice line (1-based); null for none. */
  expected: { rule: 'PO-PRICE' | 'PO-QTY' | 'PO-EXTRA'; line: number } | null;
}

/** A line to plant on: the billed line with the largest amount (a material difference an analyst must see). */
function targetLine(invoice: RealInvoice): number {
  let best = -1;
  invoice.lines.forEach((l, i) => {
    if (isBilled(l) && (best < 0 || (l.amount ?? 0) > (invoice.lines[best]!.amount ?? 0))) best = i;
  });
  return best;
}

/** What a supplier adds unasked: no PO line orders it. */
const EXTRA_LINE = { description: 'Express handling surcharge (unordered)', quantity: 1, unitPrice: 37.13, amount: 37.13 };

export function plant(invoice: RealInvoice, po: PurchaseOrder, kind: Perturbation): Planted {
  const base = invoiceToMatchOf(invoice);
  const at = targetLine(invoice);
  const lines = base.lines.map((l) => ({ ...l }));
  const poLineOf = (index: number) => po.lines[invoice.lines.slice(0, index).filter((l) => isBilled(l)).length]!;
  const fullReceipts = () => new Map(po.lines.map((l) => [l.line, l.quantity]));
  switch (kind) {
    case 'none':
      return { invoice: base, received: fullReceipts(), expected: null };
    case 'price': {
      // 3 % above the ordered price and at least 0.05 a unit: beyond the default 0.5 % / one cent.
      const line = lines[at]!;
      const ordered = line.amount! / line.quantity!;
      line.unitPrice = Math.round((ordered * 1.03 + 0.05) * 100) / 100;
      line.amount = Math.round(line.unitPrice * line.quantity! * 100) / 100;
      return { invoice: { ...base, lines }, received: null, expected: { rule: 'PO-PRICE', line: at + 1 } };
    }
    case 'quantity': {
      const line = lines[at]!;
      const price = line.amount! / line.quantity!;
      line.quantity = line.quantity! + Math.max(1, Math.ceil(line.quantity! * 0.5));
      line.amount = Math.round(price * line.quantity * 100) / 100;
      return { invoice: { ...base, lines }, received: null, expected: { rule: 'PO-QTY', line: at + 1 } };
    }
    case 'extra-line':
      return { invoice: { ...base, lines: [...lines, { ...EXTRA_LINE }] }, received: null, expected: { rule: 'PO-EXTRA', line: lines.length + 1 } };
    case 'missing-receipt': {
      // Everything received but part of the target line: billed as ordered, more than arrived.
      const received = fullReceipts();
      const poLine = poLineOf(at);
      received.set(poLine.line, poLine.quantity > 1 ? Math.floor(poLine.quantity / 2) : 0);
      return { invoice: base, received, expected: { rule: 'PO-QTY', line: at + 1 } };
    }
  }
}

/** Two POs that order the same lines (the same invoice rendered by two producers) are the same order for a test. */
export function sameOrder(a: PurchaseOrder, b: PurchaseOrder): boolean {
  if (a.lines.length !== b.lines.length || a.currency !== b.currency) return false;
  return a.lines.every((l, i) => {
    const o = b.lines[i]!;
    return l.description === o.description && Math.abs(l.quantity - o.quantity) < 1e-9 && Math.abs(l.unitPrice - o.unitPrice) < 1e-9;
  });
}

/** Held out: every family whose name's hash is 0 mod 3 — frozen before any score was read; report its score only. */
export function isHeldOut(family: string): boolean {
  let h = 0;
  for (const c of family) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return h % 3 === 0;
}
