/**
 * The EN 16931 report of the shown page's document's e-invoice (`einvoice.validation`): null when the document
 * carries none. Asked again when a page of the document changes (a saved field correction emits page.updated), so
 * the report follows the analyst's edits; the main side re-runs only the rules that read the edited field.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { EInvoiceValidation } from '../../../app/contract/einvoiceValidation.js';
import { useClient, useContractEvent, useOnReconnect } from './contractContext.js';

export function useEInvoiceValidation(pageId: string | null, documentId: string | null) {
  const client = useClient();
  const [report, setReport] = useState<EInvoiceValidation | null>(null);
  const asked = useRef(0);
  const reload = useCallback(async () => {
    const serial = ++asked.current;
    if (!pageId) {
      setReport(null);
      return;
    }
    try {
      const reply = await client.call('einvoice.validation', { pageId });
      // A reply for a page no longer shown is dropped.
      if (serial === asked.current) setReport(reply);
    } catch {
      if (serial === asked.current) setReport(null);
    }
  }, [client, pageId]);
  useEffect(() => {
    void reload();
  }, [reload]);
  useContractEvent('page.updated', ({ documentId: changed }) => {
    if (changed === documentId) void reload();
  });
  useOnReconnect(() => void reload());
  return report;
}
