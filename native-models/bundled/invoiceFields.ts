/**
 * Invoice fields of one page, in the shape the bundled engine attaches to `Extraction.fields`:
 * `invoice` = the plain field shape of this page (`<stem>.fields.json` reads the whole document: documentInvoiceFields),
 * `invoiceSources` = for each found field the text it was read from, its label, the boxes of its words (so the UI can
 * draw them), its confidence from the evidence for it and its source (always 'page' here; see app/invoice/fieldShape.ts
 * for the document-level shape that also carries the e-invoice's values). Absent when the page names no invoice field at all (a paper, a letter).
 */
import type { Box, Word } from '../../app/model/extraction.js';
import { extractInvoiceFields, invoiceFieldKeys, scoreInvoiceFields, settlementFieldKeys, toPlainFields, type FieldSource as ValueSource, type InvoiceFields, type PlainInvoiceFields } from '../../app/invoice/index.js';

export interface FieldSource {
  text: string;
  label: string | null;
  boxes: Box[];
  /** In [0, 1], from the label and the invoice's arithmetic (fieldConfidence.ts); absent in readings stored before. */
  confidence?: number;
  source?: ValueSource;
}

export interface PageInvoiceFields {
  invoice: PlainInvoiceFields;
  invoiceSources: Record<string, FieldSource | FieldSource[]>;
}


/** Confidence of a VAT breakdown row whose tax is (or is not) base × rate to the cent. */
const CONSISTENT_ROW = 0.9;
const INCONSISTENT_ROW = 0.5;
const rowConsistent = (row: { rate: number | null; base: number | null; amount: number | null }): boolean =>
  row.rate !== null && row.base !== null && row.amount !== null && Math.abs(Math.round(row.base * row.rate) - Math.round(row.amount * 100)) <= 1;

export function pageInvoiceFields(words: readonly Word[], markdown: string): PageInvoiceFields | undefined {
  if (words.length === 0 && !markdown.trim()) return undefined;
  const fields: InvoiceFields = extractInvoiceFields({ words, markdown });
  // Only labelled evidence makes a page an invoice page: unlabelled guesses (a first date, a letterhead) alone do not,
  // nor do party labels alone ("From:" and "To:" head letters and mails as much as invoices).
  const labelled = invoiceFieldKeys.some((key) => key !== 'seller' && key !== 'buyer' && fields[key]?.label) || fields.lines.length > 0;
  if (!labelled) return undefined;
  const invoiceSources: PageInvoiceFields['invoiceSources'] = {};
  const scores = scoreInvoiceFields(fields, markdown || words.map((w) => w.text).join(' '));
  for (const key of invoiceFieldKeys) {
    const field = fields[key];
    if (field) invoiceSources[key] = { text: field.text, label: field.label, boxes: field.words.map((w) => w.box), confidence: scores[key]?.confidence ?? 0, source: 'page' };
  }
  // The totals block's other amounts: their confidence comes with them (app/invoice/settlementAmounts.ts).
  for (const key of settlementFieldKeys) {
    const field = fields[key];
    if (field) invoiceSources[key] = { text: field.text, label: field.label, boxes: field.words.map((w) => w.box), confidence: field.confidence, source: 'page' };
  }
  if (fields.tax_breakdown.length) {
    // A row whose tax is its base × rate (BR-CO-17) was read consistently; one that is not may hold a misread amount.
    invoiceSources.tax_breakdown = fields.tax_breakdown.map((row) => ({
      text: row.text,
      label: null,
      boxes: row.words.map((w) => w.box),
      confidence: rowConsistent(row) ? CONSISTENT_ROW : INCONSISTENT_ROW,
      source: 'page',
    }));
  }
  if (fields.lines.length) {
    invoiceSources.lines = fields.lines.map((line) => ({ text: line.description, label: null, boxes: line.words.map((w) => w.box) }));
  }
  return { invoice: toPlainFields(fields), invoiceSources };
}
