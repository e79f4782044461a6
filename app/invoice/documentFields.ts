/**
 * One document's invoice fields, read over all its pages at once: the pages' words stacked page under page (or their
 * Markdown joined, where a page has no words) go through the same extractor as a single page. Reading the document
 * as a whole lets a rule use evidence from several pages — the line items of page 1 with the total on page 2 — and
 * keeps `<stem>.fields.json` equal to what the invoice benchmark scores.
 * A document none of whose pages the engine took for an invoice page (no `fields.invoice`) has no fields: all null.
 */
import type { Extraction, Word } from '../model/extraction.js';
import { extractInvoiceFields, toPlainFields, type InvoiceFields, type PlainInvoiceFields } from './extractFields.js';
import { coreFieldKeys, type CoreValues } from './fieldCatalogue.js';
import { emptyReadingFields, type InvoiceReading } from './fieldShape.js';
import { pageReading } from './pageReading.js';

/** Every field absent: null, no line items. */
export function emptyInvoiceFields(): PlainInvoiceFields {
  const fields: Record<string, null> = {};
  for (const key of coreFieldKeys) fields[key] = null;
  return { ...(fields as CoreValues), lines: [] };
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

type DocumentPage = Pick<Extraction, 'words' | 'page' | 'markdown' | 'fields'>;

/** The document's fields read over all its pages; null when no page was taken for an invoice page. */
function readDocument(pages: readonly DocumentPage[]): { fields: InvoiceFields; stacked: boolean } | null {
  if (!pages.some((page) => page.fields?.invoice)) return null;
  const allHaveWords = pages.every((page) => (page.words?.length ?? 0) > 0 || !page.markdown.trim());
  return allHaveWords
    ? { fields: extractInvoiceFields({ words: stackPageWords(pages) }), stacked: true }
    : { fields: extractInvoiceFields({ markdown: pages.map((page) => page.markdown).join('\n\n') }), stacked: false };
}

/** The document's rich reading and its text (what fieldConfidence.ts scores it against); null as readDocument. */
export function documentExtraction(pages: readonly DocumentPage[]): { fields: InvoiceFields; text: string } | null {
  const read = readDocument(pages);
  return read ? { fields: read.fields, text: pages.map((page) => page.markdown).join('\n') } : null;
}

/** `pages` in page order (failed pages left out). */
export function documentInvoiceFields(pages: readonly DocumentPage[]): PlainInvoiceFields {
  const read = readDocument(pages);
  return read ? toPlainFields(read.fields) : emptyInvoiceFields();
}

/** The same reading in the review screen's shape: values with confidence, evidence and their place on each page. */
export function documentInvoiceReading(pages: readonly DocumentPage[]): InvoiceReading {
  const read = readDocument(pages);
  if (!read) return { source: 'page', fields: emptyReadingFields(), lines: [], einvoice: null, pageVsXml: null };
  const text = pages.map((page) => page.markdown).join('\n');
  // Boxes of a Markdown-only reading are synthetic (one line per row): no place on the page to show.
  const located = read.stacked ? pages.map((page) => ({ height: page.page.height, markdown: page.markdown })) : [];
  const reading = pageReading(read.fields, text, located.length ? located : undefined);
  if (!read.stacked) {
    for (const field of Object.values(reading.fields)) if (field) field.location = null;
    for (const line of reading.lines) line.location = null;
  }
  return reading;
}
