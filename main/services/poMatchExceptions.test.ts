/**
 * Three-way matching inside a project: the PO-* exceptions reach the approval, an approval over them is recorded
 * with its reason, a partially invoiced PO keeps its open quantity across invoices, and the invoices export writes
 * the match (matched_po, match_status, the PO line's figures per line).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProjectStore } from '../store/projectStore.js';
import { exportInvoices } from '../corpus/invoicesExport/writeInvoicesExport.js';
import { importMasterData } from '../masterData/importMasterData.js';
import { invoiceReading } from '../../testing/invoiceReadings.js';
import { approvalCheck, approve } from './approval.js';
import { matchingHandlers } from './matchingHandlers.js';
import { withMatchSignals } from './poMatchExceptions.js';
import type { RectoSession } from './rectoSession.js';
import { loadSchemaLayer } from '../import/einvoiceSchemaCheck.js';

// exportInvoices checks each e-invoice against its XSD on this thread: libxml2 is loaded first.
beforeAll(() => loadSchemaLayer());

let dir: string;
let store: ProjectStore;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-po-match-'));
  store = ProjectStore.create(path.join(dir, 'p.recto'));
});
afterEach(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function addInvoice(name: string, number: string, lines: { description: string; quantity: number; unit_price: number; amount: number }[]): { documentId: string; pageId: string } {
  const subtotal = lines.reduce((s, l) => s + l.amount, 0);
  const doc = store.documents.addDocument({ sha256: Buffer.from(name).toString('hex').padEnd(64, '0').slice(0, 64), name, mediaType: 'application/pdf', bytes: Buffer.from(name), pages: [{ pageNumber: 1, width: 100, height: 100, dpi: 72, textLayer: null }] })!;
  const markdown = `Muster GmbH · USt-IdNr. DE123456789\nRechnung ${number}\nKunde: Beispiel AG`;
  const reading = invoiceReading(
    { invoice_number: number, issue_date: '2026-02-01', due_date: null, seller: 'Muster GmbH', buyer: 'Beispiel AG', currency: 'EUR', subtotal, tax: Math.round(subtotal * 19) / 100, total: Math.round(subtotal * 119) / 100, lines },
    { markdown, elements: [] },
  );
  store.readings.saveExtraction(doc.pages[0]!.id, reading, new Date());
  return { documentId: doc.id, pageId: doc.pages[0]!.id };
}

function importPos(po: string, gr?: string) {
  fs.writeFileSync(path.join(dir, 'PO.csv'), po);
  if (gr !== undefined) fs.writeFileSync(path.join(dir, 'GR.csv'), gr);
  return importMasterData(store, { purchaseOrders: path.join(dir, 'PO.csv'), goodsReceipts: gr !== undefined ? path.join(dir, 'GR.csv') : undefined });
}

const HEADER = 'po_number,supplier_name,supplier_vat_id,line,description,item_id,quantity,unit,unit_price,currency,order_date\n';

describe('PO matching in a project', () => {
  it('raises PO-PRICE at approval, approves over it with a reason, and exports the match', () => {
    importPos(`${HEADER}4500017,Muster GmbH,,10,Beratung Senior,,2,h,45.00,EUR,2026-01-10\n4500017,Muster GmbH,,20,Reisekosten,,1,,30,EUR,2026-01-10\n`);
    const { pageId } = addInvoice('a.pdf', 'R-1', [
      { description: 'Beratung (Senior)', quantity: 2, unit_price: 50, amount: 100 },
      { description: 'Reisekosten', quantity: 1, unit_price: 30, amount: 30 },
    ]);
    const { exceptions } = approvalCheck(store, pageId, 'document');
    const po = exceptions.filter((e) => e.kind === 'po-match');
    expect(po).toHaveLength(1);
    expect(po[0]!.detail).toMatch(/^PO-PRICE: line 1 "Beratung \(Senior\)": billed 50 a unit, ordered 45 \(PO 4500017 line 10\)/);
    expect(approve(store, { pageId, scope: 'document', reviewer: 'ada' }).outcome).toBe('needs-reason');
    expect(approve(store, { pageId, scope: 'document', reviewer: 'ada', reason: 'price increase agreed by phone' }).outcome).toBe('approved-with-exceptions');

    const out = path.join(dir, 'out');
    exportInvoices(store, { outDir: out, syntax: 'ubl' });
    const [header, row] = fs.readFileSync(path.join(out, 'invoices.csv'), 'utf8').trimEnd().split('\r\n');
    // The match is the last two columns (earlier cells hold quoted commas).
    expect(header!.split(',').slice(-2)).toEqual(['matched_po', 'match_status']);
    expect(row!.split(',').slice(-2)).toEqual(['4500017', 'exception approved']);
    const [lineHeader, first, second] = fs.readFileSync(path.join(out, 'lines.csv'), 'utf8').trimEnd().split('\r\n');
    expect(lineHeader!.split(',').slice(-5)).toEqual(['po_number', 'po_line', 'ordered_quantity', 'received_quantity', 'ordered_unit_price']);
    expect(first!.split(',').slice(-5)).toEqual(['4500017', '10', '2', '', '45']);
    expect(second!.split(',').slice(-5)).toEqual(['4500017', '20', '1', '', '30']);
  });

  it('keeps a partially invoiced PO open across invoices; the second invoice over the rest is PO-QTY', () => {
    importPos(`${HEADER}4500018,Muster GmbH,,1,Toner cartridge black,,10,pc,20,EUR,\n`);
    const first = addInvoice('first.pdf', 'R-2', [{ description: 'Toner cartridge black', quantity: 6, unit_price: 20, amount: 120 }]);
    expect(approvalCheck(store, first.pageId, 'document').exceptions).toEqual([]);
    const second = addInvoice('second.pdf', 'R-3', [{ description: 'Toner cartridge black', quantity: 4, unit_price: 20, amount: 80 }]);
    expect(approvalCheck(store, second.pageId, 'document').exceptions).toEqual([]);
    const third = addInvoice('third.pdf', 'R-4', [{ description: 'Toner cartridge black', quantity: 1, unit_price: 20, amount: 20 }]);
    const details = approvalCheck(store, third.pageId, 'document').exceptions.map((e) => e.detail);
    expect(details).toEqual(['PO-QTY: line 1 "Toner cartridge black": billed 1, ordered 10, 10 billed before (PO 4500018 line 1)']);
  });

  it('holds the billed quantity against goods received where receipts were imported', () => {
    importPos(`${HEADER}4500019,Muster GmbH,,1,Paper A4 80g,,50,box,4.2,EUR,\n`, 'po_number,line,quantity_received,received_on\n4500019,1,20,2026-01-20\n4500019,1,10,2026-01-27\n');
    const { pageId } = addInvoice('paper.pdf', 'R-5', [{ description: 'Paper A4 80g', quantity: 40, unit_price: 4.2, amount: 168 }]);
    expect(approvalCheck(store, pageId, 'document').exceptions.map((e) => e.detail)).toEqual(['PO-QTY: line 1 "Paper A4 80g": billed 40, ordered 50, received 30 (PO 4500019 line 1)']);
  });

  it('the Matching panel: the match with PO line choices; a link the analyst makes is remembered for the supplier', () => {
    importPos(`${HEADER}4500020,Muster GmbH,,1,Cable type A,,5,m,2,EUR,\n4500020,Muster GmbH,,2,Cable type B,,5,m,2,EUR,\n`);
    const first = addInvoice('cable.pdf', 'R-7', [{ description: 'Kabel', quantity: 5, unit_price: 2, amount: 10 }]);
    const handlers = matchingHandlers({ store } as unknown as RectoSession);
    const before = handlers['matching.document']({ pageId: first.pageId })!;
    // "Kabel" is no word of either PO line: paired by amount with the first of two equal candidates.
    expect(before.lines[0]).toMatchObject({ poNumber: '4500020', pairedBy: 'amount' });
    expect(before.choices.map((c) => c.line)).toEqual([1, 2]);
    const after = handlers['matching.link']({ pageId: first.pageId, line: 1, target: { poNumber: '4500020', line: 2 } })!;
    expect(after.lines[0]).toMatchObject({ poLine: 2, pairedBy: 'link', orderedUnitPrice: 2 });
    const next = addInvoice('cable2.pdf', 'R-8', [{ description: 'KABEL', quantity: 5, unit_price: 2, amount: 10 }]);
    expect(handlers['matching.document']({ pageId: next.pageId })!.lines[0]).toMatchObject({ poLine: 2, pairedBy: 'link' });
    expect(() => handlers['matching.link']({ pageId: first.pageId, line: 1, target: { poNumber: '4500020', line: 9 } })).toThrow(/no PO 4500020 line 9/);
  });

  it('imports master data sent by value (the app\'s import); a bad file is a bad-input error naming file and line', () => {
    const handlers = matchingHandlers({ store } as unknown as RectoSession);
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const summary = handlers['masterData.import']({ purchaseOrders: { name: 'PO.csv', dataBase64: b64(`${HEADER}P1,Muster GmbH,,1,Widget,,5,pc,2,EUR,\n`) } });
    expect(summary).toMatchObject({ files: [{ file: 'PO.csv', rows: 1, decimal: 'point' }], report: { purchaseOrders: { added: 1 } } });
    expect(() => handlers['masterData.import']({ goodsReceipts: { name: 'GR.csv', dataBase64: b64('po_number,line,quantity_received,received_on\nP2,1,1,2026-01-01\n') } })).toThrow(
      /refused, nothing imported: GR\.csv, line 2: PO P2 is neither/,
    );
  });

  it('the queue\'s "match failed" signal sits on the first page of each invoice whose match failed', () => {
    importPos(`${HEADER}4500021,Muster GmbH,,1,Widget,,5,pc,2,EUR,\n`);
    const ok = addInvoice('ok.pdf', 'R-9', [{ description: 'Widget', quantity: 5, unit_price: 2, amount: 10 }]);
    const bad = addInvoice('bad.pdf', 'R-10', [{ description: 'Widget', quantity: 5, unit_price: 3, amount: 15 }]);
    const list = () => withMatchSignals(store, [ok, bad].map((d) => ({ documentId: d.documentId, pageNumber: 1, signals: [] as { kind: string; detail: string }[] })));
    const items = list();
    expect(items.map((i) => i.signals.map((s) => s.kind))).toEqual([[], ['match-failed']]);
    expect(items[1]!.signals[0]!.detail).toMatch(/^PO-PRICE: /);
    // Kept between listings, and matched again when the invoice's fields or the master data change.
    store.fieldRevisions.save(bad.pageId, 'lines.0.amount', 10, 'ada');
    store.fieldRevisions.save(bad.pageId, 'lines.0.unit_price', 2, 'ada');
    expect(list().map((i) => i.signals.length)).toEqual([0, 0]);
    importPos(`${HEADER}4500021,Muster GmbH,,1,Widget,,5,pc,1.5,EUR,\n`);
    expect(list().map((i) => i.signals.length)).toEqual([1, 1]);
  });

  it('a project without master data gets no PO exception and no match columns', () => {
    const { pageId } = addInvoice('plain.pdf', 'R-6', [{ description: 'Anything', quantity: 1, unit_price: 10, amount: 10 }]);
    expect(approvalCheck(store, pageId, 'document').exceptions.filter((e) => e.kind === 'po-match')).toEqual([]);
  });
});
