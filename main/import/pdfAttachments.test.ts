import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { einvoicePlainFields } from '../../app/einvoice/index.js';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';
import { readEmbeddedEInvoice } from './pdfAttachments.js';

const einvoiceDir = path.join(defaultTestdataRoot, 'einvoices');
const haveEinvoices = existsSync(path.join(einvoiceDir, 'truth.json'));
if (!haveEinvoices) console.log(`SKIPPED: embedded e-invoices against truth.json: ${einvoiceDir} is absent`);

interface TruthEntry {
  embedded_xml: string | null;
  fields: (Record<string, unknown> & { type_code?: string }) | null;
}

describe.skipIf(!haveEinvoices)('embedded e-invoices of the real PDFs', () => {
  const truth = haveEinvoices ? (JSON.parse(readFileSync(path.join(einvoiceDir, 'truth.json'), 'utf8')) as Record<string, TruthEntry>) : {};

  it.each(Object.keys(truth))('%s: the attachment reads exactly as truth.json states', async (name) => {
    const expected = truth[name]!;
    const embedded = await readEmbeddedEInvoice(new Uint8Array(readFileSync(path.join(einvoiceDir, 'pdfs', name))));
    if (!expected.embedded_xml) {
      expect(embedded.status).toBe('none');
      return;
    }
    expect(embedded.status).toBe('read');
    if (embedded.status !== 'read') return;
    expect(embedded.fileName).toBe(expected.embedded_xml);
    const { type_code: typeCode, amount_due: amountDue, ...fields } = expected.fields!;
    expect(einvoicePlainFields(embedded.invoice)).toEqual(fields);
    expect(embedded.invoice.info.typeCode).toBe(typeCode);
    expect(embedded.invoice.fields.amount_due?.value ?? null).toBe(amountDue);
  });
});

describe.skipIf(!haveEinvoices)('the worker that reads a PDF\'s e-invoice', () => {
  it('past its time limit the worker is stopped and the attachments refused, with the reason', async () => {
    const pdf = new Uint8Array(readFileSync(path.join(einvoiceDir, 'pdfs', 'EN16931_Miete.pdf')));
    const result = await readEmbeddedEInvoice(pdf, 1);
    expect(result).toMatchObject({ status: 'refused', fileName: 'the attachments' });
    expect(result.status === 'refused' && result.message).toMatch(/could not be read within 0 s/);
  }, 30_000);
});
