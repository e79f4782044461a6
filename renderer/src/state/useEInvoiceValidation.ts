/**
 * The EN 16931 report of the shown page's document's e-invoice (`einvoice.validation`): null when the document
 * carries none. Asked again when a page of the document changes (a saved field correction emits page.updated), and
 * while a field is being typed: the entry is sent as an unsaved draft, so the report follows the keystrokes; the main
 * side re-runs only the rules that read the edited field. Cancelling the edit asks again without the draft.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { EInvoiceValidation } from '../../../app/contract/einvoiceValidation.js';
import type { FieldValue } from '../../../app/invoice/review/index.js';
import { FIELD_TERMS, type ValidatedField } from '../../../app/review/einvoiceValidation.js';
import { useClient, useContractEvent, useOnReconnect } from './contractContext.js';
import { whenIdle } from './whenIdle.js';
import { keepIfSame } from '../logic/sameAnswer.js';

/** A burst of keystrokes becomes one request: typing at 10 keys a second re-validates at most this often. */
export const DRAFT_DEBOUNCE_MS = 100;

interface Draft {
  field: ValidatedField;
  value: FieldValue;
}

function isValidatedField(field: string): field is ValidatedField {
  return Object.hasOwn(FIELD_TERMS, field);
}

export function useEInvoiceValidation(pageId: string | null, documentId: string | null) {
  const client = useClient();
  const [report, setReport] = useState<EInvoiceValidation | null>(null);
  const asked = useRef(0);
  const draft = useRef<Draft | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const reload = useCallback(async () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const serial = ++asked.current;
    if (!pageId) {
      setReport(null);
      return;
    }
    const drafts = draft.current ? [draft.current] : undefined;
    try {
      const reply = await client.call('einvoice.validation', drafts ? { pageId, drafts } : { pageId });
      // Only the latest request's reply is shown: one for a page no longer shown, or overtaken by a newer
      // keystroke, is dropped.
      // The same report again (after every save of the page) keeps the same state: no render of the review screen.
      if (serial === asked.current) setReport((previous) => keepIfSame(previous, reply));
    } catch {
      if (serial === asked.current) setReport(null);
    }
  }, [client, pageId]);
  const reloadSoon = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => void reload(), DRAFT_DEBOUNCE_MS);
  }, [reload]);
  useEffect(() => {
    draft.current = null;
    // Asked once the new page is painted (whenIdle.ts); a page stepped past before then is never asked for.
    const cancel = whenIdle(() => void reload());
    return () => {
      cancel();
      if (timer.current) clearTimeout(timer.current);
    };
  }, [reload]);
  useContractEvent('page.updated', ({ documentId: changed }) => {
    // Once idle: a field saved announces itself at once, and its rules are what the analyst looks at first.
    if (changed === documentId) whenIdle(() => void reload());
  });
  useOnReconnect(() => void reload());

  /**
   * The field being typed and its entry as parsed so far (undefined: the edit ended, the saved values count again).
   * Fields the e-invoice rules do not read change nothing.
   */
  const preview = useCallback(
    (field: string, value: FieldValue | undefined) => {
      if (!isValidatedField(field)) return;
      if (value === undefined) {
        if (draft.current?.field !== field) return;
        draft.current = null;
      } else {
        if (draft.current?.field === field && draft.current.value === value) return;
        draft.current = { field, value };
      }
      reloadSoon();
    },
    [reloadSoon],
  );
  return { report, preview };
}
