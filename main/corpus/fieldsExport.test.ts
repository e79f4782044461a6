import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProjectStore } from '../store/projectStore.js';
import { addReadDocument, invoiceReading } from '../../testing/invoiceReadings.js';
import { parseCorpusRecordLine } from './corpusRecord.js';
import { exportCorpus } from './exportCorpus.js';

let dir: string;
let store: ProjectStore;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-fields-export-'));
  store = ProjectStore.create(path.join(dir, 'p.recto'));
});
afterEach(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A page whose text names the invoice and its total, one element over its first line. */
const invoiceText = { markdown: 'Invoice 7\n\nTotal 10.00', elements: [{ id: 'e1', kind: 'text' as const, box: [0, 0, 10, 10] as [number, number, number, number], span: [0, 9] as [number, number], confidence: 1 }] };

const engineInvoice = {
  invoice_number: '7', issue_date: '2024-01-02', due_date: null, seller: 'Muster GmbH', buyer: 'Beispiel AG', currency: 'EUR',
  subtotal: 10, tax: 1.9, total: 11.9, lines: [{ description: 'Work', quantity: 1, unit_price: 10, amount: 10 }],
};

function addDocument(name: string, sha: string, invoice: Record<string, unknown> | null): string {
  return addReadDocument(store, name, invoiceReading(invoice, invoiceText), sha.repeat(64)).pageId;
}

describe('invoice fields in the corpus export', () => {
  it('records carry fields and fields_engine; fields.jsonl has one corrected document a line', async () => {
    const invoicePage = addDocument('invoice.pdf', 'a', engineInvoice);
    addDocument('letter.pdf', 'b', null);
    store.fieldRevisions.save(invoicePage, 'total', 12.9, 'Ana');
    store.fieldRevisions.save(invoicePage, 'lines.0.amount', 11, 'Ana');
    const out = path.join(dir, 'out');
    await exportCorpus(store, { outDir: out, images: 'none' });

    const records = fs.readFileSync(path.join(out, 'records.jsonl'), 'utf8').trim().split('\n').map((l) => parseCorpusRecordLine(l));
    const invoiceRecord = records.find((r) => r.source.name === 'invoice.pdf')!;
    expect(invoiceRecord.fields_engine).toMatchObject({ total: 11.9, lines: [{ amount: 10 }] });
    expect(invoiceRecord.fields).toMatchObject({ total: 12.9, invoice_number: '7', lines: [{ amount: 11 }] });
    const letter = records.find((r) => r.source.name === 'letter.pdf')!;
    expect(letter.fields).toBeNull();
    expect(letter.fields_engine).toBeNull();

    const lines = fs.readFileSync(path.join(out, 'fields.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ document_id: invoiceRecord.source.document_id, total: 12.9, lines: [{ amount: 11 }] });
    expect(Object.keys(lines[0]).sort()).toEqual(
      ['allowances', 'amount_due', 'buyer', 'charges', 'currency', 'document_id', 'due_date', 'invoice_number', 'issue_date', 'line_total', 'lines', 'prepaid', 'seller', 'subtotal', 'tax', 'tax_breakdown', 'total'],
    );
  });
});
