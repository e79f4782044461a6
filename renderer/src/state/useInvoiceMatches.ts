/**
 * The project's other invoices that look like the shown page's (`invoice.matches`: same supplier and number, same
 * supplier and total a few days apart, the same file) and the invoices it corrects — asked once per page, for the
 * pinned summary's duplicate group and the links under the fields alike. Asked once the page is painted (whenIdle.ts);
 * a page's matches are never shown beside another page.
 */
import { useCallback, useEffect, useState } from 'react';
import type { InvoiceMatchView } from '../../../app/contract/approval.js';
import { useClient, useContractEvent } from './contractContext.js';
import { whenIdle } from './whenIdle.js';
import { keepIfSame } from '../logic/sameAnswer.js';

export type InvoiceMatch = InvoiceMatchView & { pageId: string | null };

/** How each kind of match reads before the other invoice's name. */
export const matchWording: Record<InvoiceMatch['kind'], string> = {
  'same-number': 'Same supplier and invoice number as',
  'same-total-and-date': 'Same supplier and total, a few days apart, as',
  'same-file': 'Same file as',
  corrects: 'Corrects',
};

const none: InvoiceMatch[] = [];

export function useInvoiceMatches(pageId: string | null): InvoiceMatch[] {
  const client = useClient();
  const [shown, setShown] = useState<{ pageId: string; matches: InvoiceMatch[] } | null>(null);
  const load = useCallback(() => {
    if (!pageId) return;
    // The same answer again (after every save of the page) keeps the same state: no render of the review screen.
    const show = (matches: InvoiceMatch[]) =>
      setShown((previous) => keepIfSame(previous, { pageId, matches }));
    void client.call('invoice.matches', { pageId }).then(show, () => show(none));
  }, [client, pageId]);
  useEffect(() => whenIdle(load), [load]);
  // An approval, a re-read or a field correction anywhere may make or break a match.
  useContractEvent('page.updated', () => whenIdle(load));
  return shown && shown.pageId === pageId ? shown.matches : none;
}

/** Matches that make the invoice look like a duplicate (a credit note's link to what it corrects is not one). */
export const duplicatesOf = (matches: readonly InvoiceMatch[]): InvoiceMatch[] => matches.filter((match) => match.kind !== 'corrects');
