import { describe, expect, it } from 'vitest';
import { ageDays, cleanInvoice, documentStatusOf, invoiceQueueCounts, noInvoiceQueueFilter, sortInvoiceQueue, visibleInvoiceQueue, type InvoiceQueueRow } from './invoiceQueue.js';

const row = (over: Partial<InvoiceQueueRow>): InvoiceQueueRow => ({
  documentId: over.documentName ?? 'd',
  documentName: 'd',
  firstPageId: 'p',
  pageCount: 1,
  isInvoice: true,
  valuesFromXml: false,
  supplier: null,
  invoiceNumber: null,
  total: null,
  currency: 'EUR',
  issueDate: null,
  dueDate: null,
  importedAt: '2026-01-01T00:00:00Z',
  status: 'in-review',
  exceptions: 0,
  signals: [],
  needsAttention: false,
  clean: true,
  assignee: null,
  claimedBy: null,
  openBy: [],
  ...over,
});
const context = { me: 'Ada', now: Date.parse('2026-01-11T12:00:00Z') };

describe('document status', () => {
  it('rejected over everything, approved only when every page is, reopened, reading, else in review', () => {
    const p = (reviewStatus: string, latestEvent: string | null = null, status = 'done') => ({ status, reviewStatus, latestEvent });
    expect(documentStatusOf([p('approved'), p('rejected', 'rejected')])).toBe('rejected');
    expect(documentStatusOf([p('approved'), p('approved')])).toBe('approved');
    expect(documentStatusOf([p('approved'), p('in-review')])).toBe('in-review');
    expect(documentStatusOf([p('in-review', 'reopened'), p('in-review', 'reopened')])).toBe('reopened');
    expect(documentStatusOf([p('unreviewed'), p('unreviewed', null, 'reading')])).toBe('reading');
  });
});

describe('clean', () => {
  it('no exception and no doubt; the page reading\'s doubts do not count where the values are the XML\'s', () => {
    const base = { isInvoice: true, status: 'in-review' as const, valuesFromXml: false };
    expect(cleanInvoice({ ...base, signals: [] })).toBe(true);
    expect(cleanInvoice({ ...base, signals: ['low-confidence'] })).toBe(false);
    expect(cleanInvoice({ ...base, valuesFromXml: true, signals: ['low-confidence', 'repetition'] })).toBe(true);
    expect(cleanInvoice({ ...base, valuesFromXml: true, signals: ['xml-disagreement'] })).toBe(false);
    expect(cleanInvoice({ ...base, valuesFromXml: true, signals: ['bank-account'] })).toBe(false);
    expect(cleanInvoice({ ...base, status: 'reopened', signals: [] })).toBe(false);
    expect(cleanInvoice({ ...base, isInvoice: false, signals: [] })).toBe(false);
  });
});

describe('sorting and filtering', () => {
  const rows = [
    row({ documentName: 'a', supplier: 'Zeta', total: 10, dueDate: '2026-02-01', importedAt: '2026-01-10T00:00:00Z' }),
    row({ documentName: 'b', supplier: 'alpha', total: null, dueDate: null, exceptions: 2, signals: ['failed-rule', 'duplicate'], needsAttention: true, clean: false, assignee: 'Ada' }),
    row({ documentName: 'c', supplier: 'Mu', total: 300, dueDate: '2026-01-05', signals: ['low-confidence'], needsAttention: true, clean: false, claimedBy: 'Ada' }),
    row({ documentName: 'd', supplier: null, total: 5, status: 'approved', clean: false, assignee: 'Bo', importedAt: '2025-12-01T00:00:00Z' }),
  ];
  const names = (list: InvoiceQueueRow[]) => list.map((r) => r.documentName).join('');

  it('sorts on each column both ways, empty values last either way, ties in import order', () => {
    expect(names(sortInvoiceQueue(rows, { key: 'supplier', descending: false }))).toBe('bcad');
    expect(names(sortInvoiceQueue(rows, { key: 'supplier', descending: true }))).toBe('acbd');
    expect(names(sortInvoiceQueue(rows, { key: 'total', descending: true }))).toBe('cadb');
    expect(names(sortInvoiceQueue(rows, { key: 'due', descending: false }))).toBe('cabd');
    expect(names(sortInvoiceQueue(rows, { key: 'age', descending: true }))).toBe('dbca');
    expect(names(sortInvoiceQueue(rows, { key: 'attention', descending: true }))).toBe('bcad');
    expect(names(sortInvoiceQueue(rows, { key: 'exceptions', descending: true }))).toBe('bacd');
  });

  it('filters on each column; every count is the length of what its filter shows', () => {
    const show = (patch: Partial<typeof noInvoiceQueueFilter>) => names(visibleInvoiceQueue(rows, { ...noInvoiceQueueFilter, ...patch }, { key: 'supplier', descending: false }, context));
    expect(show({ text: 'ALP' })).toBe('b');
    expect(show({ statuses: ['approved'] })).toBe('d');
    expect(show({ state: 'attention' })).toBe('bc');
    expect(show({ state: 'clean' })).toBe('a');
    expect(show({ state: 'exceptions' })).toBe('b');
    expect(show({ assignee: 'mine' })).toBe('bc');
    expect(show({ assignee: 'unassigned' })).toBe('ca');
    expect(show({ assignee: 'Bo' })).toBe('d');
    expect(show({ dueBy: '2026-01-31' })).toBe('c');
    expect(show({ minAgeDays: 30 })).toBe('d');
    expect(show({ minTotal: 6, maxTotal: 100 })).toBe('a');
    const counts = invoiceQueueCounts(rows, context);
    expect([counts.needAttention, counts.clean, counts.withExceptions, counts.mine, counts.unassigned, counts.byStatus.approved]).toEqual([2, 1, 1, 2, 2, 1]);
  });

  it('counts age in whole days since import', () => {
    expect(ageDays(rows[0]!, context.now)).toBe(1);
    expect(ageDays(row({ importedAt: '2026-02-01T00:00:00Z' }), context.now)).toBe(0);
  });
});
