/** The one confirmation of a bulk approval: which invoices, that each is approved as a whole. Escape cancels. */
import { useEffect, useRef } from 'react';
import type { InvoiceQueueRow } from '../../../../app/invoices/invoiceQueue.js';

interface BulkApproveDialogProps {
  rows: readonly InvoiceQueueRow[];
  onConfirm(): void;
  onCancel(): void;
}

/** Invoices listed by name in the question; the rest counted. */
const LISTED = 12;

export function BulkApproveDialog({ rows, onConfirm, onCancel }: BulkApproveDialogProps) {
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => confirm.current?.focus(), []);
  return (
    <div
      className="modal-backdrop"
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onCancel();
        }
      }}
    >
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby="bulk-approve-title" data-testid="bulk-approve-dialog">
        <h3 id="bulk-approve-title">
          Approve {rows.length} clean invoice{rows.length === 1 ? '' : 's'}?
        </h3>
        <p className="muted">Each is approved as a whole (all its pages), in its own approval under your name. None has an exception or a doubtful value; any that gained one since is left as it is.</p>
        <ul className="bulk-approve-list">
          {rows.slice(0, LISTED).map((row) => (
            <li key={row.documentId}>
              {row.supplier ?? row.documentName} · {row.invoiceNumber ?? '—'} · {row.total === null ? '—' : row.total.toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 })} {row.currency ?? ''}
            </li>
          ))}
          {rows.length > LISTED && <li className="muted">and {rows.length - LISTED} more</li>}
        </ul>
        <div className="modal-actions">
          <button className="button" onClick={onCancel}>
            Cancel
          </button>
          <button ref={confirm} className="button primary" onClick={onConfirm} data-testid="bulk-approve-confirm">
            Approve {rows.length}
          </button>
        </div>
      </div>
    </div>
  );
}
