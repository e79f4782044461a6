/**
 * Invoice fields in the corpus. Each record of records.jsonl carries `fields_engine` (what the engine read on the
 * page) and `fields` (the same with the analyst's field corrections applied), both null on a page the engine did not
 * take for an invoice page and nobody corrected. `fields.jsonl` has one line per exported document: the
 * `<stem>.fields.json` shape of `recto ocr` (the document read as a whole, documentFields.ts) with `amount_due`,
 * the corrections of its pages applied, and `document_id`.
 *
 * A multi-page document's corrections: a corrected scalar field takes the latest correction on any of its pages;
 * where any page's line items were corrected, the document's lines are its pages' corrected lines in page order.
 */
import { documentInvoiceFields } from '../../app/invoice/documentFields.js';
import {
  applyFieldCorrections,
  isScalarKey,
  readEngineFields,
  readFieldValues,
  type EngineFieldValues,
} from '../../app/invoice/review/index.js';
import type { FieldRevision } from '../../app/contract/fields.js';
import type { Extraction } from '../../app/model/extraction.js';
import type { ProjectStore } from '../store/projectStore.js';
import { correctionsOf } from '../store/fieldRevisions.js';
import type { PageFields } from './corpusRecord.js';

export function pageFieldsOf(store: ProjectStore, pageId: string): PageFields {
  const revisions = store.fieldRevisions.list(pageId);
  const engine = readEngineFields(store.latestExtractionOrNull(pageId))?.values ?? null;
  if (!engine && revisions.length === 0) return { fields_engine: null, fields: null };
  const base = engine ?? readFieldValues({});
  return { fields_engine: engine, fields: applyFieldCorrections(base, correctionsOf(revisions)) };
}

/** One fields.jsonl line's object for a document, or null when it has no invoice fields and no corrections. */
export function documentFieldsOf(store: ProjectStore, documentId: string): (EngineFieldValues & { document_id: string }) | null {
  const pages = store.getDocument(documentId).pages;
  const extractions = pages.map((page) => store.latestExtractionOrNull(page.id)).filter((x): x is Extraction => x !== null);
  const revisionsByPage = pages.map((page) => store.fieldRevisions.list(page.id));
  const all: FieldRevision[] = revisionsByPage.flat().sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  const isInvoice = extractions.some((x) => (x.fields as { invoice?: unknown } | undefined)?.invoice);
  if (!isInvoice && all.length === 0) return null;
  const documentEngine = readFieldValues({ ...documentInvoiceFields(extractions), amount_due: firstAmountDue(extractions) });
  const scalarCorrections = correctionsOf(all.filter((r) => isScalarKey(r.field)));
  const corrected = applyFieldCorrections(documentEngine, scalarCorrections);
  if (all.some((r) => !isScalarKey(r.field))) {
    corrected.lines = pages.flatMap((page, i) => {
      const engine = readEngineFields(store.latestExtractionOrNull(page.id))?.values ?? readFieldValues({});
      return applyFieldCorrections(engine, correctionsOf(revisionsByPage[i]!)).lines;
    });
  }
  return { ...corrected, document_id: documentId };
}

/** The amount due of the first page that has one (today's document reader has none of its own). */
function firstAmountDue(extractions: readonly Extraction[]): number | null {
  for (const extraction of extractions) {
    const due = readEngineFields(extraction)?.values.amount_due;
    if (due !== null && due !== undefined) return due;
  }
  return null;
}
