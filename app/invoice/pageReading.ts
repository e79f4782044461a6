/**
 * A page reading (InvoiceFields from extractFields.ts) in the review screen's field shape (fieldShape.ts): each value
 * with its confidence (fieldConfidence.ts), its label, and where it is — the page it is on, the boxes of its words in
 * that page's pixels, and its span in that page's Markdown where the text is found there.
 *
 * The document reader stacks pages into one coordinate space (documentFields.ts: each page moved down by the heights
 * of the pages above); `pages` undoes that, so a box lands on its own page.
 */
import type { Box, Word } from '../model/extraction.js';
import { emptyReadingFields, invoiceFieldKeys, type FieldLocation, type InvoiceReading } from './fieldShape.js';
import { scoreInvoiceFields } from './fieldConfidence.js';
import type { InvoiceFields } from './extractFields.js';

export interface ReadingPage {
  /** Page height in the pixels its words' boxes use. */
  height: number;
  markdown?: string;
}

function locate(words: readonly Word[], text: string, pages: readonly ReadingPage[]): FieldLocation | null {
  if (words.length === 0) return null;
  let top = 0;
  let index = 0;
  const y = words[0]!.box[1];
  while (index < pages.length - 1 && y >= top + pages[index]!.height) top += pages[index++]!.height;
  const boxes: Box[] = words.map((w) => [w.box[0], w.box[1] - top, w.box[2], w.box[3] - top]);
  const markdown = pages[index]?.markdown ?? '';
  const at = text ? markdown.indexOf(text) : -1;
  return { page: index + 1, boxes, span: at >= 0 ? [at, at + text.length] : null };
}

/** `pageText`: the page's text (for printed tax rates); `pages`: the pages the words were stacked from (one by default). */
export function pageReading(fields: InvoiceFields, pageText: string, pages: readonly ReadingPage[] = [{ height: Number.POSITIVE_INFINITY }]): InvoiceReading {
  const scores = scoreInvoiceFields(fields, pageText);
  const reading = emptyReadingFields();
  for (const key of invoiceFieldKeys) {
    const field = fields[key];
    const score = scores[key];
    if (!field || !score) continue;
    reading[key] = {
      value: field.value,
      confidence: score.confidence,
      source: 'page',
      text: field.text,
      label: field.label,
      location: locate(field.words, field.text, pages),
      xmlPath: null,
      evidence: score.evidence,
    };
  }
  // A line is as trustworthy as the arithmetic around it: its own product, and the lines' sum against the subtotal.
  const linesAddUp = scores.subtotal?.evidence.includes('arithmetic:lines=subtotal:holds') ?? false;
  return {
    source: 'page',
    fields: reading,
    lines: fields.lines.map((line) => {
      const product = line.quantity !== null && line.unitPrice !== null && line.amount !== null && Math.abs(line.quantity * line.unitPrice - line.amount) <= Math.max(0.01, Math.abs(line.amount) * 0.005);
      return {
        description: line.description,
        quantity: line.quantity,
        unit_price: line.unitPrice,
        amount: line.amount,
        confidence: Math.min(0.98, 0.5 + (product ? 0.2 : 0) + (linesAddUp ? 0.25 : 0)),
        source: 'page' as const,
        location: locate(line.words, line.description, pages),
      };
    }),
    einvoice: null,
    pageVsXml: null,
  };
}
