import { describe, expect, it } from 'vitest';
import { defaultMatchTolerances, matchInvoice, tolerancesFor, defaultMatchSettings, type InvoiceToMatch, type PoCandidate, type PurchaseOrder } from './index.js';

const po = (poNumber: string, lines: [string, number, number, string?][], currency = 'EUR'): PurchaseOrder => ({
  poNumber,
  supplierName: 'ACME GmbH',
  supplierVatId: 'DE123456789',
  currency,
  orderDate: null,
  lines: lines.map(([description, quantity, unitPrice, itemId], i) => ({ poNumber, line: i + 1, description, itemId: itemId ?? null, quantity, unit: null, unitPrice })),
});
const candidate = (order: PurchaseOrder, invoiced: [number, number][] = [], received: [number, number][] | null = null): PoCandidate => ({
  po: order,
  received: received ? new Map(received) : null,
  invoicedElsewhere: new Map(invoiced),
});
const invoice = (lines: [string, number | null, number | null, number | null, string?][], extra: Partial<InvoiceToMatch> = {}): InvoiceToMatch => ({
  supplierName: 'ACME GmbH',
  supplierVatId: 'DE123456789',
  currency: 'EUR',
  purchaseOrder: null,
  iban: null,
  lines: lines.map(([description, quantity, unitPrice, amount, itemId]) => ({ description, quantity, unitPrice, amount, itemId: itemId ?? null })),
  ...extra,
});
const context = (candidates: PoCandidate[], extra: Partial<Parameters<typeof matchInvoice>[1]> = {}) => ({ candidates, projectHasPos: true, links: new Map(), tolerances: defaultMatchTolerances, ...extra });
const rules = (r: ReturnType<typeof matchInvoice>) => r.findings.map((f) => `${f.rule}@${f.line ?? '-'}`);

describe('matchInvoice', () => {
  it('takes the PO the invoice names over a better-looking one of the supplier', () => {
    const a = candidate(po('A', [['Widget', 5, 2]]));
    const b = candidate(po('B', [['Widget', 5, 2.5]]));
    const r = matchInvoice(invoice([['Widget', 5, 2.5, 12.5]], { purchaseOrder: 'A' }), context([a, b]));
    expect([r.poNumber, r.foundBy]).toEqual(['A', 'reference']);
    expect(rules(r)).toEqual(['PO-PRICE@1']);
  });

  it('without a reference, finds the supplier PO whose lines fit best, each line by item id, then words, then amount', () => {
    const order = po('P', [['Schraube M6 verzinkt', 100, 0.1, 'S-6'], ['Mutter M6', 100, 0.05], ['Montagepauschale', 1, 80]]);
    const other = po('Q', [['Kabelbinder', 100, 0.02]]);
    const r = matchInvoice(
      invoice([['Screw zinc plated', 100, 0.1, 10, 's6'], ['M6 nut (Mutter)', 100, 0.05, 5], ['Service flat rate', 1, 80, 80]]),
      context([candidate(other), candidate(order)]),
    );
    expect(r.poNumber).toBe('P');
    expect(r.lines.map((l) => [l.poLine, l.pairedBy])).toEqual([[1, 'item-id'], [2, 'description'], [3, 'amount']]);
    expect(r.status).toBe('matched');
  });

  it('allows the price within max(0.5 %, one cent), per supplier where set', () => {
    const order = candidate(po('P', [['Widget', 10, 100]]));
    expect(matchInvoice(invoice([['Widget', 10, 100.4, 1004]]), context([order])).status).toBe('within-tolerance');
    expect(rules(matchInvoice(invoice([['Widget', 10, 100.6, 1006]]), context([order])))).toEqual(['PO-PRICE@1']);
    const cheap = candidate(po('C', [['Clip', 1000, 0.01]]));
    expect(matchInvoice(invoice([['Clip', 1000, 0.02, 20]]), context([cheap])).status).toBe('within-tolerance');
    const settings = { ...defaultMatchSettings(), bySupplier: { DE123456789: { priceRelative: 0.01 } } };
    expect(matchInvoice(invoice([['Widget', 10, 100.6, 1006]]), context([order], { tolerances: tolerancesFor(settings, ['DE123456789']) })).status).toBe('within-tolerance');
  });

  it('holds quantity against what is still open and what was received', () => {
    const order = po('P', [['Widget', 10, 1]]);
    expect(rules(matchInvoice(invoice([['Widget', 4, 1, 4]]), context([candidate(order, [[1, 7]])])))).toEqual(['PO-QTY@1']);
    expect(rules(matchInvoice(invoice([['Widget', 3, 1, 3]]), context([candidate(order, [[1, 7]])])))).toEqual([]);
    expect(rules(matchInvoice(invoice([['Widget', 6, 1, 6]]), context([candidate(order, [], [[1, 5]])])))).toEqual(['PO-QTY@1']);
    // Receipts imported for the PO but none for this line: nothing was received.
    expect(rules(matchInvoice(invoice([['Widget', 1, 1, 1]]), context([candidate(order, [], [[2, 5]])])))).toEqual(['PO-QTY@1']);
  });

  it('flags an extra line, another currency, and no PO for a supplier that orders by PO; not credit or note lines', () => {
    const order = candidate(po('P', [['Widget', 10, 1]], 'USD'));
    const r = matchInvoice(invoice([['Widget', 10, 1, 10], ['Freight', 1, 25, 25], ['Returned widget', -1, 1, -1], ['Delivery note 77', null, null, null]]), context([order]));
    expect(rules(r)).toEqual(['PO-CURRENCY@-', 'PO-EXTRA@2']);
    expect(rules(matchInvoice(invoice([['Unrelated service', 1, 999, 999]]), context([order])))).toEqual(['PO-NONE@-']);
    expect(matchInvoice(invoice([['Anything', 1, 5, 5]], { purchaseOrder: 'X-1' }), context([], { projectHasPos: true })).findings[0]?.rule).toBe('PO-NONE');
    expect(matchInvoice(invoice([['Anything', 1, 5, 5]]), context([], { projectHasPos: true })).status).toBe('no-po');
    expect(matchInvoice(invoice([['Credit', -2, 5, -10]]), context([order])).status).toBe('no-po');
  });

  it('follows the analyst\'s link for the supplier over the words', () => {
    const order = po('P', [['Blue widget', 5, 2], ['Red widget', 5, 2]]);
    const links = new Map([['widget', { poNumber: 'P', line: 2 }]]);
    const r = matchInvoice(invoice([['Widget', 5, 2, 10]]), context([candidate(order)], { links }));
    expect([r.lines[0]!.poLine, r.lines[0]!.pairedBy]).toEqual([2, 'link']);
  });

  it('prefers the PO with open quantity when two order the same', () => {
    const done = candidate(po('OLD', [['Widget', 5, 2]]), [[1, 5]]);
    const open = candidate(po('NEW', [['Widget', 5, 2]]));
    const r = matchInvoice(invoice([['Widget', 5, 2, 10]]), context([done, open]));
    expect([r.poNumber, r.status]).toEqual(['NEW', 'matched']);
  });

  it('shortlists among many POs of one supplier without losing the right one', () => {
    const many = Array.from({ length: 500 }, (_, i) => candidate(po(`P${i}`, [[`Article ${i} steel`, 10 + i, 1 + i / 100]])));
    const r = matchInvoice(invoice([['Article 321 steel', 331, 4.21, 1393.51]]), context(many));
    expect([r.poNumber, r.status]).toEqual(['P321', 'matched']);
  });
});
