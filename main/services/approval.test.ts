import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reviewedInvoiceOf } from '../corpus/invoicesExport/collectInvoices.js';
import { ProjectStore } from '../store/projectStore.js';
import { addReadDocument, invoiceReading } from '../../testing/invoiceReadings.js';
import { ApprovalNeedsReasonError, approvalCheck, approve, setReviewStatusBy, withDuplicateSignals } from './approval.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-approval-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A clean invoice; each test changes what it is about. */
const cleanInvoice = { invoice_number: 'R-1', issue_date: '2024-01-02', due_date: null, seller: 'Muster GmbH', buyer: 'Beispiel AG', currency: 'EUR', subtotal: 10, tax: 1.9, total: 11.9, lines: [{ description: 'Work', quantity: 1, unit_price: 10, amount: 10 }] };

function add(store: ProjectStore, name: string, invoice: Record<string, unknown>): string {
  return addReadDocument(store, name, invoiceReading({ ...cleanInvoice, ...invoice })).pageId;
}

describe('approve with exceptions', () => {
  it('approves a clean page at once, with its reviewer', () => {
    const store = ProjectStore.create(path.join(dir, 'p.recto'));
    const page = add(store, 'clean.pdf', {});
    expect(approve(store, { pageId: page, scope: 'page', reviewer: 'Ada' })).toEqual({ outcome: 'approved', exceptions: [], scope: 'page', pageNumbers: [1] });
    expect(store.documents.getPage(page).reviewStatus).toBe('approved');
    expect(store.reviewEvents.latest(page)).toMatchObject({ status: 'approved', reviewer: 'Ada', reason: null });
    store.close();
  });

  it('a receipt owes no buyer, invoice number or currency code: it approves without a reason; changed to an invoice, it needs one', () => {
    const store = ProjectStore.create(path.join(dir, 'p.recto'));
    const receipt = { invoice_number: null, buyer: null, currency: null, subtotal: null, tax: null, total: 10, lines: [{ description: 'Work', quantity: 1, unit_price: 10, amount: 10 }] };
    const page = add(store, 'receipt.jpg', { ...receipt, document_type: 'receipt' });
    expect(approvalCheck(store, page, 'page').exceptions).toEqual([]);
    const invoice = add(store, 'slip.jpg', { ...receipt, seller: 'Kedai Contoh', issue_date: '2024-03-04', total: 12, lines: [{ description: 'Tea', quantity: 1, unit_price: 12, amount: 12 }] });
    expect(approvalCheck(store, invoice, 'page').exceptions.map((e) => e.detail.slice(0, 5)).sort()).toEqual(['BR-02', 'BR-05', 'BR-07']);
    // The analyst's type: the slip is a receipt, the receipt an invoice.
    store.fieldRevisions.save(invoice, 'document_type', 'receipt', 'Ada');
    expect(approvalCheck(store, invoice, 'page').exceptions).toEqual([]);
    store.fieldRevisions.save(page, 'document_type', 'invoice', 'Ada');
    expect(approvalCheck(store, page, 'page').exceptions.length).toBe(3);
    expect(() => store.fieldRevisions.save(page, 'document_type', 'bill', 'Ada')).toThrow(/'invoice' or 'receipt'/);
    expect(approve(store, { pageId: invoice, scope: 'page', reviewer: 'Ada' }).outcome).toBe('approved');
    store.close();
  });

  it('never approves a failing page silently: without a reason nothing changes; with one it is approved with exceptions, who, when and why', () => {
    const store = ProjectStore.create(path.join(dir, 'p.recto'));
    const page = add(store, 'bad.pdf', { total: 99, invoice_number: null });
    const check = approvalCheck(store, page, 'document');
    expect(check.exceptions.map((e) => e.kind)).toEqual(expect.arrayContaining(['failed-rule', 'missing-field']));
    expect(approve(store, { pageId: page, scope: 'page', reviewer: 'Ada' }).outcome).toBe('needs-reason');
    expect(store.documents.getPage(page).reviewStatus).toBe('unreviewed');
    expect(() => setReviewStatusBy(store, page, 'approved', 'Ada')).toThrow(ApprovalNeedsReasonError);
    expect(approve(store, { pageId: page, scope: 'document', reason: 'Supplier confirmed by phone', reviewer: 'Ada' }).outcome).toBe('approved-with-exceptions');
    expect(store.reviewEvents.latest(page)).toMatchObject({ status: 'approved-with-exceptions', reviewer: 'Ada', reason: 'Supplier confirmed by phone' });
    const invoice = reviewedInvoiceOf(store, store.documents.getDocument(store.documents.getPage(page).documentId))!;
    expect(invoice).toMatchObject({ status: 'approved-with-exceptions', reviewer: 'Ada', exceptionReason: 'Supplier confirmed by phone' });
    expect(invoice.exceptions.some((e) => e.startsWith('missing-field: BR-02'))).toBe(true);
    store.close();
  });

  it('a payment field failing its check is a failing rule: a needs-attention signal and an exception on approve', () => {
    const store = ProjectStore.create(path.join(dir, 'p.recto'));
    const page = add(store, 'pay.pdf', {});
    expect(approvalCheck(store, page, 'page').exceptions).toEqual([]);
    store.fieldRevisions.save(page, 'payment.iban', 'DE89 3704 0044 0532 0130 01', 'Ada');
    store.fieldRevisions.save(page, 'payment.bic', 'COBA1', 'Ada');
    const signals = store.attention.list().find((item) => item.pageId === page)!.signals;
    expect(signals).toEqual(expect.arrayContaining([{ kind: 'failed-rule', detail: expect.stringMatching(/^IBAN: .*mod 97/) }, { kind: 'failed-rule', detail: expect.stringMatching(/^BIC: /) }]));
    expect(approvalCheck(store, page, 'page').exceptions.map((e) => e.detail)).toEqual([expect.stringMatching(/^IBAN: /), expect.stringMatching(/^BIC: /)]);
    expect(approve(store, { pageId: page, scope: 'page', reviewer: 'Ada' }).outcome).toBe('needs-reason');
    store.close();
  });

  it('a duplicate is an exception on approve and a needs-attention signal naming the other invoice', () => {
    const store = ProjectStore.create(path.join(dir, 'p.recto'));
    add(store, 'first.pdf', {});
    const second = add(store, 'second.pdf', {});
    const check = approvalCheck(store, second, 'page');
    expect(check.exceptions).toEqual([{ kind: 'duplicate', detail: expect.stringMatching(/^same supplier and invoice number as first\.pdf \[/), pageNumber: 1 }]);
    const items = withDuplicateSignals(store, [{ documentId: store.documents.getPage(second).documentId, pageNumber: 1, signals: [] as { kind: string; detail: string }[] }]);
    expect(items[0]!.signals.map((s) => s.kind)).toEqual(['duplicate']);
    store.close();
  });
});
