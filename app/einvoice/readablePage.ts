/**
 * An XML-only e-invoice laid out as a readable page: what its fields, parties and lines say, in the order a printed
 * invoice has them (letterhead, buyer's address, invoice data, item table, totals, notes). Pure: rows of cells with
 * their column (x in page units); main/import/einvoicePage.ts draws them into a PNG with a text layer, so the
 * document enters the same page model as a PDF (an image to show beside the text, words with boxes to read), and the
 * analyst reviews an XML-only invoice in the same screen.
 *
 * Labels are written in English with the field lexicon's own words ("Invoice number:", "Bill to:", "Total:"), so
 * reading the generated page gives back the XML's fields — which the comparison then confirms.
 */
import type { EInvoice } from './einvoice.js';

export interface PageCell {
  text: string;
  /** Left edge, as a share of the page's text width (0..1); right-aligned cells give their right edge. */
  x: number;
  align?: 'left' | 'right';
  bold?: boolean;
}

export interface PageRow {
  cells: PageCell[];
  /** Extra space above the row, in rows. */
  gapBefore?: number;
  /** Heading rows are set larger. */
  heading?: boolean;
}

const money = (value: number | null, currency: string | null): string =>
  value === null ? '' : `${value.toFixed(2)}${currency ? ` ${currency}` : ''}`;

const quantity = (value: number | null, unit: string | null): string => (value === null ? '' : `${value}${unit ? ` ${unit}` : ''}`);

/** Item table columns: description, quantity, unit price, amount (amounts right-aligned to their column's end). */
const COLUMNS = { description: 0, quantity: 0.52, unitPrice: 0.8, amount: 1 };

export function readablePageRows(invoice: EInvoice): PageRow[] {
  const f = invoice.fields;
  const currency = f.currency?.value ?? null;
  const rows: PageRow[] = [];
  const row = (cells: PageCell[], extra: Omit<PageRow, 'cells'> = {}): void => void rows.push({ cells: cells.filter((c) => c.text !== ''), ...extra });

  // Letterhead: the seller, labelled (a generated page need not leave the reader to guess).
  row([{ text: 'Seller:', x: 0, bold: true }, { text: invoice.seller.name ?? '', x: 0.15, bold: true }], { heading: true });
  for (const line of invoice.seller.address) row([{ text: line, x: 0 }]);
  if (invoice.seller.vatId) row([{ text: `VAT ID: ${invoice.seller.vatId}`, x: 0 }]);

  // Address window: the buyer.
  row([{ text: 'Bill to:', x: 0, bold: true }], { gapBefore: 1 });
  row([{ text: invoice.buyer.name ?? '', x: 0 }]);
  for (const line of invoice.buyer.address) row([{ text: line, x: 0 }]);
  if (invoice.buyer.vatId) row([{ text: `VAT ID: ${invoice.buyer.vatId}`, x: 0 }]);

  const title = invoice.info.typeCode === '381' ? 'Credit note' : 'Invoice';
  row([{ text: `${title} (${invoice.info.typeCode ?? '—'})`, x: 0, bold: true }], { gapBefore: 1, heading: true });
  const data: [string, string | null][] = [
    ['Invoice number:', f.invoice_number?.value ?? null],
    ['Invoice date:', f.issue_date?.value ?? null],
    ['Due date:', f.due_date?.value ?? null],
    ['Currency:', currency],
    ['E-invoice:', [invoice.info.flavour, invoice.info.profile].filter(Boolean).join(', ')],
  ];
  for (const [label, value] of data) if (value) row([{ text: label, x: 0 }, { text: value, x: 0.3 }]);

  row(
    [
      { text: 'Description', x: COLUMNS.description, bold: true },
      { text: 'Quantity', x: COLUMNS.quantity, bold: true },
      { text: 'Unit price', x: COLUMNS.unitPrice, align: 'right', bold: true },
      { text: 'Amount', x: COLUMNS.amount, align: 'right', bold: true },
    ],
    { gapBefore: 1 },
  );
  for (const line of invoice.lines) {
    row([
      { text: line.description || '—', x: COLUMNS.description },
      { text: quantity(line.quantity, line.unitCode), x: COLUMNS.quantity },
      { text: line.unit_price === null ? '' : line.unit_price.toFixed(2), x: COLUMNS.unitPrice, align: 'right' },
      { text: money(line.amount, currency), x: COLUMNS.amount, align: 'right' },
    ]);
  }

  const totals: [string, number | null][] = [
    ['Subtotal:', f.subtotal?.value ?? null],
    ['Tax amount:', f.tax?.value ?? null],
    ['Total:', f.total?.value ?? null],
  ];
  if (f.amount_due && f.total && Math.abs(f.amount_due.value - f.total.value) >= 0.005) totals.push(['Amount paid before:', f.total.value - f.amount_due.value]);
  totals.forEach(([label, value], i) => {
    if (value !== null) row([{ text: label, x: 0.55 }, { text: money(value, currency), x: 1, align: 'right' }], i === 0 ? { gapBefore: 1 } : {});
  });
  for (const tax of invoice.taxes) {
    if (tax.rate === null) continue;
    row([{ text: `VAT ${tax.category ?? ''} ${tax.rate} % on ${money(tax.basis, currency)}`, x: 0.55 }, { text: money(tax.amount, currency), x: 1, align: 'right' }]);
  }
  const notes = [...invoice.payment, ...invoice.notes];
  if (notes.length) row([{ text: 'Notes', x: 0, bold: true }], { gapBefore: 1 });
  for (const note of notes) for (const line of note.split(/\r?\n/).map((l) => l.trim()).filter(Boolean)) row([{ text: line, x: 0 }]);
  return rows;
}

/** The same page as Markdown (for `recto ocr` and for tests). */
export function readablePageMarkdown(invoice: EInvoice): string {
  return readablePageRows(invoice)
    .map((r) => r.cells.map((c) => c.text).join('  '))
    .join('\n');
}
