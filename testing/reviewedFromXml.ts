/**
 * The testdata's standalone e-invoice XMLs, and each as the reviewer accepted its XML's values: the input of the tests
 * that write e-invoices out and check them (official XSLT, schema).
 */
import fs from 'node:fs';
import path from 'node:path';
import { einvoicePlainFields, readEInvoice } from '../app/einvoice/index.js';
import { readSemanticInvoice } from '../app/en16931/index.js';
import { documentTypeOf } from '../app/invoices/documentType.js';
import { xmlInvoiceDetails } from '../app/invoices/einvoiceOut/xmlDetails.js';
import type { ReviewedInvoice } from '../app/invoices/reviewedInvoice.js';
import { sampleReviewedInvoice } from '../app/invoices/sampleReviewedInvoice.js';
import { xmlPaymentFields } from '../app/invoices/xmlPaymentFields.js';
import { emptyFieldValues } from '../app/invoice/review/engineFields.js';

const testdata = path.resolve('../shared/testdata');
const xmlFolders = ['einvoices/xml/ubl', 'einvoices/xml/cii', 'einvoice-corpus/xml/ubl', 'einvoice-corpus/xml/cii'].map((f) => path.join(testdata, f));

/** Every standalone e-invoice XML of the testdata (none where it is absent). */
export const testdataXmlFiles: string[] = xmlFolders.filter((f) => fs.existsSync(f)).flatMap((f) => fs.readdirSync(f).filter((n) => n.endsWith('.xml')).map((n) => path.join(f, n)));

/** A real e-invoice taken as the reviewer accepted its XML's values. */
export function reviewedFromXml(file: string): ReviewedInvoice {
  return reviewedFromXmlBytes(fs.readFileSync(file), path.basename(file));
}

/** An e-invoice XML (a file's bytes, or one attached to a PDF) taken as the reviewer accepted its values. */
export function reviewedFromXmlBytes(bytes: Uint8Array, fileName: string): ReviewedInvoice {
  const einvoice = readEInvoice(bytes, fileName);
  const plain = einvoicePlainFields(einvoice);
  const semantic = readSemanticInvoice(bytes);
  const xml = xmlPaymentFields(semantic, einvoice.payment);
  const taxRows = einvoice.taxes.map((t) => ({ rate: t.rate, base: t.basis, amount: t.amount }));
  return { ...sampleReviewedInvoice(), fileName, fields: { ...emptyFieldValues(), ...plain, ...einvoice.adjustments, tax_breakdown: taxRows }, ...xml, documentType: documentTypeOf({ statedCode: xml.typeCode, total: plain.total }), xmlDetails: xmlInvoiceDetails(semantic) };
}
