/**
 * Approval that holds (issue 37): each attack of the audit, as an attacker or a careless colleague would try it,
 * through the doors they would use — the contract (fields.save), a merge of an edited copy, sqlite3 on the file.
 * The export must never show a changed invoice as approved, and a merge never overturns a decision taken here.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EngineRegistry } from '../engines/engineRegistry.js';
import { reviewedInvoiceOf } from '../corpus/invoicesExport/collectInvoices.js';
import { mergeProjectInto } from '../corpus/mergeProjects.js';
import { exportInvoices } from '../corpus/invoicesExport/writeInvoicesExport.js';
import { mergeCommand } from '../cli/exportCommand.js';
import { ProjectStore } from '../store/projectStore.js';
import { SettingsFile } from '../settings/settingsFile.js';
import { addReadDocument, invoiceReading } from '../../testing/invoiceReadings.js';
import { closeRawDatabase, rawDatabase } from '../../testing/rawDatabase.js';
import { echoEngineFactory, fakeInspect } from '../../testing/fakes.js';
import { approve } from './approval.js';
import { createDispatch, type Dispatch } from './dispatch.js';
import { createHandlers } from './handlers.js';
import { PageImageCache } from './pageImageCache.js';
import { RectoSession } from './rectoSession.js';
import { loadSchemaLayer } from '../import/einvoiceSchemaCheck.js';

// exportInvoices checks each e-invoice against its XSD on this thread: libxml2 is loaded first.
beforeAll(() => loadSchemaLayer());

const IBAN = 'DE89370400440532013000';
const ATTACKER_IBAN = 'GB82WEST12345698765432';
const cleanInvoice = { invoice_number: 'R-1', issue_date: '2024-01-02', due_date: null, seller: 'Muster GmbH', buyer: 'Beispiel AG', currency: 'EUR', subtotal: 10, tax: 1.9, total: 11.9, lines: [{ description: 'Work', quantity: 1, unit_price: 10, amount: 10 }] };

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-approval-holds-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A project with one clean invoice paying to IBAN, approved by Ada. */
function approvedProject(file: string): { store: ProjectStore; pageId: string; documentId: string } {
  const store = ProjectStore.create(file);
  const { pageId, documentId } = addReadDocument(store, 'invoice.pdf', invoiceReading(cleanInvoice));
  store.fieldRevisions.save(pageId, 'payment.iban', IBAN, 'Ada');
  expect(approve(store, { pageId, scope: 'document', reviewer: 'Ada' }).outcome).toBe('approved');
  return { store, pageId, documentId };
}

const exported = (store: ProjectStore, documentId: string) => reviewedInvoiceOf(store, store.documents.getDocument(documentId))!;

describe('approved means frozen', () => {
  it('fields.save after the approval reopens the invoice, naming what changed and who; the export never shows it approved', async () => {
    const session = new RectoSession({
      engines: new EngineRegistry(new Map([['echo', echoEngineFactory()]])),
      settings: new SettingsFile(path.join(dir, 'data', 'settings.json')),
      images: new PageImageCache(path.join(dir, 'cache'), fakeInspect),
      dataDir: path.join(dir, 'data'),
      samplesDir: path.join(dir, 'samples'),
    });
    try {
      const dispatch: Dispatch = createDispatch(createHandlers(session, { shell: 'browser', pageImageUrl: (id) => `/img/${id}` }), { validateReplies: true });
      await dispatch('project.create', { path: path.join(dir, 'p.recto') });
      const store = session.store;
      const { pageId, documentId } = addReadDocument(store, 'invoice.pdf', invoiceReading(cleanInvoice));
      store.fieldRevisions.save(pageId, 'payment.iban', IBAN, 'Ada');
      approve(store, { pageId, scope: 'document', reviewer: 'Ada' });
      expect(exported(store, documentId)).toMatchObject({ status: 'approved', payment: { iban: IBAN } });

      session.settings.update({ authorName: 'mallory' });
      const reply = await dispatch('fields.save', { pageId, field: 'payment.iban', value: ATTACKER_IBAN });
      expect(reply.ok).toBe(true);
      expect(store.documents.getPage(pageId).reviewStatus).toBe('in-review');
      expect(store.reviewEvents.latest(pageId)).toMatchObject({ status: 'reopened', reviewer: 'mallory', exceptions: [`payment.iban: ${IBAN} → ${ATTACKER_IBAN}`] });
      expect(exported(store, documentId)).toMatchObject({ status: 'in-review', payment: { iban: ATTACKER_IBAN } });
      const attention = await dispatch('attention.list', {});
      expect(attention.ok && (attention.result as { items: { pageId: string; signals: { kind: string; detail: string }[] }[] }).items.find((i) => i.pageId === pageId)?.signals).toContainEqual({
        kind: 'reopened',
        detail: expect.stringMatching(/payment\.iban.*by mallory/),
      });
    } finally {
      await session.dispose();
    }
  });

  it('a merged copy where "alice" saved another IBAN reopens the approval and the merge says so', () => {
    const file = path.join(dir, 'p.recto');
    const { store, documentId } = approvedProject(file);
    const copyFile = path.join(dir, 'copy.recto');
    store.copyTo(copyFile);
    const copy = ProjectStore.open(copyFile);
    copy.fieldRevisions.save(copy.documents.listDocuments()[0]!.pages[0]!.id, 'payment.iban', ATTACKER_IBAN, 'alice');
    copy.close();

    const summary = mergeProjectInto(store, copyFile);
    expect(exported(store, documentId)).toMatchObject({ status: 'in-review', payment: { iban: ATTACKER_IBAN } });
    expect(summary.paymentChanges).toEqual([{ document: 'invoice.pdf', changes: [`payment.iban: ${IBAN} → ${ATTACKER_IBAN}`] }]);
    expect(summary.approvalsReopened).toEqual([{ document: 'invoice.pdf', changes: [`payment.iban: ${IBAN} → ${ATTACKER_IBAN}`] }]);
    expect(store.reviewEvents.latest(store.documents.getDocument(documentId).pages[0]!.id)).toMatchObject({ status: 'reopened', reviewer: 'alice' });
    store.close();
  });

  it('an IBAN changed in the file with sqlite3 is never exported as approved', () => {
    const { store, documentId } = approvedProject(path.join(dir, 'p.recto'));
    rawDatabase(store).prepare(`UPDATE field_revisions SET new_value = ? WHERE field = 'payment.iban'`).run(JSON.stringify(ATTACKER_IBAN));
    closeRawDatabase(store);
    expect(exported(store, documentId)).toMatchObject({ status: 'in-review', payment: { iban: ATTACKER_IBAN } });
    store.close();
  });

  it('an approval that still holds exports as approved, and a change undone does not re-approve by itself', () => {
    const { store, documentId } = approvedProject(path.join(dir, 'p.recto'));
    expect(exported(store, documentId).status).toBe('approved');
    store.close();
  });
});

describe('decisions from outside', () => {
  it('a merge never overturns a rejection, whatever time its approval claims: kept in the history, the page flagged', () => {
    const file = path.join(dir, 'p.recto');
    const store = ProjectStore.create(file);
    const { pageId, documentId } = addReadDocument(store, 'invoice.pdf', invoiceReading(cleanInvoice));
    const copyFile = path.join(dir, 'copy.recto');
    store.copyTo(copyFile);
    store.reviewNotes.reject(pageId, 'possible fraud', 'Ada');

    const copy = ProjectStore.open(copyFile);
    const theirPage = copy.documents.listDocuments()[0]!.pages[0]!.id;
    copy.documents.setReviewStatus(theirPage, 'approved');
    copy.reviewEvents.record({ pageId: theirPage, status: 'approved', exceptions: [], reason: null, reviewer: 'bob (CFO)', at: '2099-01-01T00:00:00.000Z' });
    copy.close();

    const summary = mergeProjectInto(store, copyFile);
    expect(store.documents.getPage(pageId).reviewStatus).toBe('rejected');
    expect(exported(store, documentId).status).toBe('rejected');
    expect(summary).toMatchObject({ decisionConflicts: 1, untrustedTimes: 1 });
    expect(store.reviewEvents.latest(pageId)).toMatchObject({ status: 'rejected', reviewer: 'Ada' });
    expect(store.reviewEvents.ofPage(pageId).map((e) => e.reviewer)).toContain('bob (CFO)');
    expect(store.reviewEvents.conflictsOf(pageId)).toEqual([expect.objectContaining({ reviewer: 'bob (CFO)', origin: 'merge of copy.recto' })]);
    // A person decides: the flag clears.
    store.reviewNotes.reject(pageId, 'still fraud', 'Ada');
    expect(store.reviewEvents.conflictsOf(pageId)).toEqual([]);
    store.close();
  });

  it('a decision on a page nobody here decided is taken when its time is possible, and sealed: a later change reopens it', () => {
    const file = path.join(dir, 'p.recto');
    const store = ProjectStore.create(file);
    const { pageId, documentId } = addReadDocument(store, 'invoice.pdf', invoiceReading(cleanInvoice));
    const copyFile = path.join(dir, 'copy.recto');
    store.copyTo(copyFile);
    const copy = ProjectStore.open(copyFile);
    approve(copy, { pageId: copy.documents.listDocuments()[0]!.pages[0]!.id, scope: 'document', reviewer: 'Bea' });
    copy.close();
    expect(mergeProjectInto(store, copyFile)).toMatchObject({ decisionsAdopted: 1, decisionConflicts: 0 });
    expect(exported(store, documentId).status).toBe('approved');
    store.fieldRevisions.save(pageId, 'total', 99, 'mallory');
    expect(exported(store, documentId).status).toBe('in-review');
    store.close();
  });
});

describe('the invoice is the unit of approval (issue 39)', () => {
  it('a three-page invoice approved from its last page exports as approved; a page of a document that is not an invoice alone', () => {
    const store = ProjectStore.create(path.join(dir, 'p.recto'));
    const doc = store.documents.addDocument({
      sha256: 'c'.repeat(64),
      name: 'three.pdf',
      mediaType: 'application/pdf',
      bytes: Buffer.from('three'),
      pages: [1, 2, 3].map((pageNumber) => ({ pageNumber, width: 100, height: 100, dpi: 72, textLayer: null })),
    })!;
    store.readings.saveExtraction(doc.pages[0]!.id, invoiceReading(cleanInvoice), new Date());
    for (const page of doc.pages.slice(1)) store.readings.saveExtraction(page.id, invoiceReading(null, { markdown: 'Terms and conditions', elements: [] }), new Date());
    const result = approve(store, { pageId: doc.pages[2]!.id, scope: 'unit', reviewer: 'Ada' });
    expect(result).toMatchObject({ outcome: 'approved', scope: 'document', pageNumbers: [1, 2, 3] });
    const out = path.join(dir, 'out');
    exportInvoices(store, { outDir: out, syntax: 'cii' });
    const [header, row] = fs.readFileSync(path.join(out, 'invoices.csv'), 'utf8').split('\n');
    expect(row!.split(',')[header!.split(',').indexOf('status')]).toBe('approved');

    const letter = store.documents.addDocument({ sha256: 'd'.repeat(64), name: 'letter.pdf', mediaType: 'application/pdf', bytes: Buffer.from('letter'), pages: [1, 2].map((pageNumber) => ({ pageNumber, width: 100, height: 100, dpi: 72, textLayer: null })) })!;
    for (const page of letter.pages) store.readings.saveExtraction(page.id, invoiceReading(null, { markdown: 'Dear Sir', elements: [] }), new Date());
    expect(approve(store, { pageId: letter.pages[1]!.id, scope: 'unit', reviewer: 'Ada' })).toMatchObject({ scope: 'page', pageNumbers: [2] });
    expect(store.documents.getDocument(letter.id).pages.map((p) => p.reviewStatus)).toEqual(['unreviewed', 'approved']);
    store.close();
  });
});

describe('opening a project changed outside Recto', () => {
  it('warns in the app, naming the first edited row, and reopens the approval whose IBAN was changed', async () => {
    const file = path.join(dir, 'p.recto');
    const { store, pageId } = approvedProject(file);
    store.close();
    const raw = new Database(file);
    raw.prepare(`UPDATE field_revisions SET new_value = ? WHERE field = 'payment.iban'`).run(JSON.stringify(ATTACKER_IBAN));
    raw.close();
    const session = new RectoSession({
      engines: new EngineRegistry(new Map([['echo', echoEngineFactory()]])),
      settings: new SettingsFile(path.join(dir, 'data', 'settings.json')),
      images: new PageImageCache(path.join(dir, 'cache'), fakeInspect),
      dataDir: path.join(dir, 'data'),
      samplesDir: path.join(dir, 'samples'),
    });
    try {
      const info = await session.openProject(file, { remember: false });
      expect(info.trailWarning).toMatch(/TAMPERED: field_revisions row .*edited outside Recto.*1 approved page\(s\) changed after their approval/);
      expect(session.project?.trailWarning).toBe(info.trailWarning);
      expect(session.store.reviewEvents.latest(pageId)).toMatchObject({ status: 'reopened', reviewer: expect.stringMatching(/^outside Recto/) });
    } finally {
      await session.dispose();
    }
  });
});

describe('recto merge prints what it changed about approvals and payment data', () => {
  it('names the reopened approval and the IBAN changed, from the old to the new', async () => {
    const file = path.join(dir, 'p.recto');
    const { store } = approvedProject(file);
    const copyFile = path.join(dir, 'copy.recto');
    store.copyTo(copyFile);
    store.close();
    const copy = ProjectStore.open(copyFile);
    copy.fieldRevisions.save(copy.documents.listDocuments()[0]!.pages[0]!.id, 'payment.iban', ATTACKER_IBAN, 'alice');
    copy.close();
    let err = '';
    expect(await mergeCommand([file, copyFile], { write: (s: string) => ((err += s), true) } as unknown as NodeJS.WritableStream)).toBe(0);
    expect(err).toContain(`recto: invoice.pdf: payment data changed: payment.iban: ${IBAN} → ${ATTACKER_IBAN}`);
    expect(err).toContain(`recto: invoice.pdf: approval reopened (changed after it): payment.iban: ${IBAN} → ${ATTACKER_IBAN}`);
  });
});

describe('an approval taken elsewhere over changed content', () => {
  it('does not replace the approval taken here: "alice" changes the IBAN and approves it in her copy; the merge reopens', () => {
    const file = path.join(dir, 'p.recto');
    const { store, documentId, pageId } = approvedProject(file);
    const copyFile = path.join(dir, 'copy.recto');
    store.copyTo(copyFile);
    const copy = ProjectStore.open(copyFile);
    const theirs = copy.documents.listDocuments()[0]!.pages[0]!.id;
    copy.fieldRevisions.save(theirs, 'payment.iban', ATTACKER_IBAN, 'alice');
    copy.reviewEvents.record({ pageId: theirs, status: 'reopened', exceptions: [], reason: null, reviewer: 'alice' });
    approve(copy, { pageId: theirs, scope: 'document', reviewer: 'alice', reason: 'new account' });
    expect(exported(copy, copy.documents.listDocuments()[0]!.id).status).toMatch(/^approved/);
    copy.close();

    mergeProjectInto(store, copyFile);
    expect(exported(store, documentId)).toMatchObject({ status: 'in-review', payment: { iban: ATTACKER_IBAN } });
    expect(store.reviewEvents.latest(pageId)).toMatchObject({ status: 'reopened', reviewer: 'alice' });
    store.close();
  });

  it('an unsealed approval recorded since seals exist (written with sqlite3) does not hold', () => {
    const { store, documentId } = approvedProject(path.join(dir, 'p.recto'));
    const raw = new Database(store.file);
    raw.prepare(`UPDATE review_events SET sealed = NULL`).run();
    raw.close();
    expect(exported(store, documentId).status).toBe('in-review');
    store.close();
  });
});
