/**
 * Invoice fields in the corpus, as the analyst reviewed them: a document's fields are its pages' readings merged
 * (app/invoice/review/documentView.ts: each field from the first page that has it, the line items of all pages in
 * order) with the analyst's field corrections applied. Each record of records.jsonl carries its document's fields as
 * `fields` (corrected) and `fields_engine` (as read), null where no page of the document is an invoice page and nobody
 * corrected a field. `fields.jsonl` has one line per exported document: the `<stem>.fields.json` shape of `recto ocr`
 * with `amount_due`, corrected, and `document_id`.
 */
import { applyFieldCorrections, readFieldValues, type EngineFieldValues } from '../../app/invoice/review/index.js';
import type { ProjectStore } from '../store/projectStore.js';
import { correctionsOf } from '../store/fieldRevisions.js';
import { z } from 'zod';
import { fieldValuesSchema } from '../../app/contract/fields.js';
import type { PageFields } from './corpusRecord.js';

/** A fields.jsonl line: the document's corrected fields and its id (written by this schema: schemaJsonl.ts). */
export const fieldsLineSchema = fieldValuesSchema.extend({ document_id: z.string() });

/** The fields of the page's document (every page of a document carries the same). */
export function pageFieldsOf(store: ProjectStore, pageId: string): PageFields {
  const revisions = store.fieldRevisions.list(pageId);
  const engine = store.fieldRevisions.documentEngine(pageId)?.values ?? null;
  if (!engine && revisions.length === 0) return { fields_engine: null, fields: null };
  return { fields_engine: engine, fields: applyFieldCorrections(engine ?? readFieldValues({}), correctionsOf(revisions)) };
}

/**
 * The fields of each document, worked out once per document for an export: every page of a document carries the
 * same, and working them out reads the latest extraction of every page of the document — per page, that made an
 * export quadratic in the pages of a document (1,000 pages of 50-page documents: 50,000 extraction reads). A failure
 * (a damaged row) is remembered too, so every page of that document is reported as before.
 */
export class DocumentFieldsCache {
  private readonly byDocument = new Map<string, PageFields | Error>();

  constructor(private readonly store: ProjectStore) {}

  ofPage(documentId: string, pageId: string): PageFields {
    let known = this.byDocument.get(documentId);
    if (known === undefined) {
      try {
        known = pageFieldsOf(this.store, pageId);
      } catch (error) {
        known = error instanceof Error ? error : new Error(String(error));
      }
      this.byDocument.set(documentId, known);
    }
    if (known instanceof Error) throw known;
    return known;
  }

  /** One fields.jsonl line's object for a document, or null when it has no invoice fields and no corrections. */
  lineOf(documentId: string): (EngineFieldValues & { document_id: string }) | null {
    const first = this.store.documents.getDocument(documentId).pages[0];
    if (!first) return null;
    const { fields } = this.ofPage(documentId, first.id);
    return fields ? { ...fields, document_id: documentId } : null;
  }
}

