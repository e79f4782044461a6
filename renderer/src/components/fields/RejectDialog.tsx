/** Asks why a page is rejected; the reason is kept with the page's review status. Enter confirms, Escape cancels. */
import { useEffect, useRef, useState } from 'react';

export function RejectDialog({ onReject, onCancel }: { onReject(reason: string): void; onCancel(): void }) {
  const [reason, setReason] = useState('');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  const submit = () => {
    if (reason.trim()) onReject(reason.trim());
  };
  return (
    <div className="dialog-backdrop" role="presentation" onClick={onCancel}>
      <form
        className="dialog reject-dialog"
        role="dialog"
        aria-modal="true"
        aria-label="Reject page"
        data-testid="reject-dialog"
        onClick={(event) => event.stopPropagation()}
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onCancel();
        }}
      >
        <h2>Reject this page</h2>
        <label>
          Reason
          <input ref={input} className="text-input" value={reason} maxLength={500} onChange={(event) => setReason(event.target.value)} placeholder="e.g. not an invoice, unreadable scan, duplicate" />
        </label>
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={!reason.trim()}>
            Reject
          </button>
        </div>
      </form>
    </div>
  );
}
