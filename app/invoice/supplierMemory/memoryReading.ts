/**
 * One page read with the project's supplier memory: recognise the supplier, read through its best-fitting lesson,
 * cross-check with the generic reading. The one entry point the app (main/services), re-reads, `recto ocr --project`
 * and the field benchmark share.
 */
import type { Word } from '../../model/extraction.js';
import type { PlainInvoiceFields } from '../fieldValues.js';
import type { ConfirmedValues } from './learnLesson.js';
import type { SupplierTrackRecord } from './lessonSchema.js';
import { memoryPage } from './pageText.js';
import type { GenericScores } from './pageTrust.js';
import { readThroughMemory, type MemoryReading } from './readThroughMemory.js';
import type { SupplierIndex } from './recogniseSupplier.js';

export const confirmedOf = (plain: PlainInvoiceFields): ConfirmedValues => ({
  invoice_number: plain.invoice_number,
  issue_date: plain.issue_date,
  due_date: plain.due_date,
  seller: plain.seller,
  buyer: plain.buyer,
  currency: plain.currency,
  subtotal: plain.subtotal,
  tax: plain.tax,
  total: plain.total,
});

const NO_RECORD: SupplierTrackRecord = { kept: 0, corrected: 0 };

/**
 * Null where the project knows no supplier or the page is none of theirs. `scores`: the generic reading's confidence
 * and evidence per field (pageTrust.ts), which let a trustworthy page reading lead against memory.
 */
export function readWithMemory(words: readonly Word[], generic: PlainInvoiceFields, index: SupplierIndex, records: ReadonlyMap<string, SupplierTrackRecord>, scores?: GenericScores): MemoryReading | null {
  if (index.size === 0 || words.length === 0) return null;
  const page = memoryPage(words);
  const recognised = index.recognise(page);
  if (!recognised) return null;
  return readThroughMemory(page, recognised, confirmedOf(generic), records.get(recognised.supplierId) ?? NO_RECORD, scores, generic.document_type === 'receipt');
}
