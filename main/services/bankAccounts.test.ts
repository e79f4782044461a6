/**
 * Bank-account changes are exceptions (issue 37): a known supplier's new IBAN, BIC or VAT ID is named with the old
 * one; approving over it needs a reason and does not make it known; only a confirmation (the Suppliers view) does; an
 * approval brought by a merge never does.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mergeProjectInto } from '../corpus/mergeProjects.js';
import { ProjectStore } from '../store/projectStore.js';
import { addReadDocument, invoiceReading } from '../../testing/invoiceReadings.js';
import { approvalCheck, approve } from './approval.js';
import { supplierKey } from './bankAccounts.js';

const OLD_IBAN = 'DE89370400440532013000';
const NEW_IBAN = 'GB82WEST12345698765432';
const VAT = 'DE123456789';
const base = { issue_date: '2024-01-02', due_date: null, seller: 'Muster GmbH', buyer: 'Beispiel AG', currency: 'EUR', subtotal: 10, tax: 1.9, total: 11.9, lines: [{ description: 'Work', quantity: 1, unit_price: 10, amount: 10 }] };

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-bank-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** An invoice of the supplier with its VAT ID and IBAN as corrected payment fields. */
function invoice(store: ProjectStore, name: string, number: string, payment: { iban?: string; vat?: string; seller?: string }): string {
  const { pageId } = addReadDocument(store, name, invoiceReading({ ...base, invoice_number: number, seller: payment.seller ?? base.seller }), createHash('sha256').update(name).digest('hex'));
  if (payment.vat) store.fieldRevisions.save(pageId, 'payment.seller_vat_id', payment.vat, 'Ada');
  if (payment.iban) store.fieldRevisions.save(pageId, 'payment.iban', payment.iban, 'Ada');
  return pageId;
}

const bankExceptions = (store: ProjectStore, pageId: string) => approvalCheck(store, pageId, 'document').exceptions.filter((e) => e.kind === 'bank-account').map((e) => e.detail);

describe('bank-account changes', () => {
  it("a known supplier's new IBAN is an exception naming the old and the new; an approval over it does not make it known; a confirmation does", () => {
    const store = ProjectStore.create(path.join(dir, 'p.recto'));
    const first = invoice(store, 'first.pdf', 'R-1', { iban: OLD_IBAN, vat: VAT });
    expect(bankExceptions(store, first)).toEqual([]); // a supplier seen for the first time
    expect(approve(store, { pageId: first, scope: 'document', reviewer: 'Ada' }).outcome).toBe('approved');

    const second = invoice(store, 'second.pdf', 'R-2', { iban: NEW_IBAN, vat: VAT });
    expect(bankExceptions(store, second)).toEqual([`IBAN changed: Muster GmbH was paid to ${OLD_IBAN} (approved first.pdf); this invoice names ${NEW_IBAN}`]);
    expect(approve(store, { pageId: second, scope: 'document', reviewer: 'Ada' }).outcome).toBe('needs-reason');
    expect(store.documents.getPage(second).reviewStatus).toBe('unreviewed');
    expect(approve(store, { pageId: second, scope: 'document', reviewer: 'Ada', reason: 'Supplier letter of 2 Jan' }).outcome).toBe('approved-with-exceptions');

    // The approval over the exception is not a confirmation: the next invoice to the new account is still one.
    const third = invoice(store, 'third.pdf', 'R-3', { iban: NEW_IBAN, vat: VAT });
    expect(bankExceptions(store, third)).toEqual([expect.stringContaining(`this invoice names ${NEW_IBAN}`)]);
    store.confirmedAccounts.confirm(supplierKey(VAT, 'Muster GmbH')!, 'iban', NEW_IBAN, 'Ada');
    expect(bankExceptions(store, third)).toEqual([]);
    // Paying to the old account again after a confirmed change is fine too: both are known.
    expect(bankExceptions(store, invoice(store, 'fourth.pdf', 'R-4', { iban: OLD_IBAN, vat: VAT }))).toEqual([]);
    store.close();
  });

  it('a changed seller VAT ID under the same name is an exception', () => {
    const store = ProjectStore.create(path.join(dir, 'p.recto'));
    approve(store, { pageId: invoice(store, 'first.pdf', 'R-1', { iban: OLD_IBAN, vat: VAT }), scope: 'document', reviewer: 'Ada' });
    const other = invoice(store, 'second.pdf', 'R-2', { iban: OLD_IBAN, vat: 'DE987654321' });
    expect(bankExceptions(store, other)).toEqual([`seller VAT ID changed: Muster GmbH was approved with ${VAT}; this invoice names DE987654321`]);
    store.close();
  });

  it('an approval brought by a merge does not make an account known', () => {
    const store = ProjectStore.create(path.join(dir, 'p.recto'));
    approve(store, { pageId: invoice(store, 'first.pdf', 'R-1', { iban: OLD_IBAN, vat: VAT }), scope: 'document', reviewer: 'Ada' });
    const otherFile = path.join(dir, 'other.recto');
    const other = ProjectStore.create(otherFile);
    approve(other, { pageId: invoice(other, 'theirs.pdf', 'T-1', { iban: NEW_IBAN, vat: VAT }), scope: 'document', reviewer: 'alice', reason: 'trust me' });
    other.close();
    mergeProjectInto(store, otherFile);
    const next = invoice(store, 'next.pdf', 'R-2', { iban: NEW_IBAN, vat: VAT });
    expect(bankExceptions(store, next)).toEqual([`IBAN changed: Muster GmbH was paid to ${OLD_IBAN} (approved first.pdf); this invoice names ${NEW_IBAN}`]);
    store.close();
  });
});
