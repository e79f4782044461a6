/**
 * Four eyes (issue 40) on every path that approves: approve() and setReviewStatusBy() refuse the person who changed
 * the amounts or payment fields last, naming the rule; a colleague's later correction, an unguarded field, or a project
 * without accounts (the single-user app) does not; a payment field changed through the page text counts; a merge or
 * corpus import never brings in an approval that breaks it (the page is reopened, the rule named), through the
 * command line (recto merge, recto import-corpus) too.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isFourEyesPath } from '../../app/invoices/fourEyes.js';
import { approve, setReviewStatusBy } from '../services/approval.js';
import { mergeProjectInto } from '../corpus/mergeProjects.js';
import { exportCorpus } from '../corpus/exportCorpus.js';
import { importCorpus } from '../corpus/importCorpus.js';
import { projectPageImages } from '../corpus/pageImages.js';
import { PageImageCache } from '../services/pageImageCache.js';
import { fakeInspect } from '../../testing/fakes.js';
import { addReadDocument, invoiceReading } from '../../testing/invoiceReadings.js';
import { ProjectStore } from './projectStore.js';
import { FourEyesError } from './fourEyes.js';
import { importCorpusCommand, mergeCommand } from '../cli/exportCommand.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-four-eyes-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const invoice = { invoice_number: 'R-1', issue_date: '2024-01-02', due_date: null, seller: 'Muster GmbH', buyer: 'Beispiel AG', currency: 'EUR', subtotal: 10, tax: 1.9, total: 11.9, lines: [{ description: 'Work', quantity: 1, unit_price: 10, amount: 10 }] };
const cli = { name: 'command line' };

function teamProject(name = 'team.recto'): ProjectStore {
  const store = ProjectStore.create(path.join(dir, name));
  store.accounts.add('Ada', 'admin', cli);
  store.accounts.add('Ann', 'approver', cli);
  store.accounts.add('Bo', 'approver', cli);
  return store;
}

const addInvoice = (store: ProjectStore, name: string, markdown = 'Invoice R-1') =>
  addReadDocument(store, name, invoiceReading(invoice, { markdown, elements: [] }), createHash('sha256').update(name).digest('hex'));

describe('four eyes', () => {
  it('guards amounts, quantities, currency, document type, due date and payment fields; not names or descriptions', () => {
    for (const guarded of ['total', 'subtotal', 'tax', 'amount_due', 'currency', 'document_type', 'due_date', 'lines.0.amount', 'lines.2.quantity', 'tax_breakdown.0.base', 'payment.iban', 'payment.bic', 'payment.payment_terms', 'payment.seller_vat_id']) {
      expect(isFourEyesPath(guarded), guarded).toBe(true);
    }
    for (const free of ['seller', 'buyer', 'invoice_number', 'issue_date', 'lines.0.description', 'payment.seller_city', 'payment.seller_contact_name']) {
      expect(isFourEyesPath(free), free).toBe(false);
    }
  });

  it('refuses the approver who corrected the total last, naming the rule, through approve and a status change', () => {
    const store = teamProject();
    const { pageId } = addInvoice(store, 'a.pdf');
    store.fieldRevisions.save(pageId, 'total', 12.9, 'Ann');
    expect(() => approve(store, { pageId, scope: 'document', reviewer: 'Ann' })).toThrow(FourEyesError);
    expect(() => approve(store, { pageId, scope: 'document', reviewer: 'ann' })).toThrow(/^four-eyes: ann changed Total last on this invoice/);
    expect(() => setReviewStatusBy(store, pageId, 'approved', 'Ann')).toThrow(/four-eyes/);
    expect(store.documents.getPage(pageId).reviewStatus).toBe('unreviewed');
    expect(store.reviewEvents.ofPage(pageId)).toEqual([]);
    // Another approver may; and so may Ann once a colleague corrected the field after her.
    expect(approve(store, { pageId, scope: 'document', reason: 'checked', reviewer: 'Bo' }).outcome).not.toBe('needs-reason');
    expect(store.reviewEvents.latest(pageId)).toMatchObject({ reviewer: 'Bo' });
    const other = addInvoice(store, 'b.pdf').pageId;
    store.fieldRevisions.save(other, 'payment.iban', 'DE89370400440532013000', 'Ann');
    expect(() => approve(store, { pageId: other, scope: 'document', reviewer: 'Ann' })).toThrow(/changed IBAN last/);
    store.fieldRevisions.save(other, 'payment.iban', 'DE89370400440532013000 ', 'Bo');
    expect(() => approve(store, { pageId: other, scope: 'document', reason: 'ok', reviewer: 'Ann' })).not.toThrow();
    store.close();
  });

  it('lets the corrector of an unguarded field approve, and counts an undo as a change', () => {
    const store = teamProject();
    const { pageId } = addInvoice(store, 'a.pdf');
    store.fieldRevisions.save(pageId, 'seller', 'Muster GmbH & Co', 'Ann');
    expect(() => approve(store, { pageId, scope: 'document', reason: 'ok', reviewer: 'Ann' })).not.toThrow();
    const second = addInvoice(store, 'b.pdf').pageId;
    store.fieldRevisions.save(second, 'tax', 2, 'Bo');
    store.fieldRevisions.undo(second, 'Ann');
    expect(() => approve(store, { pageId: second, scope: 'document', reviewer: 'Ann' })).toThrow(/changed Tax last/);
    store.close();
  });

  it('counts a payment field changed through the page text', () => {
    const store = teamProject();
    const { pageId } = addInvoice(store, 'a.pdf', 'Invoice R-1\n\nIBAN DE89 3704 0044 0532 0130 00');
    store.revisions.saveRevision(pageId, 'Invoice R-1\n\nIBAN GB29 NWBK 6016 1331 9268 19', 'Ann', null);
    expect(() => approve(store, { pageId, scope: 'document', reviewer: 'Ann' })).toThrow(/changed IBAN \(text of page 1\) last/);
    // A text edit that leaves the payment fields as they were is no change of what is paid.
    const other = addInvoice(store, 'b.pdf', 'Invoice R-1\n\nIBAN DE89 3704 0044 0532 0130 00').pageId;
    store.revisions.saveRevision(other, 'Invoice R-1 (typo fixed)\n\nIBAN DE89 3704 0044 0532 0130 00', 'Ann', null);
    expect(() => approve(store, { pageId: other, scope: 'document', reason: 'ok', reviewer: 'Ann' })).not.toThrow();
    store.close();
  });

  it('does not apply where an admin turned it off, nor in a project without accounts', () => {
    const store = teamProject();
    store.accounts.setFourEyes(false, { name: 'Ada' });
    const { pageId } = addInvoice(store, 'a.pdf');
    store.fieldRevisions.save(pageId, 'total', 12.9, 'Ann');
    expect(() => approve(store, { pageId, scope: 'document', reason: 'ok', reviewer: 'Ann' })).not.toThrow();
    expect(store.accounts.events().at(-1)).toMatchObject({ action: 'rule', detail: 'four-eyes off', by: 'Ada' });
    store.close();
    const solo = ProjectStore.create(path.join(dir, 'solo.recto'));
    const page = addInvoice(solo, 'a.pdf').pageId;
    solo.fieldRevisions.save(page, 'total', 12.9, 'Ann');
    expect(() => approve(solo, { pageId: page, scope: 'document', reason: 'ok', reviewer: 'Ann' })).not.toThrow();
    solo.close();
  });

  it('reopens, after a merge into a team project, an approval brought from elsewhere that breaks it', () => {
    // Elsewhere (a single-user copy), Ann corrected the total and approved.
    const elsewhere = ProjectStore.create(path.join(dir, 'laptop.recto'));
    const { pageId: theirs } = addInvoice(elsewhere, 'a.pdf');
    elsewhere.fieldRevisions.save(theirs, 'total', 12.9, 'Ann');
    approve(elsewhere, { pageId: theirs, scope: 'document', reason: 'ok', reviewer: 'Ann' });
    elsewhere.close();
    const team = teamProject();
    const summary = mergeProjectInto(team, path.join(dir, 'laptop.recto'));
    const page = team.documents.listDocuments()[0]!.pages[0]!;
    expect(page.reviewStatus).toBe('in-review');
    expect(team.reviewEvents.latest(page.id)).toMatchObject({ status: 'reopened', reviewer: 'four-eyes rule' });
    expect(team.reviewEvents.latest(page.id)!.reason).toMatch(/^four-eyes: Ann changed Total last.*merge of laptop\.recto/);
    expect(summary.approvalsReopened).toEqual([{ document: 'a.pdf', changes: ['four-eyes: Total'] }]);
    // The same merge into a project without accounts adopts the approval as before.
    const solo = ProjectStore.create(path.join(dir, 'solo.recto'));
    mergeProjectInto(solo, path.join(dir, 'laptop.recto'));
    expect(solo.documents.listDocuments()[0]!.pages[0]!.reviewStatus).toBe('approved');
    expect(team.auditChain().verify().intact).toBe(true);
    solo.close();
    team.close();
  });

  it('through the command line, recto merge and recto import-corpus reopen such an approval and say so, naming the rule', async () => {
    const elsewhere = ProjectStore.create(path.join(dir, 'laptop.recto'));
    const { pageId } = addInvoice(elsewhere, 'a.pdf');
    elsewhere.fieldRevisions.save(pageId, 'payment.iban', 'DE89370400440532013000', 'Ann');
    approve(elsewhere, { pageId, scope: 'document', reason: 'ok', reviewer: 'Ann' });
    const corpus = path.join(dir, 'corpus');
    await exportCorpus(elsewhere, { outDir: corpus, images: 'none', pageImage: projectPageImages(elsewhere, new PageImageCache(path.join(dir, 'cache'), fakeInspect)) });
    elsewhere.close();
    teamProject('merged-into.recto').close();
    teamProject('imported-into.recto').close();
    const statusIn = (file: string) => {
      const store = ProjectStore.open(file);
      try {
        const page = store.documents.listDocuments()[0]!.pages[0]!;
        return { status: page.reviewStatus, reason: store.reviewEvents.latest(page.id)!.reason };
      } finally {
        store.close();
      }
    };
    const runs: [string, (stderr: NodeJS.WritableStream) => Promise<number>, string][] = [
      ['merge', (stderr) => mergeCommand([path.join(dir, 'merged-into.recto'), path.join(dir, 'laptop.recto'), '--into', path.join(dir, 'merged.recto')], stderr), path.join(dir, 'merged.recto')],
      ['import-corpus', (stderr) => importCorpusCommand([corpus, '--into', path.join(dir, 'imported-into.recto')], stderr), path.join(dir, 'imported-into.recto')],
    ];
    for (const [command, run, target] of runs) {
      let err = '';
      expect(await run({ write: (s: string) => ((err += s), true) } as unknown as NodeJS.WritableStream), command).toBe(0);
      expect(err, command).toContain('recto: a.pdf: approval reopened (changed after it): four-eyes: IBAN');
      expect(statusIn(target), command).toEqual({ status: 'in-review', reason: expect.stringMatching(/^four-eyes: Ann changed IBAN last/) });
    }
  });

  it('reopens, after a corpus import into a team project, an approval whose approver changed the amounts', async () => {
    const elsewhere = ProjectStore.create(path.join(dir, 'laptop.recto'));
    const { pageId } = addInvoice(elsewhere, 'a.pdf');
    elsewhere.fieldRevisions.save(pageId, 'tax', 2.1, 'Ann');
    approve(elsewhere, { pageId, scope: 'document', reason: 'ok', reviewer: 'Ann' });
    const out = path.join(dir, 'corpus');
    await exportCorpus(elsewhere, { outDir: out, images: 'none', pageImage: projectPageImages(elsewhere, new PageImageCache(path.join(dir, 'cache'), fakeInspect)) });
    elsewhere.close();
    const team = teamProject();
    const summary = importCorpus(team, out);
    const page = team.documents.listDocuments()[0]!.pages[0]!;
    expect(page.reviewStatus).toBe('in-review');
    expect(team.reviewEvents.latest(page.id)!.reason).toMatch(/^four-eyes: Ann changed Tax last.*import of corpus/);
    expect(summary.approvalsReopened).toEqual([{ document: 'a.pdf', changes: ['four-eyes: Tax'] }]);
    team.close();
  });
});
