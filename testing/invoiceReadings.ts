/**
 * Invoice pages as the store keeps them, for tests of what is built on a page's invoice fields (approval, duplicate
 * keys, field revisions in bundles, the fields export): an engine reading with given fields, and a one-page document
 * read that way.
 */
import type { Extraction } from '../app/model/extraction.js';
import type { ProjectStore } from '../main/store/projectStore.js';

/** A bundled-engine reading whose invoice fields are `invoice` as given (null: a page with no fields at all). */
export function invoiceReading(invoice: Record<string, unknown> | null, page: Pick<Extraction, 'markdown' | 'elements'> = { markdown: 'Invoice', elements: [] }): Extraction {
  return {
    markdown: page.markdown,
    elements: page.elements,
    page: { width: 100, height: 100 },
    engine: { id: 'bundled', name: 'Bundled', version: '1', packSha256: null, licence: null, provider: 'text-layer', settings: {} },
    stats: { durationMs: 1 },
    warnings: [],
    ...(invoice ? { fields: { invoice, invoiceSources: {} } } : {}),
  };
}

/**
 * Adds a one-page PDF named `name` (its bytes, and so its hash, from the name) and saves `reading` as the engine's
 * reading of its page.
 */
export function addReadDocument(store: ProjectStore, name: string, reading: Extraction, sha256 = Buffer.from(name).toString('hex').padEnd(64, '0').slice(0, 64)): { documentId: string; pageId: string } {
  const doc = store.documents.addDocument({ sha256, name, mediaType: 'application/pdf', bytes: Buffer.from(name), pages: [{ pageNumber: 1, width: 100, height: 100, dpi: 72, textLayer: null }] })!;
  store.readings.saveExtraction(doc.pages[0]!.id, reading, new Date());
  return { documentId: doc.id, pageId: doc.pages[0]!.id };
}
