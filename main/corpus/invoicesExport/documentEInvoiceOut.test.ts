/**
 * A document that carries an e-invoice, approved as it stands: its XML's values are the invoice (the page reading,
 * misread on purpose here, is compared, never used), and the export sends the XML itself, byte for byte, where it is
 * valid, uncorrected and of the syntax and CIUS asked — else an e-invoice generated from the XML's values with the
 * corrections applied. Real e-invoices of ../shared/testdata, read in place.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readEInvoice, withEInvoice } from '../../../app/einvoice/index.js';
import { readSemanticInvoice, validateEInvoiceXml } from '../../../app/en16931/index.js';
import { ProjectStore } from '../../store/projectStore.js';
import { addReadDocument, invoiceReading } from '../../../testing/invoiceReadings.js';
import { defaultTestdataRoot } from '../../../testing/testdataPaths.js';
import { exportInvoices } from './writeInvoicesExport.js';
import { approvedContentOf } from '../../store/approvalSeals.js';
import { checkSchemaNow, loadSchemaLayer } from '../../import/einvoiceSchemaCheck.js';

// exportInvoices checks each e-invoice against its XSD on this thread: libxml2 is loaded first.
beforeAll(() => loadSchemaLayer());

const corpusXml = (syntax: 'ubl' | 'cii', name: string) => path.join(defaultTestdataRoot, 'einvoice-corpus', 'xml', syntax, name);
/** A valid XRechnung 3.0 (one of KoSIT's technical cases: no XRechnung rule fires on it in KoSIT's XSLT). */
const xrechnungUbl = path.join(defaultTestdataRoot, 'xrechnung', 'technical-cases', 'cius', '01.01_comprehensive_test_ubl.xml');
/** An XRechnung that KoSIT rejects: an empty `cbc:ID` (PEPPOL-EN16931-R008). */
const xrechnungWithEmptyElement = corpusXml('ubl', 'XRECHNUNG_Elektron.ubl.xml');
const creditNote = corpusXml('ubl', 'ubl-tc434-creditnote1.xml');
const available = fs.existsSync(xrechnungUbl) && fs.existsSync(xrechnungWithEmptyElement) && fs.existsSync(creditNote);

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-document-einvoice-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A document carrying `file` as its e-invoice, its page read with a wrong total and a four-decimal price misread. */
function addEInvoiceDocument(store: ProjectStore, file: string): { documentId: string; pageId: string; bytes: Buffer } {
  const bytes = fs.readFileSync(file);
  const invoice = readEInvoice(bytes, path.basename(file));
  const misread = invoiceReading({ invoice_number: invoice.fields.invoice_number?.value ?? null, total: 1, subtotal: 1, tax: 0, lines: [{ description: 'x', quantity: 20, unit_price: 9, amount: 198 }] });
  const added = addReadDocument(store, path.basename(file), withEInvoice(misread, { status: 'read', invoice }));
  store.einvoices.put(added.documentId, { status: 'read', fileName: path.basename(file), syntax: invoice.info.syntax, profile: invoice.info.profile, xml: bytes });
  approveSealed(store, added.documentId, added.pageId);
  return { ...added, bytes };
}

/** An approval as Recto records it (sealed: approvalSeals.ts); a status set alone is not an approval. */
function approveSealed(store: ProjectStore, documentId: string, pageId: string): void {
  store.transaction(() => {
    store.documents.setReviewStatus(pageId, 'approved');
    store.reviewEvents.record({ pageId, status: 'approved', exceptions: [], reason: null, reviewer: 'Ada', sealed: JSON.stringify(approvedContentOf(store, documentId)) });
  });
}

const csvRows = (out: string): Record<string, string>[] => {
  const [header, ...rows] = fs.readFileSync(path.join(out, 'invoices.csv'), 'utf8').trimEnd().split('\r\n');
  const columns = header!.split(',');
  return rows.map((row) => Object.fromEntries(row.split(',').map((cell, i) => [columns[i], cell])));
};

describe.runIf(available)('a document with an e-invoice: the XML is the invoice, and goes out as itself', () => {
  it("takes the XML's fields, lines and VAT breakdown as the document's values, the page reading kept apart", () => {
    const store = ProjectStore.create(path.join(dir, 'p.recto'));
    const { pageId, bytes } = addEInvoiceDocument(store, xrechnungUbl);
    const xml = readEInvoice(bytes);
    const engine = store.fieldRevisions.documentEngine(pageId)!;
    expect(engine.origin).toBe('xml');
    expect(engine.values.total).toBe(xml.fields.total!.value);
    expect(engine.values.lines.map((l) => [l.quantity, l.unit_price, l.amount])).toEqual(xml.lines.map((l) => [l.quantity, l.unit_price, l.amount]));
    expect(engine.values.tax_breakdown.length).toBe(xml.taxes.length);
    expect(engine.page?.total).toBe(1);
    // The misread total is no value's source: its box is dropped; the page's number, printed as the XML states it, keeps its place.
    expect(engine.sources.total).toBeUndefined();
    store.close();
  });

  it("each line's unit and VAT category and rate are the XML's: in the review's line terms and in lines.csv", () => {
    const store = ProjectStore.create(path.join(dir, 'p.recto'));
    const { pageId, bytes } = addEInvoiceDocument(store, xrechnungUbl);
    const xml = readEInvoice(bytes);
    expect(xml.lines.every((l) => l.unitCode && l.taxCategory)).toBe(true);
    const engine = store.fieldRevisions.documentEngine(pageId)!;
    expect(engine.lineTerms).toEqual(xml.lines.map((l) => ({ unitCode: l.unitCode, category: l.taxCategory, rate: l.taxRate })));
    const out = path.join(dir, 'out');
    exportInvoices(store, { outDir: out, syntax: 'ubl' });
    const [header, ...rows] = fs.readFileSync(path.join(out, 'lines.csv'), 'utf8').trimEnd().split('\r\n');
    const columns = header!.split(',');
    expect(columns).toEqual(expect.arrayContaining(['unit', 'vat_category', 'vat_rate']));
    // Descriptions may hold commas (quoted): the terms are read from the row's end, before `source` and the PO columns.
    const fromEnd = (row: string, column: string) => row.split(',').at(columns.indexOf(column) - columns.length);
    expect(rows.map((row) => [fromEnd(row, 'unit'), fromEnd(row, 'vat_category'), Number(fromEnd(row, 'vat_rate'))])).toEqual(
      xml.lines.map((l) => [l.unitCode, l.taxCategory, l.taxRate]),
    );
    const jsonl = JSON.parse(fs.readFileSync(path.join(out, 'invoices.jsonl'), 'utf8').trim().split('\n')[0]!) as { lines: { unit: string; vat_category: string }[] };
    expect(jsonl.lines.map((l) => [l.unit, l.vat_category])).toEqual(xml.lines.map((l) => [l.unitCode, l.taxCategory]));
    store.close();
  });

  it('XRechnung asked of an uncorrected XRechnung: the original bytes, said so in invoices.csv; another syntax: generated and valid', () => {
    const store = ProjectStore.create(path.join(dir, 'p.recto'));
    const { documentId, bytes } = addEInvoiceDocument(store, xrechnungUbl);
    const out = path.join(dir, 'out');
    const summary = exportInvoices(store, { outDir: out, syntax: 'ubl', xrechnung: true });
    expect(summary.einvoicesWritten).toBe(1);
    expect(fs.readFileSync(path.join(out, 'einvoices', `${documentId}.ubl.xml`)).equals(bytes)).toBe(true);
    const [row] = csvRows(out);
    expect(row).toMatchObject({ einvoice_origin: 'original', document_type: '380 Commercial invoice' });
    expect(row!.sources).toContain('total=xml');

    const cii = path.join(dir, 'cii');
    const other = exportInvoices(store, { outDir: cii, syntax: 'cii', xrechnung: true });
    expect(other.notWritten).toEqual([]);
    const generated = fs.readFileSync(path.join(cii, 'einvoices', `${documentId}.cii.xml`), 'utf8');
    expect(csvRows(cii)[0]!.einvoice_origin).toBe('generated');
    expect(validateEInvoiceXml(generated).failed.filter((f) => f.flag === 'fatal')).toEqual([]);
    expect(readSemanticInvoice(generated).typeCode?.text).toBe('380');
    store.close();
  });

  it('XRechnung asked of an XRechnung KoSIT rejects (an empty element, PEPPOL-EN16931-R008): never passed on as it is', () => {
    const store = ProjectStore.create(path.join(dir, 'p.recto'));
    const { documentId, bytes } = addEInvoiceDocument(store, xrechnungWithEmptyElement);
    expect(validateEInvoiceXml(bytes, { rules: 'xrechnung' }).failed.map((f) => f.id)).toContain('PEPPOL-EN16931-R008');
    const out = path.join(dir, 'out');
    exportInvoices(store, { outDir: out, syntax: 'ubl', xrechnung: true });
    const written = path.join(out, 'einvoices', `${documentId}.ubl.xml`);
    expect(csvRows(out)[0]!.einvoice_origin).not.toBe('original');
    expect(fs.existsSync(written) && fs.readFileSync(written).equals(bytes)).toBe(false);
    store.close();
  });

  it('an original whose rules all hold but which fails its XSD (an element out of order) is never passed on: generated, schema-valid', () => {
    const store = ProjectStore.create(path.join(dir, 'p.recto'));
    const xml = fs.readFileSync(xrechnungUbl, 'utf8');
    // The issue date before the invoice number: UBL 2.1's sequence is ID, IssueDate; the rules read both wherever they are.
    const mutant = xml.replace(/(<cbc:ID>[^<]*<\/cbc:ID>)(\s*)(<cbc:IssueDate>[^<]*<\/cbc:IssueDate>)/, '$3$2$1');
    expect(mutant).not.toBe(xml);
    const file = path.join(dir, 'out-of-order.ubl.xml');
    fs.writeFileSync(file, mutant);
    expect(validateEInvoiceXml(mutant, { rules: 'xrechnung' }).failed.filter((f) => f.flag === 'fatal')).toEqual([]);
    expect(checkSchemaNow(mutant).verdict).toEqual({ checked: true, schema: 'UBL 2.1 Invoice XSD', valid: false });
    const { documentId } = addEInvoiceDocument(store, file);
    const out = path.join(dir, 'out');
    const summary = exportInvoices(store, { outDir: out, syntax: 'ubl', xrechnung: true });
    expect(summary.notWritten).toEqual([]);
    expect(csvRows(out)[0]!.einvoice_origin).toBe('generated');
    const written = fs.readFileSync(path.join(out, 'einvoices', `${documentId}.ubl.xml`));
    expect(checkSchemaNow(written).verdict).toEqual({ checked: true, schema: 'UBL 2.1 Invoice XSD', valid: true });
    store.close();
  });

  it('a corrected field: generated from the XML values with the correction applied, not the original', () => {
    const store = ProjectStore.create(path.join(dir, 'p.recto'));
    const { documentId, pageId } = addEInvoiceDocument(store, xrechnungUbl);
    store.fieldRevisions.save(pageId, 'due_date', '2030-01-31', 'Ada');
    approveSealed(store, documentId, pageId); // the correction reopened the invoice: approved again over it
    const out = path.join(dir, 'out');
    exportInvoices(store, { outDir: out, syntax: 'ubl', xrechnung: true });
    const xml = fs.readFileSync(path.join(out, 'einvoices', `${documentId}.ubl.xml`), 'utf8');
    expect(csvRows(out)[0]!.einvoice_origin).toBe('generated');
    expect(xml).toContain('<cbc:DueDate>2030-01-31</cbc:DueDate>');
    expect(xml).toContain('<cbc:ProfileID>');
    store.close();
  });

  it('a credit note is recognisable in invoices.csv and goes out as itself', () => {
    const store = ProjectStore.create(path.join(dir, 'p.recto'));
    const { documentId, bytes } = addEInvoiceDocument(store, creditNote);
    const out = path.join(dir, 'out');
    exportInvoices(store, { outDir: out, syntax: 'ubl' });
    expect(csvRows(out)[0]).toMatchObject({ document_type: '381 Credit note', einvoice_origin: 'original' });
    expect(fs.readFileSync(path.join(out, 'einvoices', `${documentId}.ubl.xml`)).equals(bytes)).toBe(true);
    store.close();
  });
});

describe.runIf(!available)('a document with an e-invoice', () => {
  it('skips', () => console.log(`SKIPPED: ${path.dirname(xrechnungUbl)} not present (../shared/testdata)`));
});
