/**
 * An account known only from supplier memory is unconfirmed (issue 37), on real e-invoice pages (einvoice-corpus, a
 * development family): memory learns a supplier's IBAN from a corrected invoice nobody approved; the Suppliers view
 * lists it as unconfirmed; the next invoice of that supplier paying to it is a bank-account exception until the
 * analyst confirms the account there.
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
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-unconfirmed-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('accounts known only from supplier memory', () => {
  it('are listed unconfirmed, make an invoice paying to them an exception, and stop being one once confirmed', async () => {
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
      await ok('fields.save', { pageId: first!.pages[0]!.id, field: 'seller', value: 'Global Supplies Ltd.' });
      const [supplier] = await ok<{ id: string; ibans: string[]; unconfirmedIbans: string[] }[]>('suppliers.list', {});
      expect(supplier!.ibans.length).toBeGreaterThan(0);
      expect(supplier!.unconfirmedIbans).toEqual(supplier!.ibans);

      await ok('documents.importPaths', { paths: [nextPdf] });
      await session.queue.idle();
      const next = (await ok<DocumentSummary[]>('documents.list', {})).find((d) => d.id !== first!.id)!;
      const check = await ok<{ exceptions: { kind: string; detail: string }[] }>('approval.check', { pageId: next.pages[0]!.id, scope: 'unit' });
      const bank = check.exceptions.filter((e) => e.kind === 'bank-account');
      expect(bank).toEqual([{ kind: 'bank-account', detail: expect.stringMatching(/known only from supplier memory|supplier memory holds/), pageNumber: 1 }]);

      for (const iban of supplier!.ibans) await ok('suppliers.confirmAccount', { id: supplier!.id, kind: 'iban', value: iban });
      expect((await ok<{ unconfirmedIbans: string[] }[]>('suppliers.list', {}))[0]!.unconfirmedIbans).toEqual([]);
      const after = await ok<{ exceptions: { kind: string; detail: string }[] }>('approval.check', { pageId: next.pages[0]!.id, scope: 'unit' });
      expect(after.exceptions.filter((e) => e.kind === 'bank-account' && /supplier memory/.test(e.detail))).toEqual([]);
    } finally {
      await session.dispose();
    }
  });
});
