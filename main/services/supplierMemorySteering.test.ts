/**
 * Supplier memory the analyst can see and steer (issue 39), through the contract on real e-invoice pages
 * (einvoice-corpus, a development family): a value read through memory names the invoice that taught it; approving
 * the invoice read through memory confirms memory's values (its track record counts them) but not a bank account
 * approved over a bank-account exception; Forget is undone exactly, once, and only in the project it was made in.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DocumentSummary } from '../../app/model/page.js';
import type { DocumentFieldsReply } from '../../app/contract/fields.js';
import type { SupplierSummaryWire } from '../../app/contract/suppliers.js';
import { contractOf, okDispatch, sameSupplierPdfs, sessionIn } from '../../testing/realInvoiceProject.js';

const { folder: pdfs, first: firstPdf, next: nextPdf, available } = sameSupplierPdfs;

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-memory-steering-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('supplier memory the analyst sees and steers', () => {
  it('names the teaching invoice, counts an approval as confirmation (not of a new account), and undoes a forget exactly', async () => {
    if (!available) {
      console.log(`SKIPPED: ${pdfs} is absent`);
      return;
    }
    const session = sessionIn(dir);
    const dispatch = contractOf(session);
    const ok = okDispatch(session);
    try {
      await ok('project.create', { path: path.join(dir, 'p.recto') });
      await ok('documents.importPaths', { paths: [firstPdf] });
      await session.queue.idle();
      const [first] = await ok<DocumentSummary[]>('documents.list', {});
      const firstPage = first!.pages[0]!.id;
      await ok('fields.save', { pageId: firstPage, field: 'seller', value: 'Global Supplies Ltd.' });
      await ok('documents.importPaths', { paths: [nextPdf] });
      await session.queue.idle();
      const next = (await ok<DocumentSummary[]>('documents.list', {})).find((d) => d.id !== first!.id)!;
      const nextPage = next.pages[0]!.id;

      // Each value memory read says so, with the supplier and the invoice that taught it.
      const view = await ok<DocumentFieldsReply>('fields.document', { pageId: nextPage });
      const fromMemory = Object.entries(view.engine!.sources).filter(([, source]) => source.memory);
      expect(fromMemory.map(([field]) => field)).toContain('seller');
      for (const [, source] of fromMemory) {
        expect(source.memory).toEqual({ supplier: 'Global Supplies Ltd.', taughtBy: firstPage, taughtByDocument: path.basename(firstPdf) });
      }
      // The engine's own readings of the first invoice name no teacher.
      const own = await ok<DocumentFieldsReply>('fields.document', { pageId: firstPage });
      expect(Object.values(own.engine!.sources).filter((s) => s.memory)).toEqual([]);

      const supplierOf = async () => (await ok<SupplierSummaryWire[]>('suppliers.list', {})).find((s) => s.name === 'Global Supplies Ltd.')!;
      const before = await supplierOf();
      expect(before.kept + before.corrected).toBe(0); // "none checked yet"
      expect(before.unconfirmedIbans!.length).toBeGreaterThan(0);

      // One page of the invoice approved alone confirms nothing: the invoice is not approved yet.
      expect(next.pages.length).toBeGreaterThan(1);
      const lastPage = next.pages.at(-1)!.id;
      const pageOnly = await ok<{ scope: string }>('approval.approve', { pageId: lastPage, scope: 'page', reason: 'this page checked' });
      expect(pageOnly.scope).toBe('page');
      expect(await supplierOf()).toEqual(before);

      // Approving the invoice (from its last page) read through memory: its account is known only from memory, so the
      // approval is over a bank-account exception and needs a reason.
      const approval = await ok<{ outcome: string; exceptions: { kind: string }[] }>('approval.approve', { pageId: lastPage, scope: 'unit', reason: 'checked against the contract' });
      expect(approval.outcome).toBe('approved-with-exceptions');
      expect(approval.exceptions.map((e) => e.kind)).toContain('bank-account');
      const after = await supplierOf();
      expect(after.pages.map((p) => p.pageId).sort()).toEqual([firstPage, nextPage].sort());
      expect(after.kept).toBeGreaterThanOrEqual(fromMemory.length); // each value memory read, confirmed as it stood
      expect(after.corrected).toBe(0);
      // ... but not the account: only the Suppliers view's Confirm (or an approval not over the exception) does.
      expect(after.unconfirmedIbans).toEqual(before.unconfirmedIbans);

      // Forget, then undo: exactly what was forgotten comes back, once.
      const all = await ok<SupplierSummaryWire[]>('suppliers.list', {});
      const { undo } = await ok<{ undo: string }>('suppliers.forget', { id: after.id });
      expect((await ok<SupplierSummaryWire[]>('suppliers.list', {})).find((s) => s.id === after.id)).toBeUndefined();
      expect(await ok('suppliers.undoForget', { undo })).toEqual({ ok: true, restored: 2 });
      expect(await ok<SupplierSummaryWire[]>('suppliers.list', {})).toEqual(all);
      const again = await dispatch('suppliers.undoForget', { undo });
      expect(again).toMatchObject({ ok: false, error: { code: 'not-found' } });

      // An undo never applies to another project opened since.
      const { undo: elsewhere } = await ok<{ undo: string }>('suppliers.forget', { id: after.id });
      await ok('project.create', { path: path.join(dir, 'other.recto') });
      expect(await dispatch('suppliers.undoForget', { undo: elsewhere })).toMatchObject({ ok: false, error: { code: 'not-found' } });
    } finally {
      await session.dispose();
    }
  }, 180_000);
});
