import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { einvoicePlainFields, readEInvoice } from '../../../app/einvoice/index.js';
import { validateEInvoiceXml } from '../../../app/en16931/index.js';
import type { Extraction } from '../../../app/model/extraction.js';
import { ProjectStore } from '../../store/projectStore.js';
import { approvedContentOf } from '../../store/approvalSeals.js';
import { InvoicesExportRefusedError, exportInvoices } from './writeInvoicesExport.js';
import { invoiceReading } from '../../../testing/invoiceReadings.js';
import { loadSchemaLayer } from '../../import/einvoiceSchemaCheck.js';

// exportInvoices checks each e-invoice against its XSD on this thread: libxml2 is loaded first.
beforeAll(() => loadSchemaLayer());

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-invoices-export-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const reading = (markdown: string, invoice: Record<string, unknown>): Extraction =>
  invoiceReading({ due_date: null, currency: 'EUR', lines: [], ...invoice }, { markdown, elements: [] });

const completePage = [
  'Muster GmbH · USt-IdNr. DE123456789',
  'Rechnung R-17',
  'Kunde: Beispiel AG, Ihre USt-IdNr. ATU12345678',
  'Zahlungsbedingungen: 14 Tage netto',
  'IBAN DE89 3704 0044 0532 0130 00',
].join('\n');

/** An approval as Recto records it (sealed: approvalSeals.ts); a status set alone is not an approval. */
function recordApproval(store: ProjectStore, documentId: string): void {
  const pageId = store.documents.getDocument(documentId).pages[0]!.id;
  store.transaction(() => {
    store.documents.setReviewStatus(pageId, 'approved');
    store.reviewEvents.record({ pageId, status: 'approved', exceptions: [], reason: null, reviewer: 'Ada', sealed: JSON.stringify(approvedContentOf(store, documentId)) });
  });
}

function project(): { store: ProjectStore; complete: string; hostile: string } {
  const store = ProjectStore.create(path.join(dir, 'p.recto'));
  const add = (name: string, markdown: string, invoice: Record<string, unknown>) => {
    const doc = store.documents.addDocument({ sha256: Buffer.from(name).toString('hex').padEnd(64, '0').slice(0, 64), name, mediaType: 'application/pdf', bytes: Buffer.from(name), pages: [{ pageNumber: 1, width: 100, height: 100, dpi: 72, textLayer: null }] })!;
    store.readings.saveExtraction(doc.pages[0]!.id, reading(markdown, invoice), new Date());
    recordApproval(store, doc.id);
    return doc.id;
  };
  const complete = add('complete.pdf', completePage, {
    invoice_number: 'R-17', issue_date: '2024-03-01', seller: 'Muster GmbH', buyer: 'Beispiel AG', subtotal: 100, tax: 19, total: 119,
    lines: [{ description: 'Beratung', quantity: 2, unit_price: 50, amount: 100 }],
  });
  const hostile = add('hostile.pdf', 'Invoice', {
    invoice_number: '-2+3', issue_date: '2024-03-02', seller: '=HYPERLINK("http://evil","x")', buyer: '@SUM(A1)', subtotal: 10, tax: 1.9, total: 11.9,
    lines: [{ description: 'two\nlines, "quoted"', quantity: 1, unit_price: 10, amount: 10 }, { description: 'ACME;=1+1;@SUM(A1:A9)\u0000x', quantity: 1, unit_price: 0, amount: 0 }],
  });
  return { store, complete, hostile };
}

describe('invoices export', () => {
  it('writes the tables and a valid e-invoice per approved invoice that can be one; lists the others with the BTs they lack', () => {
    const { store, complete, hostile } = project();
    const out = path.join(dir, 'out');
    const summary = exportInvoices(store, { outDir: out, syntax: 'ubl' });
    expect(summary.invoices).toBe(2);
    expect(summary.einvoicesWritten).toBe(1);
    expect(summary.notWritten).toEqual([{ documentId: hostile, file: 'hostile.pdf', missing: expect.arrayContaining(['BT-40', 'BT-55', 'BT-9']) }]);

    const xml = fs.readFileSync(path.join(out, 'einvoices', `${complete}.ubl.xml`), 'utf8');
    expect(validateEInvoiceXml(xml).valid).toBe(true);
    expect(einvoicePlainFields(readEInvoice(Buffer.from(xml)))).toMatchObject({ invoice_number: 'R-17', seller: 'Muster GmbH', total: 119, due_date: null });
    expect(xml).toContain('DE89370400440532013000');
    expect(xml).toContain('<cbc:Note>14 Tage netto</cbc:Note>');

    const csv = fs.readFileSync(path.join(out, 'invoices.csv'), 'utf8');
    const [header, ...rows] = csv.trimEnd().split('\r\n');
    expect(header!.split(',').slice(0, 5)).toEqual(['document_id', 'file', 'document_type', 'invoice_number', 'issue_date']);
    expect(rows[0]).toContain(',380 Commercial invoice,');
    expect(rows[0]).toContain(',generated,');
    expect(rows[0]).toContain(`einvoices/${complete}.ubl.xml`);
    expect(rows[0]).toContain('seller_vat_id=page');
    // Formula prefixes neutralised at the start and after every separator a spreadsheet may split on, quotes doubled,
    // control characters (a line break, a NUL) spaces.
    expect(rows[1]).toContain(`"'-2+3"`);
    expect(rows[1]).toContain(`"'=HYPERLINK(""http://evil"",""x"")"`);
    expect(rows[1]).toContain(`"'@SUM(A1)"`);
    const lines = fs.readFileSync(path.join(out, 'lines.csv'), 'utf8');
    expect(lines).toContain(`"ACME;'=1+1;'@SUM(A1:A9) x"`);
    expect(lines).toContain('"two lines, ""quoted"""');
    expect(lines.replace(/\r\n/g, '')).not.toMatch(/[\u0000-\u001F]/);
    const jsonl = fs.readFileSync(path.join(out, 'invoices.jsonl'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(jsonl[0]).toMatchObject({ status: 'approved', fields: { issue_date: '2024-03-01', total: 119 }, payment: { iban: 'DE89370400440532013000' } });
    store.close();
  });

  it('a payment field corrected by the reviewer wins over the page and is marked corrected', () => {
    const { store, complete } = project();
    const page = store.documents.getDocument(complete).pages[0]!.id;
    store.fieldRevisions.save(page, 'payment.iban', 'FR14 2004 1010 0505 0001 3M02 606', 'Ada');
    recordApproval(store, complete); // the approval covers the corrected IBAN (a correction after it reopens it)
    const out = path.join(dir, 'out');
    exportInvoices(store, { outDir: out, syntax: 'cii' });
    const first = JSON.parse(fs.readFileSync(path.join(out, 'invoices.jsonl'), 'utf8').split('\n')[0]!);
    expect(first.payment.iban).toBe('FR14 2004 1010 0505 0001 3M02 606');
    expect(first.sources.iban).toBe('corrected');
    expect(fs.readFileSync(path.join(out, 'einvoices', `${complete}.cii.xml`), 'utf8')).toContain('<ram:IBANID>FR1420041010050500013M02606</ram:IBANID>');
    store.close();
  });

  it('re-exports into its own folder once its files were taken (removing what is no longer written); refuses folders with links or other content', () => {
    const { store } = project();
    const out = path.join(dir, 'out');
    exportInvoices(store, { outDir: out, syntax: 'ubl' });
    // The earlier export lies there as written: its invoices count as exported, so it is not replaced.
    expect(() => exportInvoices(store, { outDir: out, syntax: 'cii' })).toThrow(/holds the invoices export of .* with 2 invoice\(s\), as it was written/);
    fs.rmSync(path.join(out, 'invoices.csv')); // the ERP took it
    exportInvoices(store, { outDir: out, syntax: 'cii' });
    expect(fs.readdirSync(path.join(out, 'einvoices')).every((f) => f.endsWith('.cii.xml'))).toBe(true);

    const foreign = path.join(dir, 'foreign');
    fs.mkdirSync(foreign);
    fs.writeFileSync(path.join(foreign, 'thesis.docx'), 'x');
    expect(() => exportInvoices(store, { outDir: foreign, syntax: 'ubl' })).toThrow(InvoicesExportRefusedError);

    const linked = path.join(dir, 'linked');
    fs.mkdirSync(linked);
    fs.symlinkSync(dir, path.join(linked, 'einvoices'));
    expect(() => exportInvoices(store, { outDir: linked, syntax: 'ubl' })).toThrow(/symbolic link/);
    expect(fs.readdirSync(linked)).toEqual(['einvoices']);

    // A manifest naming paths outside the folder is never followed.
    const manifest = JSON.parse(fs.readFileSync(path.join(out, 'invoices-export.json'), 'utf8'));
    fs.writeFileSync(path.join(dir, 'victim.txt'), 'keep');
    fs.writeFileSync(path.join(out, 'invoices-export.json'), JSON.stringify({ ...manifest, files: ['../victim.txt'] }));
    fs.rmSync(path.join(out, 'invoices.csv'));
    exportInvoices(store, { outDir: out, syntax: 'ubl', allApproved: true });
    expect(fs.readFileSync(path.join(dir, 'victim.txt'), 'utf8')).toBe('keep');
    store.close();
  });
  it("says `receipt` in document_type for a till receipt (the page's or the analyst's decision), and a UNTDID code otherwise", () => {
    const store = ProjectStore.create(path.join(dir, 'r.recto'));
    const doc = store.documents.addDocument({ sha256: 'ab'.repeat(32), name: 'till.jpg', mediaType: 'image/jpeg', bytes: Buffer.from('till'), pages: [{ pageNumber: 1, width: 100, height: 100, dpi: 72, textLayer: null }] })!;
    const pageId = doc.pages[0]!.id;
    store.readings.saveExtraction(pageId, reading('KEDAI MAJU SDN BHD\nTOTAL 12.50\nCASH 20.00\nCHANGE 7.50', { issue_date: '2018-03-27', seller: 'KEDAI MAJU SDN BHD', total: 12.5, document_type: 'receipt' }), new Date());
    recordApproval(store, doc.id);
    const row = () => {
      const out = fs.mkdtempSync(path.join(dir, 'out-'));
      exportInvoices(store, { outDir: out, syntax: 'ubl' });
      const [header, first] = fs.readFileSync(path.join(out, 'invoices.csv'), 'utf8').trimEnd().split('\r\n');
      return first!.split(',')[header!.split(',').indexOf('document_type')];
    };
    expect(row()).toBe('receipt');
    store.fieldRevisions.save(pageId, 'document_type', 'invoice', 'Ada');
    recordApproval(store, doc.id);
    expect(row()).toBe('380 Commercial invoice');
    store.close();
  });
});
