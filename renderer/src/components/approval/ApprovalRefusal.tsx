/**
 * Why an approval was refused in team mode (docs/team-mode.md): the server's words, which name the rule — the
 * account's role ("roles: …") or four eyes ("four-eyes: Ann changed total last on this invoice …"). Enter, Escape or
 * OK closes it; nothing was approved.
 */
import { useEffect, useRef } from 'react';
import { setApprovalRefusal, useApprovalRefusal } from './approvalGate.js';

export function ApprovalRefusal() {
  const message = useApprovalRefusal();
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (message) button.current?.focus();
  }, [message]);
  if (!message) return null;
  const close = () => setApprovalRefusal(null);
  return (
    <div className="dialog-backdrop" role="presentation" onClick={close}>
      <div
        className="dialog approval-refused"
        role="alertdialog"
        aria-modal="true"
        aria-label="Approval refused"
        data-testid="approval-refused"
        onClick={(event) => event.stopPropagation()}
        onKeyDown={(event) => {
          if (event.key === 'Escape' || event.key === 'Enter') {
            event.preventDefault();
            close();
          }
        }}
      >
        <h2>Not approved</h2>
        <p data-testid="approval-refused-reason">{message}</p>
        <div className="dialog-actions">
          <button ref={button} type="button" className="button primary" onClick={close}>
            OK
          </button>
        </div>
      </div>
    </div>
  );
}
