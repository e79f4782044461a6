/** Invoice fields from an extraction's words or Markdown: pure functions, no I/O. */
export { extractInvoiceFields, toPlainFields, type ExtractOptions, type FieldValue, type InvoiceFields, type PlainInvoiceFields } from './extractFields.js';
export { parseAmount, findAmounts, type AmountMatch } from './amounts.js';
export { parseDate, findDates, type DateMatch } from './dates.js';
export { wordsToLines, wordsFromLayoutText, wordsFromMarkdown, type TextLine, type Segment } from './layout.js';
export type { InvoiceLineItem } from './lineItems.js';
export { documentInvoiceFields, documentInvoiceReading, emptyInvoiceFields, stackPageWords } from './documentFields.js';
export * from './fieldCatalogue.js';
export * from './fieldShape.js';
export { pageReading, type ReadingPage } from './pageReading.js';
export { scoreInvoiceFields, type FieldScore } from './fieldConfidence.js';
