/**
 * Asks why a page or document is approved over its exceptions, listing them first (a document's, page by page).
 * Enter confirms with the reason typed — or picked from the quick reasons with Alt+Shift+1…9, or the digit alone where focus is not in the text box
 * (quickReasons.ts: Alt+digit belongs to the browser's tabs) —
 * Escape cancels; the approval is then kept as "approved with exceptions" with the reviewer, the time and the reason.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { isMac } from '../../state/keyContext.js';
import { quickReasonForKey, quickReasons } from '../../logic/approval/quickReasons.js';
import { usePendingApproval } from './approvalGate.js';

const kindNames = { 'failed-rule': 'Failed rule', 'missing-field': 'Missing field', 'xml-disagreement': 'Page ≠ XML', duplicate: 'Duplicate?', 'bank-account': 'New bank account', 'po-match': 'Purchase order', 'vendor-master': 'Vendor master' } as const;

export function ApprovalPrompt() {
  const pending = usePendingApproval();
  const [reason, setReason] = useState('');
  const input = useRef<HTMLTextAreaElement>(null);
  const quick = useMemo(() => (pending ? quickReasons(pending.exceptions) : []), [pending]);
  useEffect(() => {
    setReason('');
    if (pending) input.current?.focus();
  }, [pending]);
  if (!pending) return null;
  const submit = () => {
    if (reason.trim()) pending.confirm(reason.trim());
  };
  return (
    <div className="dialog-backdrop" role="presentation" onClick={pending.cancel}>
      <form
        className="dialog approval-prompt"
        role="dialog"
        aria-modal="true"
        aria-label="Approve with exceptions"
        data-testid="approval-prompt"
        onClick={(event) => event.stopPropagation()}
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        onKeyDown={(event) => {
          const picked = quickReasonForKey(quick, event, event.target instanceof HTMLTextAreaElement || event.target instanceof HTMLInputElement);
          if (picked) {
            event.preventDefault();
            setReason(picked);
            return;
          }
          if (event.key === 'Escape') pending.cancel();
          if (event.key === 'Enter' && !event.shiftKey) {
            event.preventDefault();
            submit();
          }
        }}
      >
        <h2>Approve {pending.scope === 'document' ? 'this document' : 'this page'} with {pending.exceptions.length} exception{pending.exceptions.length === 1 ? '' : 's'}?</h2>
        {pending.scope === 'document' ? (
          <p className="approval-pages" data-testid="approval-pages">
            Approves the whole document: page{pending.pageNumbers.length === 1 ? '' : 's'} {pending.pageNumbers.join(', ')}
          </p>
        ) : null}
        <ul className="approval-exceptions" data-testid="approval-exceptions">
          {pending.exceptions.map((exception, index) => (
            <li key={index} className={`approval-exception ${exception.kind}`}>
              <span className="signal-chip">{kindNames[exception.kind]}</span>
              {pending.scope === 'document' ? <span className="approval-page">p. {exception.pageNumber}</span> : null}
              <span className="approval-detail">{exception.detail}</span>
            </li>
          ))}
        </ul>
        {quick.length > 0 && (
          <ol className="quick-reasons" data-testid="quick-reasons" aria-label="Quick reasons">
            {quick.map((text, index) => (
              <li key={text}>
                <button type="button" className={reason === text ? 'text-button active' : 'text-button'} data-quick-reason={index + 1} onClick={() => (setReason(text), input.current?.focus())}>
                  <kbd>{isMac ? '⌥⇧' : 'Alt+Shift+'}{index + 1}</kbd> {text}
                </button>
              </li>
            ))}
          </ol>
        )}
        <label>
          Why approve anyway? (kept with the approval, shown in the queue and every export)
          <textarea ref={input} className="text-input" rows={2} value={reason} maxLength={2000} onChange={(event) => setReason(event.target.value)} placeholder="e.g. supplier confirmed the total by phone" data-testid="approval-reason" />
        </label>
        <div className="dialog-actions">
          <span className="hint">Enter approves with this reason · Esc cancels</span>
          <button type="button" className="button" onClick={pending.cancel}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={!reason.trim()}>
            Approve with exceptions
          </button>
        </div>
      </form>
    </div>
  );
}
