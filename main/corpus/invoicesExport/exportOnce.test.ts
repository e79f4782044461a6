import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Extraction } from '../../../app/model/extraction.js';
import { ProjectStore } from '../../store/projectStore.js';
import { approvedContentOf, reopenChanged } from '../../store/approvalSeals.js';
import { osAccountName } from '../../store/reviewEvents.js';
import { InvoicesExportNotRecordedError, exportInvoices } from './writeInvoicesExport.js';
import { invoiceReading } from '../../../testing/invoiceReadings.js';
import { approve } from '../../services/approval.js';
import { closeRawDatabase, rawDatabase } from '../../../testing/rawDatabase.js';
import { loadSchemaLayer } from '../../import/einvoiceSchemaCheck.js';

// exportInvoices checks each e-invoice against its XSD on this thread: libxml2 is loaded first.
beforeAll(() => loadSchemaLayer());

let dir: string;
let store: ProjectStore;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-export-once-'));
  store = ProjectStore.create(path.join(dir, 'p.recto'));
});
afterEach(() => {
  closeRawDatabase(store);
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const reading = (n: number): Extraction =>
  invoiceReading(
    {
      invoice_number: `R-${n}`, issue_date: '2024-03-01', due_date: '2024-03-31', currency: 'EUR', seller: 'Muster GmbH', buyer: 'Beispiel AG',
      subtotal: 100 * n, tax: 19 * n, total: 119 * n, lines: [{ description: 'Beratung', quantity: n, unit_price: 100, amount: 100 * n }],
    },
    { markdown: `Muster GmbH · USt-IdNr. DE123456789\nRechnung R-${n}\nKunde: Beispiel AG, Ihre USt-IdNr. ATU12345678\nZahlungsbedingungen: 30 Tage netto\nIBAN DE89 3704 0044 0532 0130 00`, elements: [] },
  );

function addInvoice(n: number): { documentId: string; pageId: string } {
  const name = `invoice-${n}.pdf`;
  const doc = store.documents.addDocument({ sha256: createHash('sha256').update(name).digest('hex'), name, mediaType: 'application/pdf', bytes: Buffer.from(name), pages: [{ pageNumber: 1, width: 100, height: 100, dpi: 72, textLayer: null }] })!;
  store.readings.saveExtraction(doc.pages[0]!.id, reading(n), new Date());
  return { documentId: doc.id, pageId: doc.pages[0]!.id };
}

/** An approval as Recto records it (sealed: approvalSeals.ts). */
function approveDoc(documentId: string): void {
  const pageId = store.documents.getDocument(documentId).pages[0]!.id;
  store.transaction(() => {
    store.documents.setReviewStatus(pageId, 'approved');
    store.reviewEvents.record({ pageId, status: 'approved', exceptions: [], reason: null, reviewer: 'Ada', sealed: JSON.stringify(approvedContentOf(store, documentId)) });
  });
}

const csvRows = (out: string): Record<string, string>[] => {
  const [header, ...rows] = fs.readFileSync(path.join(out, 'invoices.csv'), 'utf8').trimEnd().split('\r\n');
  const columns = header!.split(',');
  // The test invoices hold no quoted commas: a plain split is exact here.
  return rows.map((row) => Object.fromEntries(row.split(',').map((cell, i) => [columns[i], cell])));
};
const sentIds = (out: string) => csvRows(out).map((r) => r.document_id).sort();

describe('each invoice once', () => {
  it('a second export writes only invoices approved since; unreviewed, in-review and rejected ones never go out', () => {
    const a = addInvoice(1);
    const b = addInvoice(2);
    const unreviewed = addInvoice(3);
    const rejected = addInvoice(4);
    approveDoc(a.documentId);
    store.reviewNotes.reject(rejected.pageId, 'not ours', 'Ada');

    const first = path.join(dir, 'first');
    const summary = exportInvoices(store, { outDir: first, syntax: 'ubl', reviewer: 'Ada' });
    expect(sentIds(first)).toEqual([a.documentId]);
    expect(summary).toMatchObject({ invoices: 1, alreadyExported: 0, corrections: 0, allApproved: false });
    expect(csvRows(first)[0]).toMatchObject({ status: 'approved', correction_of: '' });
    expect(fs.readdirSync(path.join(first, 'einvoices'))).toEqual([`${a.documentId}.ubl.xml`]);

    // The record: who, when, the channel, what went out, and each written file's hash as it lies in the folder.
    const [record] = store.invoiceExports.list();
    expect(record).toMatchObject({ id: summary.exportId, reviewer: 'Ada', osAccount: osAccountName(), channel: 'invoices/ubl/en16931', allApproved: false, outDir: first });
    expect(record!.items.map((i) => i.documentId)).toEqual([a.documentId]);
    expect(record!.files.map((f) => f.file).sort()).toEqual(summary.files);
    for (const f of record!.files) expect(createHash('sha256').update(fs.readFileSync(path.join(first, f.file))).digest('hex')).toBe(f.sha256);
    expect(JSON.parse(fs.readFileSync(path.join(first, 'invoices-export.json'), 'utf8'))).toMatchObject({ export_id: summary.exportId, channel: 'invoices/ubl/en16931' });

    approveDoc(b.documentId);
    const second = path.join(dir, 'second');
    expect(exportInvoices(store, { outDir: second, syntax: 'ubl' })).toMatchObject({ invoices: 1, alreadyExported: 1 });
    expect(sentIds(second)).toEqual([b.documentId]);
    expect(sentIds(second)).not.toContain(unreviewed.documentId);

    // Nothing new: header-only tables, no e-invoice, recorded as an export that sent nothing.
    const third = path.join(dir, 'third');
    expect(exportInvoices(store, { outDir: third, syntax: 'ubl' })).toMatchObject({ invoices: 0, einvoicesWritten: 0, alreadyExported: 2 });
    expect(fs.readFileSync(path.join(third, 'invoices.csv'), 'utf8').split('\r\n').filter(Boolean)).toHaveLength(1);
    expect(fs.readFileSync(path.join(third, 'lines.csv'), 'utf8').split('\r\n').filter(Boolean)).toHaveLength(1);
    expect(fs.readFileSync(path.join(third, 'invoices.jsonl'), 'utf8')).toBe('');
    expect(fs.existsSync(path.join(third, 'einvoices'))).toBe(false);
  });

  it('a three-page invoice approved from its last page goes out as approved, once; approved again after a change, as a correction', () => {
    const name = 'three.pdf';
    const doc = store.documents.addDocument({ sha256: createHash('sha256').update(name).digest('hex'), name, mediaType: 'application/pdf', bytes: Buffer.from(name), pages: [1, 2, 3].map((pageNumber) => ({ pageNumber, width: 100, height: 100, dpi: 72, textLayer: null })) })!;
    store.readings.saveExtraction(doc.pages[0]!.id, reading(3), new Date());
    for (const page of doc.pages.slice(1)) store.readings.saveExtraction(page.id, invoiceReading(null, { markdown: 'Terms and conditions', elements: [] }), new Date());
    // The app's approval (main/services/approval.ts), from page 3, over whatever exceptions it lists.
    expect(approve(store, { pageId: doc.pages[2]!.id, scope: 'unit', reviewer: 'Ada', reason: 'checked' })).toMatchObject({ scope: 'document', pageNumbers: [1, 2, 3] });
    const first = path.join(dir, 'first');
    const summary = exportInvoices(store, { outDir: first, syntax: 'cii' });
    expect(csvRows(first).map((r) => [r.document_id, r.status])).toEqual([[doc.id, expect.stringMatching(/^approved/)]]);
    expect(exportInvoices(store, { outDir: path.join(dir, 'second'), syntax: 'cii' }).invoices).toBe(0);

    store.fieldRevisions.save(doc.pages[0]!.id, 'invoice_number', 'R-3a', 'Ada');
    reopenChanged(store, doc.id, 'fields.save');
    expect(approve(store, { pageId: doc.pages[1]!.id, scope: 'unit', reviewer: 'Ada', reason: 'checked' }).scope).toBe('document');
    const third = path.join(dir, 'third');
    exportInvoices(store, { outDir: third, syntax: 'cii' });
    expect(csvRows(third)).toEqual([expect.objectContaining({ document_id: doc.id, invoice_number: 'R-3a', correction_of: summary.exportId })]);
  });

  it('once per channel: a UBL, a CII and an XRechnung export each send an invoice once', () => {
    const a = addInvoice(1);
    approveDoc(a.documentId);
    for (const [syntax, xrechnung] of [['ubl', false], ['ubl', true], ['cii', false]] as const) {
      const once = exportInvoices(store, { outDir: path.join(dir, `${syntax}-${xrechnung}-1`), syntax, xrechnung });
      expect(once.invoices).toBe(1);
      expect(exportInvoices(store, { outDir: path.join(dir, `${syntax}-${xrechnung}-2`), syntax, xrechnung }).invoices).toBe(0);
    }
    expect(store.invoiceExports.list().map((e) => e.channel)).toEqual([
      'invoices/ubl/en16931', 'invoices/ubl/en16931', 'invoices/ubl/xrechnung', 'invoices/ubl/xrechnung', 'invoices/cii/en16931', 'invoices/cii/en16931',
    ]);
  });

  it('--all-approved writes every approved invoice again, saying how many went out before; never an unapproved one', () => {
    const a = addInvoice(1);
    const b = addInvoice(2);
    addInvoice(3);
    approveDoc(a.documentId);
    exportInvoices(store, { outDir: path.join(dir, 'first'), syntax: 'cii' });
    approveDoc(b.documentId);
    const again = path.join(dir, 'again');
    const summary = exportInvoices(store, { outDir: again, syntax: 'cii', allApproved: true });
    expect(summary).toMatchObject({ invoices: 2, alreadyExported: 1, allApproved: true });
    expect(sentIds(again)).toEqual([a.documentId, b.documentId].sort());
    expect(store.invoiceExports.list()[1]).toMatchObject({ allApproved: true });
    // Both now sent on this channel: a plain export has nothing new.
    expect(exportInvoices(store, { outDir: path.join(dir, 'plain'), syntax: 'cii' }).invoices).toBe(0);
  });

  it('a reopened invoice goes out again only after a new approval, marked as a correction of the earlier export', () => {
    const a = addInvoice(1);
    approveDoc(a.documentId);
    const first = exportInvoices(store, { outDir: path.join(dir, 'first'), syntax: 'ubl' });
    const exportedAt = store.invoiceExports.list()[0]!.exportedAt;

    store.fieldRevisions.save(a.pageId, 'due_date', '2024-04-30', 'Ada');
    reopenChanged(store, a.documentId, 'fields.save');
    expect(exportInvoices(store, { outDir: path.join(dir, 'reopened'), syntax: 'ubl' }).invoices).toBe(0);

    approveDoc(a.documentId);
    const out = path.join(dir, 'corrected');
    expect(exportInvoices(store, { outDir: out, syntax: 'ubl' })).toMatchObject({ invoices: 1, corrections: 1 });
    expect(csvRows(out)[0]).toMatchObject({ document_id: a.documentId, due_date: '2024-04-30', correction_of: first.exportId, correction_of_at: exportedAt });
    const json = JSON.parse(fs.readFileSync(path.join(out, 'invoices.jsonl'), 'utf8'));
    expect(json.correction_of).toEqual({ export_id: first.exportId, exported_at: exportedAt });
    expect(store.invoiceExports.list()[2]!.items).toEqual([expect.objectContaining({ documentId: a.documentId, correctionOf: first.exportId })]);
    expect(exportInvoices(store, { outDir: path.join(dir, 'after'), syntax: 'ubl' }).invoices).toBe(0);
  });

  it('an earlier export lying in the folder as written is not replaced; once its tables were taken, or where it sent nothing, it is', () => {
    const a = addInvoice(1);
    const out = path.join(dir, 'inbox');
    expect(exportInvoices(store, { outDir: out, syntax: 'ubl' }).invoices).toBe(0);
    approveDoc(a.documentId);
    expect(exportInvoices(store, { outDir: out, syntax: 'ubl' }).invoices).toBe(1); // the empty one replaced
    const written = fs.readFileSync(path.join(out, 'invoices.csv'));
    addInvoice(2);
    approveDoc(store.documents.listDocuments()[1]!.id);
    expect(() => exportInvoices(store, { outDir: out, syntax: 'ubl' })).toThrow(/with 1 invoice\(s\), as it was written .* nothing was written/);
    expect(fs.readFileSync(path.join(out, 'invoices.csv')).equals(written)).toBe(true);
    expect(store.invoiceExports.list()).toHaveLength(2);
    fs.rmSync(path.join(out, 'invoices.csv'));
    expect(exportInvoices(store, { outDir: out, syntax: 'ubl' }).invoices).toBe(1);
    expect(fs.existsSync(path.join(out, 'einvoices', `${a.documentId}.ubl.xml`))).toBe(false);
  });

  it('an export that fails before its record marks nothing as sent: the next export sends the same invoices', () => {
    const a = addInvoice(1);
    approveDoc(a.documentId);
    // Failing while staging: nothing moved in, nothing recorded.
    const staged = path.join(dir, 'staged');
    expect(() => exportInvoices(store, { outDir: staged, syntax: 'ubl', onProgress: () => { throw new Error('killed'); } })).toThrow('killed');
    expect(fs.existsSync(staged)).toBe(false);
    expect(store.invoiceExports.list()).toEqual([]);

    // Failing while recording (the files are in place): the record is all or nothing, and the error says the
    // invoices go out again.
    const db = rawDatabase(store);
    db.exec(`CREATE TRIGGER fail_record BEFORE INSERT ON invoice_export_items BEGIN SELECT RAISE(ABORT, 'disk full'); END`);
    const unrecorded = path.join(dir, 'unrecorded');
    expect(() => exportInvoices(store, { outDir: unrecorded, syntax: 'ubl' })).toThrow(InvoicesExportNotRecordedError);
    expect(sentIds(unrecorded)).toEqual([a.documentId]);
    expect(store.invoiceExports.list()).toEqual([]);
    db.exec('DROP TRIGGER fail_record');

    const next = path.join(dir, 'next');
    expect(exportInvoices(store, { outDir: next, syntax: 'ubl' }).invoices).toBe(1);
    expect(sentIds(next)).toEqual([a.documentId]);
  });
});
