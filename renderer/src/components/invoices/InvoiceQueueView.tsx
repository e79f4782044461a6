/**
 * The invoice queue (docs/invoice-review.md, "The invoice queue"): one row per document — supplier, number, total,
 * due date, days waiting, status, exceptions, assignee — sorted and filtered on each column, the counts on the chips
 * from the same predicates as the rows (app/invoices/invoiceQueue.ts). Clean invoices can be selected and approved in
 * one action with one confirmation; each is approved as a whole, through the same unit approval as Ctrl+Enter.
 */
import { useEffect, useMemo, useState } from 'react';
import {
  invoiceQueueCounts,
  invoiceQueueStatuses,
  noInvoiceQueueFilter,
  visibleInvoiceQueue,
  type InvoiceQueueFilter,
  type InvoiceQueueRow,
  type InvoiceQueueSort,
  type InvoiceQueueSortKey,
  type InvoiceQueueStatus,
} from '../../../../app/invoices/invoiceQueue.js';
import type { ReplyOf } from '../../../../app/contract/methods.js';
import { useClient } from '../../state/contractContext.js';
import { useInvoiceQueue } from '../../state/useInvoiceQueue.js';
import { InvoiceQueueTable } from './InvoiceQueueTable.js';
import { BulkApproveDialog } from './BulkApproveDialog.js';

interface InvoiceQueueViewProps {
  /** Held by the app, so the queue is as it was left after visiting an invoice. */
  filter: InvoiceQueueFilter;
  onFilter(filter: InvoiceQueueFilter): void;
  sort: InvoiceQueueSort;
  onSort(sort: InvoiceQueueSort): void;
  /** The visible rows' documents in order: Alt+N / Alt+P walk them from an invoice opened here. */
  onVisibleOrder(documentIds: string[]): void;
  onOpen(row: InvoiceQueueRow): void;
}

const statusLabels: Record<InvoiceQueueStatus, string> = { reading: 'Reading', 'in-review': 'In review', reopened: 'Reopened', approved: 'Approved', rejected: 'Rejected' };

export function InvoiceQueueView({ filter, onFilter, sort, onSort, onVisibleOrder, onOpen }: InvoiceQueueViewProps) {
  const client = useClient();
  const { data, error, reload } = useInvoiceQueue();
  const { rows, me } = data;
  // Ages count in whole days: the minute the view was shown is precise enough.
  const [now] = useState(() => Date.now());
  const context = useMemo(() => ({ me, now }), [me, now]);
  const visible = useMemo(() => visibleInvoiceQueue(rows, filter, sort, context), [rows, filter, sort, context]);
  const counts = useMemo(() => invoiceQueueCounts(rows, context), [rows, context]);
  const order = useMemo(() => visible.map((row) => row.documentId), [visible]);
  useEffect(() => onVisibleOrder(order), [order, onVisibleOrder]);

  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  // A selection holds only rows still shown (a filter or a refetch may take some away).
  const selectedRows = useMemo(() => visible.filter((row) => selected.has(row.documentId)), [visible, selected]);
  const selectedClean = selectedRows.filter((row) => row.clean);
  const visibleClean = visible.filter((row) => row.clean);
  const [confirming, setConfirming] = useState(false);
  const [outcome, setOutcome] = useState<string | null>(null);
  const [assignTo, setAssignTo] = useState('');
  const people = useMemo(() => [...new Set([me, ...rows.flatMap((row) => [row.assignee, row.claimedBy, ...row.openBy])].filter((p): p is string => !!p))].sort(), [rows, me]);

  const set = (patch: Partial<InvoiceQueueFilter>) => onFilter({ ...filter, ...patch });
  const sortBy = (key: InvoiceQueueSortKey) => onSort(sort.key === key ? { key, descending: !sort.descending } : { key, descending: key === 'attention' || key === 'age' || key === 'total' || key === 'exceptions' });
  const select = (documentId: string, on: boolean) =>
    setSelected((previous) => {
      const next = new Set(previous);
      if (on) next.add(documentId);
      else next.delete(documentId);
      return next;
    });

  const approve = async () => {
    setConfirming(false);
    try {
      const result: ReplyOf<'invoices.approveClean'> = await client.call('invoices.approveClean', { documentIds: selectedClean.map((row) => row.documentId) });
      const skipped = result.skipped.length ? ` ${result.skipped.length} left as they were: ${result.skipped.map((s) => `${nameOf(rows, s.documentId)} (${s.reason})`).join('; ')}.` : '';
      setOutcome(`Approved ${result.approved.length} invoice${result.approved.length === 1 ? '' : 's'}.${skipped}`);
      setSelected(new Set());
    } catch (caught) {
      setOutcome(`Nothing approved: ${caught instanceof Error ? caught.message : String(caught)}`);
    }
    void reload();
  };

  const assign = async (documentIds: string[], assignee: string | null) => {
    try {
      for (const documentId of documentIds) await client.call('work.assign', { documentId, assignee });
      setOutcome(assignee ? `Assigned ${documentIds.length} to ${assignee}.` : `Took back ${documentIds.length}.`);
    } catch (caught) {
      setOutcome(`Not assigned: ${caught instanceof Error ? caught.message : String(caught)}`);
    }
    void reload();
  };

  const chip = (label: string, count: number, active: boolean, onClick: () => void, testId: string) => (
    <button className={active ? 'chip active' : 'chip'} aria-pressed={active} onClick={onClick} data-testid={testId}>
      {label} <span className="chip-count">{count}</span>
    </button>
  );

  return (
    <main className="curation invoice-queue" aria-label="Invoices" data-testid="invoice-queue-view">
      <div className="curation-header">
        <h2>Invoices</h2>
        <div className="curation-stats" data-testid="invoice-queue-stats">
          <span data-testid="invoice-need-attention">{counts.needAttention} need attention</span>
          <span>{counts.clean} clean</span>
          <span>{counts.all} documents</span>
        </div>
      </div>
      {error && <p className="curation-error error">{error}</p>}
      <div className="curation-filters invoice-filters">
        <span className="filter">
          {chip('All', counts.all, filter.state === '', () => set({ state: '' }), 'invoice-filter-all')}
          {chip('Need attention', counts.needAttention, filter.state === 'attention', () => set({ state: 'attention' }), 'invoice-filter-attention')}
          {chip('Clean', counts.clean, filter.state === 'clean', () => set({ state: 'clean' }), 'invoice-filter-clean')}
          {chip('With exceptions', counts.withExceptions, filter.state === 'exceptions', () => set({ state: 'exceptions' }), 'invoice-filter-exceptions')}
        </span>
        <span className="filter">
          {chip('Mine', counts.mine, filter.assignee === 'mine', () => set({ assignee: filter.assignee === 'mine' ? '' : 'mine' }), 'invoice-filter-mine')}
          {chip('Unassigned', counts.unassigned, filter.assignee === 'unassigned', () => set({ assignee: filter.assignee === 'unassigned' ? '' : 'unassigned' }), 'invoice-filter-unassigned')}
        </span>
      </div>
      <div className="curation-filters invoice-filters">
        <label className="filter">
          <span className="filter-label">Find</span>
          <input type="search" value={filter.text} placeholder="supplier, number, file" onChange={(event) => set({ text: event.target.value })} data-testid="invoice-filter-text" />
        </label>
        <label className="filter">
          <span className="filter-label">Status</span>
          <select value={filter.statuses[0] ?? ''} onChange={(event) => set({ statuses: event.target.value ? [event.target.value as InvoiceQueueStatus] : [] })} data-testid="invoice-filter-status">
            <option value="">Any ({counts.all})</option>
            {invoiceQueueStatuses.map((status) => (
              <option key={status} value={status}>
                {statusLabels[status]} ({counts.byStatus[status]})
              </option>
            ))}
          </select>
        </label>
        <label className="filter">
          <span className="filter-label">Assignee</span>
          <select value={filter.assignee} onChange={(event) => set({ assignee: event.target.value })} data-testid="invoice-filter-assignee">
            <option value="">Anyone</option>
            <option value="mine">Mine</option>
            <option value="unassigned">Unassigned</option>
            {people.map((person) => (
              <option key={person} value={person}>
                {person}
              </option>
            ))}
          </select>
        </label>
        <label className="filter">
          <span className="filter-label">Due by</span>
          <input type="date" value={filter.dueBy} onChange={(event) => set({ dueBy: event.target.value })} data-testid="invoice-filter-due" />
        </label>
        <label className="filter">
          <span className="filter-label">Waiting ≥</span>
          <input type="number" min={0} className="filter-narrow" value={filter.minAgeDays || ''} onChange={(event) => set({ minAgeDays: Math.max(0, Number(event.target.value) || 0) })} />
          <span className="muted">days</span>
        </label>
        <label className="filter">
          <span className="filter-label">Total</span>
          <input type="number" className="filter-narrow" placeholder="from" value={filter.minTotal ?? ''} onChange={(event) => set({ minTotal: event.target.value === '' ? null : Number(event.target.value) })} data-testid="invoice-filter-min-total" />
          <input type="number" className="filter-narrow" placeholder="to" value={filter.maxTotal ?? ''} onChange={(event) => set({ maxTotal: event.target.value === '' ? null : Number(event.target.value) })} />
        </label>
        <label className="filter">
          <span className="filter-label">Currency</span>
          <input className="filter-narrow" value={filter.currency} maxLength={3} placeholder="any" onChange={(event) => set({ currency: event.target.value })} />
        </label>
        {JSON.stringify(filter) !== JSON.stringify(noInvoiceQueueFilter) && (
          <button className="link-button" onClick={() => onFilter(noInvoiceQueueFilter)}>
            Clear filters
          </button>
        )}
      </div>
      <div className="invoice-bulk" role="toolbar" aria-label="Selected invoices">
        <span className="muted" data-testid="invoice-selected-count">
          {selectedRows.length} selected
        </span>
        <button className="button" onClick={() => setSelected(new Set(visibleClean.map((row) => row.documentId)))} disabled={visibleClean.length === 0} data-testid="invoice-select-clean">
          Select clean ({visibleClean.length})
        </button>
        <button className="button primary" onClick={() => setConfirming(true)} disabled={selectedClean.length === 0} data-testid="invoice-approve-clean">
          Approve {selectedClean.length} clean…
        </button>
        <label className="filter">
          <span className="filter-label">Assign to</span>
          <input list="invoice-people" value={assignTo} onChange={(event) => setAssignTo(event.target.value)} placeholder="name" className="filter-narrow" data-testid="invoice-assign-to" />
          <datalist id="invoice-people">
            {people.map((person) => (
              <option key={person} value={person} />
            ))}
          </datalist>
        </label>
        <button className="button" onClick={() => void assign(selectedRows.map((row) => row.documentId), assignTo.trim())} disabled={selectedRows.length === 0 || assignTo.trim() === ''} data-testid="invoice-assign">
          Assign
        </button>
        <button className="button" onClick={() => void assign(selectedRows.map((row) => row.documentId), null)} disabled={selectedRows.length === 0}>
          Unassign
        </button>
        {selectedRows.length > 0 && (
          <button className="link-button" onClick={() => setSelected(new Set())}>
            Clear selection
          </button>
        )}
      </div>
      {outcome && (
        <p className="export-result" role="status" data-testid="invoice-outcome">
          {outcome}
        </p>
      )}
      <div className="curation-list">
        {visible.length === 0 ? (
          <p className="curation-empty">{rows.length === 0 ? 'No documents yet: import invoices to fill the queue.' : 'No invoice matches these filters.'}</p>
        ) : (
          <InvoiceQueueTable rows={visible} sort={sort} onSort={sortBy} selected={selected} onSelect={select} onOpen={onOpen} me={me} now={now} onAssignToMe={(row) => void assign([row.documentId], me)} />
        )}
      </div>
      {confirming && <BulkApproveDialog rows={selectedClean} onConfirm={() => void approve()} onCancel={() => setConfirming(false)} />}
    </main>
  );
}

const nameOf = (rows: readonly InvoiceQueueRow[], documentId: string) => {
  const row = rows.find((r) => r.documentId === documentId);
  return row ? (row.invoiceNumber ?? row.documentName) : documentId;
};
