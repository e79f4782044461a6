/**
 * The duplicate signal beside the fields: the project's other invoices that look like this one (same supplier and
 * number, or same supplier and total within a few days), each a link that opens it; a credit note's link to the
 * invoice it corrects is shown as such, not as a duplicate.
 */
import { matchWording as what, type InvoiceMatch as Match } from '../../state/useInvoiceMatches.js';

/** `matches`: the shown page's (useInvoiceMatches, shared with the pinned summary so they are asked for once). */
export function DuplicateLinks({ matches, onOpen }: { matches: readonly Match[]; onOpen(pageId: string): void }) {
  if (matches.length === 0) return null;
  return (
    <section className="duplicate-links" data-testid="duplicate-links">
      {matches.map((m) => (
        <div key={`${m.kind}:${m.documentId}`} className={m.kind === 'corrects' ? 'invoice-link' : 'invoice-link duplicate'}>
          <span className="signal-chip">{m.kind === 'corrects' ? 'Linked' : 'Duplicate?'}</span> {what[m.kind]}{' '}
          {m.pageId ? (
            <button className="link-button" onClick={() => onOpen(m.pageId!)} data-testid="duplicate-open">
              {m.documentName}
            </button>
          ) : (
            m.documentName
          )}
        </div>
      ))}
    </section>
  );
}
