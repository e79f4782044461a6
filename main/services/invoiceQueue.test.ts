/**
 * The invoice queue's rows from the project (supplier, number, total, due date, status, exceptions, assignee) and the
 * bulk approval of clean invoices: each through the unit approval, each its own sealed approval; nothing that needs a
 * reason goes through.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProjectStore } from '../store/projectStore.js';
import { addReadDocument, invoiceReading } from '../../testing/invoiceReadings.js';
import { approveCleanInvoices, invoiceQueueRows } from './invoiceQueue.js';
import { invoiceQueueCounts, noInvoiceQueueFilter, visibleInvoiceQueue } from '../../app/invoices/invoiceQueue.js';

let dir: string;
let store: ProjectStore;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-invoice-queue-'));
  store = ProjectStore.create(path.join(dir, 'p.recto'));
});
afterEach(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const invoice = { invoice_number: 'R-1', issue_date: '2024-01-02', due_date: '2024-02-01', seller: 'Muster GmbH', buyer: 'Beispiel AG', currency: 'EUR', subtotal: 10, tax: 1.9, total: 11.9, lines: [{ description: 'Work', quantity: 1, unit_price: 10, amount: 10 }] };
/** A page read with its element box (a reading without any box is itself a signal: no-boxes). */
const page = { markdown: 'Invoice', elements: [{ id: 'e1', kind: 'text' as const, box: [0, 0, 10, 10] as [number, number, number, number], span: [0, 7] as [number, number], confidence: null }] };
const add = (name: string, fields: Record<string, unknown> | null) => addReadDocument(store, name, invoiceReading(fields && { ...invoice, ...fields }, page));

describe('invoice queue rows', () => {
  it('one row per document with its fields as they stand, status, exceptions and whether it is clean', async () => {
    const clean = add('clean.pdf', {});
    const wrong = add('wrong.pdf', { invoice_number: 'R-2', total: 99 });
    const letter = add('letter.pdf', null);
    store.fieldRevisions.save(clean.pageId, 'seller', 'Muster GmbH & Co. KG', 'Ada');
    const rows = await invoiceQueueRows(store);
    expect(rows.map((r) => r.documentName)).toEqual(['clean.pdf', 'wrong.pdf', 'letter.pdf']);
    expect(rows[0]).toMatchObject({ supplier: 'Muster GmbH & Co. KG', invoiceNumber: 'R-1', total: 11.9, currency: 'EUR', dueDate: '2024-02-01', status: 'in-review', exceptions: 0, clean: true, needsAttention: false, isInvoice: true, assignee: null });
    expect(rows[1]).toMatchObject({ invoiceNumber: 'R-2', total: 99, clean: false, needsAttention: true });
    expect(rows[1]!.exceptions).toBeGreaterThan(0);
    expect(rows[2]).toMatchObject({ isInvoice: false, clean: false, supplier: null });
    expect(wrong.documentId).toBe(rows[1]!.documentId);
    expect(letter.documentId).toBe(rows[2]!.documentId);
  });

  it('a rejected invoice is rejected (never "edited"), an approved one approved, a changed approval reopened', async () => {
    const a = add('a.pdf', { invoice_number: 'A-1' });
    const b = add('b.pdf', { invoice_number: 'B-1', seller: 'Other Ltd' });
    store.fieldRevisions.save(a.pageId, 'buyer', 'Beispiel AG Berlin', 'Ada');
    store.reviewNotes.reject(a.pageId, 'not ours', 'Ada');
    await approveCleanInvoices(store, [b.documentId], 'Ada');
    let rows = await invoiceQueueRows(store);
    expect(rows.map((r) => r.status)).toEqual(['rejected', 'approved']);
    expect(rows.every((r) => !r.needsAttention && !r.clean)).toBe(true);
    // A change after the approval reopens it (approvalSeals.reopenChanged, as fields.save does).
    const { reopenChanged } = await import('../store/approvalSeals.js');
    store.transaction(() => {
      store.fieldRevisions.save(b.pageId, 'total', 12.9, 'Bo');
      reopenChanged(store, b.documentId, 'fields.save');
    });
    rows = await invoiceQueueRows(store);
    expect(rows[1]).toMatchObject({ status: 'reopened', needsAttention: true, clean: false });
  });

  it('the "need attention" count is the rows the attention filter shows; assignment and "mine" / "unassigned"', async () => {
    const docs = ['a', 'b', 'c', 'd'].map((n, i) => add(`${n}.pdf`, { invoice_number: `N-${n}`, seller: `Seller ${n}`, total: i === 1 ? 50 : 11.9 }));
    store.work.assign(docs[0]!.documentId, 'Ada', 'Bo');
    store.work.assign(docs[1]!.documentId, 'Bo', 'Bo');
    const rows = await invoiceQueueRows(store);
    const context = { me: 'Ada', now: Date.now() };
    const counts = invoiceQueueCounts(rows, context);
    expect(counts.needAttention).toBe(visibleInvoiceQueue(rows, { ...noInvoiceQueueFilter, state: 'attention' }, { key: 'attention', descending: true }, context).length);
    expect(counts.needAttention).toBe(1);
    expect(counts.clean).toBe(3);
    expect(counts.mine).toBe(1);
    expect(counts.unassigned).toBe(2);
    expect(rows[0]!.assignee).toBe('Ada');
  });
});

describe('approving clean invoices in bulk', () => {
  it('approves each clean invoice as a whole (every page, its own sealed approval) and leaves the others, saying why', async () => {
    const clean = add('clean.pdf', {});
    const other = add('other.pdf', { invoice_number: 'R-7', seller: 'Zeta SA', total: 11.9 });
    const wrong = add('wrong.pdf', { invoice_number: 'R-2', total: 99 });
    const letter = add('letter.pdf', null);
    const result = await approveCleanInvoices(store, [clean.documentId, other.documentId, wrong.documentId, letter.documentId, 'nope'], 'Ada');
    expect(result.approved.map((a) => a.documentId)).toEqual([clean.documentId, other.documentId]);
    expect(result.skipped.map((s) => s.documentId)).toEqual([wrong.documentId, letter.documentId, 'nope']);
    expect(result.skipped[0]!.reason).toMatch(/needs attention/);
    expect(result.skipped[1]!.reason).toMatch(/not an invoice/);
    expect(store.documents.getPage(wrong.pageId).reviewStatus).toBe('unreviewed');
    for (const { pageId } of [clean, other]) {
      const event = store.reviewEvents.latest(pageId)!;
      expect(event).toMatchObject({ status: 'approved', reviewer: 'Ada', reason: null });
      expect(event.sealed).toBeTruthy();
    }
    // Each its own approval: two events, one per invoice, not one shared.
    expect(store.reviewEvents.latest(clean.pageId)!.id).not.toBe(store.reviewEvents.latest(other.pageId)!.id);
  });

  it('checks each invoice after the ones approved before it: a second invoice of a supplier paying elsewhere than the first is left', async () => {
    // Both clean when the queue was listed (nobody was paid yet); once the first is approved, the second's other IBAN
    // is a changed bank account — approved one by one, it would need a reason, so the bulk approval leaves it too.
    const add = (name: string, number: string, iban: string, issueDate: string) => {
      const read = addReadDocument(store, name, invoiceReading({ ...invoice, invoice_number: number, issue_date: issueDate }, page));
      store.fieldRevisions.save(read.pageId, 'payment.seller_vat_id', 'DE123456789', 'Ada');
      store.fieldRevisions.save(read.pageId, 'payment.iban', iban, 'Ada');
      return read.documentId;
    };
    const first = add('first.pdf', 'R-1', 'DE89370400440532013000', '2024-01-02');
    const second = add('second.pdf', 'R-2', 'GB82WEST12345698765432', '2024-01-20');
    expect((await invoiceQueueRows(store)).map((r) => r.clean)).toEqual([true, true]);
    const result = await approveCleanInvoices(store, [first, second], 'Ada');
    expect(result.approved.map((a) => a.documentId)).toEqual([first]);
    expect(result.skipped).toEqual([{ documentId: second, reason: expect.stringMatching(/IBAN changed/) }]);
  });

  it('four eyes holds back, naming the rule, the invoice whose due date the approver changed last; the others go through, and a colleague approves it', async () => {
    // A team project (accounts: four eyes on by default). The correction keeps the invoice clean, so only the rule stops it.
    store.accounts.add('Ada', 'admin', { name: 'command line' });
    store.accounts.add('Ann', 'approver', { name: 'command line' });
    const corrected = add('corrected.pdf', {});
    const untouched = add('untouched.pdf', { invoice_number: 'R-8', seller: 'Zeta SA' });
    store.fieldRevisions.save(corrected.pageId, 'due_date', '2024-02-15', 'Ann');
    expect((await invoiceQueueRows(store)).map((r) => r.clean)).toEqual([true, true]);
    const result = await approveCleanInvoices(store, [corrected.documentId, untouched.documentId], 'Ann');
    expect(result.approved.map((a) => a.documentId)).toEqual([untouched.documentId]);
    expect(result.skipped).toEqual([{ documentId: corrected.documentId, reason: expect.stringMatching(/^four-eyes: Ann changed Due date last on this invoice/) }]);
    expect(store.documents.getPage(corrected.pageId).reviewStatus).not.toBe('approved');
    expect(store.reviewEvents.ofPage(corrected.pageId)).toEqual([]);
    const colleague = await approveCleanInvoices(store, [corrected.documentId], 'Ada');
    expect(colleague.approved.map((a) => a.documentId)).toEqual([corrected.documentId]);
    expect(store.reviewEvents.latest(corrected.pageId)).toMatchObject({ status: 'approved', reviewer: 'Ada' });
  });

  it('counts each approval of the bulk as known for the ones after it: the same IBAN again passes, another is left', async () => {
    const add = (name: string, number: string, iban: string, issueDate: string) => {
      const read = addReadDocument(store, name, invoiceReading({ ...invoice, invoice_number: number, issue_date: issueDate }, page));
      store.fieldRevisions.save(read.pageId, 'payment.seller_vat_id', 'DE123456789', 'Ada');
      store.fieldRevisions.save(read.pageId, 'payment.iban', iban, 'Ada');
      return read.documentId;
    };
    const first = add('first.pdf', 'R-1', 'DE89370400440532013000', '2024-01-02');
    const second = add('second.pdf', 'R-2', 'GB82WEST12345698765432', '2024-01-20');
    const third = add('third.pdf', 'R-3', 'DE89370400440532013000', '2024-01-28');
    const result = await approveCleanInvoices(store, [first, second, third], 'Ada');
    expect(result.approved.map((a) => a.documentId)).toEqual([first, third]);
    expect(result.skipped).toEqual([{ documentId: second, reason: expect.stringMatching(/IBAN changed: .*DE89370400440532013000 \(approved first\.pdf\)/) }]);
    // A later bulk approval, listing afresh, still holds the second back.
    expect((await approveCleanInvoices(store, [second], 'Ada')).skipped).toHaveLength(1);
  });

  it('a multi-page invoice approved in bulk has every page approved', async () => {
    const doc = store.documents.addDocument({
      sha256: 'ab'.repeat(32),
      name: 'three.pdf',
      mediaType: 'application/pdf',
      bytes: Buffer.from('three'),
      pages: [1, 2, 3].map((pageNumber) => ({ pageNumber, width: 100, height: 100, dpi: 72, textLayer: null })),
    })!;
    store.readings.saveExtraction(doc.pages[0]!.id, invoiceReading(invoice, page), new Date());
    for (const later of doc.pages.slice(1)) store.readings.saveExtraction(later.id, invoiceReading(null, { ...page, markdown: 'Terms and conditions' }), new Date());
    const result = await approveCleanInvoices(store, [doc.id], 'Ada');
    expect(result.approved).toEqual([{ documentId: doc.id, pageNumbers: [1, 2, 3] }]);
    expect(store.documents.getDocument(doc.id).pages.map((p) => p.reviewStatus)).toEqual(['approved', 'approved', 'approved']);
  });
});
