import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeMatch, invoiceKeys, supplierNameKey } from '../../app/invoices/duplicateKeys.js';
import { ProjectStore } from './projectStore.js';
import { addReadDocument, invoiceReading } from '../../testing/invoiceReadings.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-dupes-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** What the duplicate keys do not read; each test gives the seller, number, date and total. */
const otherFields = { due_date: null, buyer: 'Beispiel AG', currency: 'EUR', subtotal: null, tax: null, lines: [] };

function addInvoice(store: ProjectStore, name: string, invoice: Record<string, unknown>): string {
  return addReadDocument(store, name, invoiceReading({ ...otherFields, ...invoice })).documentId;
}

describe('duplicate keys', () => {
  it('one supplier however its legal form, accents and punctuation are printed', () => {
    expect(supplierNameKey('ACME GmbH & Co. KG')).toBe(supplierNameKey('Acme'));
    expect(supplierNameKey('Société Générale S.A.')).toBe(supplierNameKey('SOCIETE GENERALE'));
    expect(supplierNameKey('Acme')).not.toBe(supplierNameKey('Acne'));
    const k = invoiceKeys({ seller: 'A', sellerVatId: 'DE 123456789', invoiceNumber: 'inv-2024/017', total: -10, issueDate: '2024-01-02', typeCode: null, precedingInvoice: 'INV 2024 016' });
    expect(k).toMatchObject({ supplierVat: 'DE123456789', number: 'INV2024017', totalCents: 1000, corrective: true, references: 'INV2024016' });
  });
});

describe('duplicates across a project', () => {
  it('finds the same supplier and number, and the same supplier and total within a few days; not other suppliers or far dates', () => {
    const store = ProjectStore.create(path.join(dir, 'p.recto'));
    const first = addInvoice(store, 'first.pdf', { seller: 'Muster GmbH', invoice_number: 'R-17', issue_date: '2024-03-01', total: 119 });
    const rescan = addInvoice(store, 'rescan.pdf', { seller: 'MUSTER', invoice_number: 'R 17', issue_date: '2024-03-01', total: 119 });
    const misread = addInvoice(store, 'misread.pdf', { seller: 'Muster GmbH', invoice_number: 'R-71', issue_date: '2024-03-03', total: 119 });
    const later = addInvoice(store, 'later.pdf', { seller: 'Muster GmbH', invoice_number: 'R-90', issue_date: '2024-04-01', total: 119 });
    const other = addInvoice(store, 'other.pdf', { seller: 'Andere AG', invoice_number: 'R-17', issue_date: '2024-03-01', total: 119 });
    const kinds = (id: string) => store.invoiceKeys.matchesOf(id).map((m) => `${m.kind}:${m.documentName}`).sort();
    expect(kinds(first)).toEqual(['same-number:rescan.pdf', 'same-total-and-date:misread.pdf']);
    expect(kinds(rescan)).toEqual(['same-number:first.pdf', 'same-total-and-date:misread.pdf']);
    expect(kinds(misread)).toEqual(['same-total-and-date:first.pdf', 'same-total-and-date:rescan.pdf']);
    expect(kinds(later)).toEqual([]);
    expect(kinds(other)).toEqual([]);
    expect(describeMatch(store.invoiceKeys.matchesOf(first)[0]!)).toMatch(/^same supplier and invoice number as rescan\.pdf \[/);
    store.close();
  });

  it('answers the recorded keys\' matches from a cache that a change of any document\'s keys clears, and a correction that changes no key keeps', () => {
    const store = ProjectStore.create(path.join(dir, 'p.recto'));
    const first = addInvoice(store, 'first.pdf', { seller: 'Muster GmbH', invoice_number: 'R-17', issue_date: '2024-03-01', total: 119 });
    const second = addInvoice(store, 'second.pdf', { seller: 'Muster GmbH', invoice_number: 'R-18', issue_date: '2024-05-01', total: 50 });
    store.invoiceKeys.refresh(first);
    store.invoiceKeys.refresh(second);
    const before = store.invoiceKeys.recordedMatches(first);
    expect(before).toEqual([]);
    // A correction that leaves the keys as they were writes nothing and keeps the answer.
    const secondPage = store.documents.getDocument(second).pages[0]!.id;
    store.fieldRevisions.save(secondPage, 'buyer', 'Other buyer', 'Ana');
    store.invoiceKeys.refresh(second);
    expect(store.invoiceKeys.recordedMatches(first)).toBe(before);
    // Another document's number corrected to this one's: this document's matches change too.
    store.fieldRevisions.save(secondPage, 'invoice_number', 'R-17', 'Ana');
    store.invoiceKeys.refresh(second);
    expect(store.invoiceKeys.recordedMatches(first).map((m) => `${m.kind}:${m.documentName}`)).toEqual(['same-number:second.pdf']);
    expect(store.invoiceKeys.recordedMatches(first)).toEqual(store.invoiceKeys.matchesOf(first));
    store.close();
  });

  it('a credit note naming an invoice is linked to it, not called its duplicate; a correction re-checks', () => {
    const store = ProjectStore.create(path.join(dir, 'p.recto'));
    addInvoice(store, 'invoice.pdf', { seller: 'Muster GmbH', invoice_number: 'R-17', issue_date: '2024-03-01', total: 119 });
    const credit = addInvoice(store, 'credit.pdf', { seller: 'Muster GmbH', invoice_number: 'G-1', issue_date: '2024-03-02', total: -119 });
    expect(store.invoiceKeys.matchesOf(credit)).toEqual([]);
    const doc = store.documents.getDocument(credit);
    store.fieldRevisions.save(doc.pages[0]!.id, 'total', 119, 'Ana');
    store.invoiceKeys.refresh(credit);
    expect(store.invoiceKeys.matchesOf(credit).map((m) => m.kind)).toEqual(['same-total-and-date']);
    store.close();
  });
});
