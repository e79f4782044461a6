/**
 * The duplicate signal beside the fields: the project's other invoices that look like this one (same supplier and
 * number, or same supplier and total within a few days), each a link that opens it; a credit note's link to the
 * invoice it corrects is shown as such, not as a duplicate.
 */
import { useCallback, useEffect, useState } from 'react';
import type { InvoiceMatchView } from '../../../../app/contract/approval.js';
import { useClient, useContractEvent } from '../../state/contractContext.js';

type Match = InvoiceMatchView & { pageId: string | null };

const what: Record<Match['kind'], string> = {
  'same-number': 'Same supplier and invoice number as',
  'same-total-and-date': 'Same supplier and total, a few days apart, as',
  'same-file': 'Same file as',
  corrects: 'Corrects',
};

export function DuplicateLinks({ pageId, onOpen }: { pageId: string | null; onOpen(pageId: string): void }) {
  const client = useClient();
  const [matches, setMatches] = useState<Match[]>([]);
  const load = useCallback(() => {
    if (!pageId) return setMatches([]);
    void client.call('invoice.matches', { pageId }).then(setMatches, () => setMatches([]));
  }, [client, pageId]);
  useEffect(load, [load]);
  useContractEvent('page.updated', load);
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
