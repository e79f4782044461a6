/**
 * The invoice queue (docs/invoice-review.md, "The invoice queue"): one row per document — supplier, number, total,
 * due date, age, status, exceptions, assignee — sorted and filtered here, in one place, so that the rows shown, the
 * counts on the filters, "N need attention" and the order Alt+N / Alt+P walk are the same computation. Pure.
 */
import type { AttentionSignalKind } from '../review/attention.js';

/**
 * A document's status in the queue, from its pages' review statuses and latest events: rejected where any page is
 * rejected; approved where every page is; reopened where an approval was reopened by a change since; reading while a
 * page is still being read; else in review. Editing is not a status (a rejected invoice never shows "edited").
 */
export const invoiceQueueStatuses = ['reading', 'in-review', 'reopened', 'approved', 'rejected'] as const;
export type InvoiceQueueStatus = (typeof invoiceQueueStatuses)[number];

export interface InvoiceQueueRow {
  documentId: string;
  documentName: string;
  firstPageId: string;
  pageCount: number;
  /** Invoice fields were read or corrected (the unit of approval is then the document). */
  isInvoice: boolean;
  /** The values are the document's own e-invoice XML's (the page's reading is only compared with them). */
  valuesFromXml: boolean;
  supplier: string | null;
  invoiceNumber: string | null;
  total: number | null;
  currency: string | null;
  issueDate: string | null;
  dueDate: string | null;
  /** When the document was imported (ISO 8601): the queue's age counts from here (what waited, not how old the invoice is). */
  importedAt: string;
  status: InvoiceQueueStatus;
  /** Signals an approval would have to be given a reason for (failed rules, missing fields, XML, duplicates, accounts, matching). */
  exceptions: number;
  /** Every needs-attention signal over the document's pages, exceptions and doubts (low confidence, repetition, …). */
  signals: AttentionSignalKind[];
  /** Whether the queue counts it as needing attention (the review bar's figure counts the same rows). */
  needsAttention: boolean;
  /** Clean: approvable in bulk (cleanInvoice below). */
  clean: boolean;
  assignee: string | null;
  claimedBy: string | null;
  /** People who have one of its pages open now (presence). */
  openBy: string[];
}

/** The signal kinds an approval needs a reason for (approval.ts's exceptions, as the queue sees them). */
export const exceptionSignalKinds: ReadonlySet<AttentionSignalKind> = new Set<AttentionSignalKind>([
  'failed-rule',
  'missing-field',
  'xml-disagreement',
  'duplicate',
  'bank-account',
  'match-failed',
  'reopened',
  'decision-conflict',
]);

const decided = (status: InvoiceQueueStatus) => status === 'approved' || status === 'rejected';

/** A document needs attention while it is undecided, read, and shows a signal (the page queue's rule, per invoice). */
export const documentNeedsAttention = (status: InvoiceQueueStatus, signals: readonly AttentionSignalKind[]): boolean =>
  !decided(status) && status !== 'reading' && signals.length > 0;

/**
 * Clean: an invoice that can be approved in bulk — fully read, undecided, no exception, and every value confident. A
 * value is confident when it came from the e-invoice XML, was corrected by an analyst, or was read without raising a
 * signal. So where the values are the XML's, the page reading's doubts (doubtful words, repetition, broken tables, no
 * boxes) say nothing about them — while a page that disagrees with its XML is an exception; where the values are read
 * from the page, any doubt left keeps the invoice out (a field below LOW_FIELD_CONFIDENCE that nobody corrected raises
 * one, and a corrected field none).
 */
export function cleanInvoice(row: Pick<InvoiceQueueRow, 'isInvoice' | 'status' | 'signals' | 'valuesFromXml'>): boolean {
  if (!row.isInvoice || row.status !== 'in-review') return false;
  if (row.signals.some((kind) => exceptionSignalKinds.has(kind))) return false;
  return row.valuesFromXml || row.signals.length === 0;
}

export function documentStatusOf(pages: readonly { status: string; reviewStatus: string; latestEvent: string | null }[]): InvoiceQueueStatus {
  if (pages.some((p) => p.reviewStatus === 'rejected')) return 'rejected';
  if (pages.length > 0 && pages.every((p) => p.reviewStatus === 'approved')) return 'approved';
  if (pages.some((p) => p.latestEvent === 'reopened' && p.reviewStatus !== 'approved')) return 'reopened';
  if (pages.some((p) => p.status === 'pending' || p.status === 'reading')) return 'reading';
  return 'in-review';
}

export const invoiceQueueSortKeys = ['attention', 'supplier', 'number', 'total', 'due', 'age', 'status', 'exceptions', 'assignee'] as const;
export type InvoiceQueueSortKey = (typeof invoiceQueueSortKeys)[number];

export interface InvoiceQueueSort {
  key: InvoiceQueueSortKey;
  descending: boolean;
}

/** Attention first (most exceptions, then most signals), then the oldest: the order an analyst's day starts in. */
export const defaultInvoiceQueueSort: InvoiceQueueSort = { key: 'attention', descending: true };

export interface InvoiceQueueFilter {
  /** Text found in the supplier, the invoice number or the file name (case-insensitive). */
  text: string;
  statuses: readonly InvoiceQueueStatus[];
  /** 'attention': needs attention; 'clean': approvable in bulk; 'exceptions': at least one exception. */
  state: '' | 'attention' | 'clean' | 'exceptions';
  /** 'mine': assigned to or claimed by me; 'unassigned': nobody's; else an assignee's name. */
  assignee: string;
  /** Due on or before this date (YYYY-MM-DD); '' for any. */
  dueBy: string;
  /** Waiting at least this many days since import; 0 for any. */
  minAgeDays: number;
  currency: string;
  /** Totals at least / at most (in the invoice's currency); null for no bound. */
  minTotal: number | null;
  maxTotal: number | null;
}

export const noInvoiceQueueFilter: InvoiceQueueFilter = { text: '', statuses: [], state: '', assignee: '', dueBy: '', minAgeDays: 0, currency: '', minTotal: null, maxTotal: null };

const DAY_MS = 86_400_000;

/** Whole days since import (never negative). */
export const ageDays = (row: Pick<InvoiceQueueRow, 'importedAt'>, now: number): number => Math.max(0, Math.floor((now - Date.parse(row.importedAt)) / DAY_MS));

/** Whether `row` is mine: assigned to me, or claimed by me while nobody is assigned. */
export const isMine = (row: Pick<InvoiceQueueRow, 'assignee' | 'claimedBy'>, me: string): boolean => row.assignee === me || (row.assignee === null && row.claimedBy === me);

export function inInvoiceQueueFilter(row: InvoiceQueueRow, filter: InvoiceQueueFilter, context: { me: string; now: number }): boolean {
  const text = filter.text.trim().toLowerCase();
  if (text && ![row.supplier, row.invoiceNumber, row.documentName].some((v) => v?.toLowerCase().includes(text))) return false;
  if (filter.statuses.length > 0 && !filter.statuses.includes(row.status)) return false;
  if (filter.state === 'attention' && !row.needsAttention) return false;
  if (filter.state === 'clean' && !row.clean) return false;
  if (filter.state === 'exceptions' && row.exceptions === 0) return false;
  if (filter.assignee === 'mine' ? !isMine(row, context.me) : filter.assignee === 'unassigned' ? row.assignee !== null : filter.assignee !== '' && row.assignee !== filter.assignee) return false;
  if (filter.dueBy && !(row.dueDate !== null && row.dueDate <= filter.dueBy)) return false;
  if (filter.minAgeDays > 0 && ageDays(row, context.now) < filter.minAgeDays) return false;
  if (filter.currency && row.currency?.toUpperCase() !== filter.currency.toUpperCase()) return false;
  if (filter.minTotal !== null && !(row.total !== null && row.total >= filter.minTotal)) return false;
  if (filter.maxTotal !== null && !(row.total !== null && row.total <= filter.maxTotal)) return false;
  return true;
}

const statusRank: Record<InvoiceQueueStatus, number> = { reopened: 0, 'in-review': 1, reading: 2, rejected: 3, approved: 4 };

/** The value a column sorts by; null sorts last whichever the direction. */
function sortValue(row: InvoiceQueueRow, key: InvoiceQueueSortKey): string | number | null {
  switch (key) {
    case 'attention':
      // Undecided rows with exceptions above those with doubts above clean ones; decided rows weigh nothing.
      return row.needsAttention ? 1000 * row.exceptions + row.signals.length : decided(row.status) ? -1 : 0;
    case 'supplier':
      return row.supplier?.toLowerCase() ?? null;
    case 'number':
      return row.invoiceNumber?.toLowerCase() ?? null;
    case 'total':
      return row.total;
    case 'due':
      return row.dueDate;
    case 'age':
      // Older first when descending: the import time reversed.
      return -Date.parse(row.importedAt);
    case 'status':
      return statusRank[row.status];
    case 'exceptions':
      return row.exceptions;
    case 'assignee':
      return row.assignee?.toLowerCase() ?? null;
  }
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function compare(a: string | number, b: string | number): number {
  return typeof a === 'number' && typeof b === 'number' ? a - b : collator.compare(String(a), String(b));
}

/** Rows in the chosen order; ties keep import order (stable), the oldest first. */
export function sortInvoiceQueue(rows: readonly InvoiceQueueRow[], sort: InvoiceQueueSort): InvoiceQueueRow[] {
  const sign = sort.descending ? -1 : 1;
  return rows
    .map((row, index) => ({ row, index, value: sortValue(row, sort.key) }))
    .sort((a, b) => {
      if (a.value === null || b.value === null) return a.value === b.value ? a.index - b.index : a.value === null ? 1 : -1;
      return sign * compare(a.value, b.value) || a.index - b.index;
    })
    .map(({ row }) => row);
}

export interface InvoiceQueueCounts {
  all: number;
  /** The "N need attention" figure: the rows the 'attention' filter shows. */
  needAttention: number;
  clean: number;
  withExceptions: number;
  mine: number;
  unassigned: number;
  byStatus: Record<InvoiceQueueStatus, number>;
}

/** Each filter chip's count, by the same predicates the filter applies (so a chip and the rows it shows agree). */
export function invoiceQueueCounts(rows: readonly InvoiceQueueRow[], context: { me: string; now: number }): InvoiceQueueCounts {
  const counts: InvoiceQueueCounts = { all: rows.length, needAttention: 0, clean: 0, withExceptions: 0, mine: 0, unassigned: 0, byStatus: { reading: 0, 'in-review': 0, reopened: 0, approved: 0, rejected: 0 } };
  const only = (patch: Partial<InvoiceQueueFilter>) => (row: InvoiceQueueRow) => inInvoiceQueueFilter(row, { ...noInvoiceQueueFilter, ...patch }, context);
  counts.needAttention = rows.filter(only({ state: 'attention' })).length;
  counts.clean = rows.filter(only({ state: 'clean' })).length;
  counts.withExceptions = rows.filter(only({ state: 'exceptions' })).length;
  counts.mine = rows.filter(only({ assignee: 'mine' })).length;
  counts.unassigned = rows.filter(only({ assignee: 'unassigned' })).length;
  for (const status of invoiceQueueStatuses) counts.byStatus[status] = rows.filter(only({ statuses: [status] })).length;
  return counts;
}

/** The rows shown: filtered, then sorted. */
export function visibleInvoiceQueue(rows: readonly InvoiceQueueRow[], filter: InvoiceQueueFilter, sort: InvoiceQueueSort, context: { me: string; now: number }): InvoiceQueueRow[] {
  return sortInvoiceQueue(rows.filter((row) => inInvoiceQueueFilter(row, filter, context)), sort);
}

/** The share of invoices (documents with invoice fields) that are clean: what bulk approval can take through. */
export function cleanShare(rows: readonly InvoiceQueueRow[]): { invoices: number; clean: number } {
  const invoices = rows.filter((row) => row.isInvoice);
  return { invoices: invoices.length, clean: invoices.filter((row) => row.clean).length };
}
