/**
 * Supplier memory through the contract, on real e-invoice pages (einvoice-corpus, a development family): the analyst
 * corrects one invoice of a supplier; the next invoice of that supplier read into the project says `supplier memory`
 * and which page taught it; undoing the correction takes the lesson back; a merge carries it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DocumentSummary } from '../../app/model/page.js';
import { okDispatch, sameSupplierPdfs, sessionIn } from '../../testing/realInvoiceProject.js';

const { folder: pdfs, first: firstPdf, next: nextPdf, available } = sameSupplierPdfs;

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-supplier-learning-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('supplier memory through the contract', () => {
  it('learns from a correction, reads the next invoice through memory, and undo takes it back', async () => {
    if (!available) {
      console.log(`SKIPPED: ${pdfs} is absent`);
      return;
    }
    const session = sessionIn(dir);
    const ok = okDispatch(session);
    try {
      await ok('project.create', { path: path.join(dir, 'p.recto') });
      await ok('documents.importPaths', { paths: [firstPdf] });
      await session.queue.idle();
      const [first] = await ok<DocumentSummary[]>('documents.list', {});
      const firstPage = first!.pages[0]!.id;
      await ok('fields.save', { pageId: firstPage, field: 'seller', value: 'Global Supplies Ltd.' });
      const suppliers = await ok<{ id: string; name: string; pages: { pageId: string }[]; fields: string[] }[]>('suppliers.list', {});
      expect(suppliers).toHaveLength(1);
      expect(suppliers[0]).toMatchObject({ name: 'Global Supplies Ltd.', pages: [{ pageId: firstPage }] });
      expect(suppliers[0]!.fields).toContain('total');

      await ok('documents.importPaths', { paths: [nextPdf] });
      await session.queue.idle();
      const next = (await ok<DocumentSummary[]>('documents.list', {})).find((d) => d.id !== first!.id)!;
      const fields = session.store.readings.latestExtractionOrNull(next.pages[0]!.id)?.fields as Record<string, Record<string, Record<string, unknown>>>;
      expect(fields.invoiceSources!.seller).toMatchObject({ source: 'supplier memory', taughtBy: firstPage });
      expect(fields.invoice!.seller).toBe('Global Supplies Ltd.');
      expect(fields.supplierMemory).toMatchObject({ supplierId: suppliers[0]!.id, taughtBy: firstPage });

      // A merge into an empty project carries what the correction taught.
      const merged = path.join(dir, 'merged.recto');
      const copy = path.join(dir, 'copy.recto');
      session.store.copyTo(copy);
      await ok('project.create', { path: merged });
      await ok('project.merge', { path: copy });
      expect((await ok<unknown[]>('suppliers.list', {})).length).toBe(1);

      await ok('project.open', { path: path.join(dir, 'p.recto') });
      await ok('fields.undo', { pageId: firstPage });
      expect(await ok('suppliers.list', {})).toEqual([]);
    } finally {
      await session.dispose();
    }
  }, 120_000);
});
