/**
 * One document's invoice fields, read over all its pages at once: the pages' words stacked page under page (or their
 * Markdown joined, where a page has no words) go through the same extractor as a single page. Reading the document
 * as a whole lets a rule use evidence from several pages — the line items of page 1 with the total on page 2 — and
 * keeps `<stem>.fields.json` equal to what the invoice benchmark scores.
 * A document none of whose pages the engine took for an invoice page (no `fields.invoice`) has no fields: all null.
 */
import type { Extraction, Word } from '../model/extraction.js';
import { extractInvoiceFields, toPlainFields, type PlainInvoiceFields } from './extractFields.js';

/** Every field absent: null, no line items. */
export function emptyInvoiceFields(): PlainInvoiceFields {
  return {
    invoice_number: null,
    issue_date: null,
    due_date: null,
    seller: null,
    buyer: null,
    currency: null,
    subtotal: null,
    tax: null,
    total: null,
    lines: [],
  };
}

/** The pages' words in one coordinate space: each page's boxes moved down by the heights of the pages above it. */
export function stackPageWords(pages: readonly Pick<Extraction, 'words' | 'page'>[]): Word[] {
  const words: Word[] = [];
  let top = 0;
  for (const page of pages) {
    for (const w of page.words ?? []) words.push({ ...w, box: [w.box[0], w.box[1] + top, w.box[2], w.box[3] + top] });
    top += page.page.height;
  }
  return words;
}

/** `pages` in page order (failed pages left out). */
export function documentInvoiceFields(pages: readonly Pick<Extraction, 'words' | 'page' | 'markdown' | 'fields'>[]): PlainInvoiceFields {
  if (!pages.some((page) => page.fields?.invoice)) return emptyInvoiceFields();
  const allHaveWords = pages.every((page) => (page.words?.length ?? 0) > 0 || !page.markdown.trim());
  const fields = allHaveWords
    ? extractInvoiceFields({ words: stackPageWords(pages) })
    : extractInvoiceFields({ markdown: pages.map((page) => page.markdown).join('\n\n') });
  return toPlainFields(fields);
}
