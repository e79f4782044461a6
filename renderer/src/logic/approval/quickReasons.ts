/**
 * The reasons an analyst gives most for approving over exceptions, offered in the approval prompt under Alt+1…Alt+9
 * so the usual case is one chord and Enter instead of a sentence typed for every invoice. One per kind of exception
 * the prompt lists, worded for that kind, then the general one. The prompt stays (nothing is approved silently) and the
 * reason chosen is kept like a typed one. Exceptions that need the analyst's own words get none: a new bank account
 * (the approval-integrity rule: a payee change is confirmed out of band, and the reason says how) — with one listed,
 * no quick reason is offered at all.
 */
import type { ApprovalException } from '../../../../app/contract/approval.js';

type Kind = ApprovalException['kind'];

const byKind: Partial<Record<Kind, string>> = {
  'xml-disagreement': 'Checked: the e-invoice XML is right where the page reads otherwise',
  'missing-field': 'Checked: the missing value is not on the invoice and not needed to pay it',
  'failed-rule': 'Checked against the document: it is as printed',
  duplicate: 'Checked: not a duplicate of the invoice listed',
  'po-match': 'Checked against the purchase order',
  'vendor-master': 'Checked against the vendor master',
};

const general = 'Checked against the document';

/** Kinds whose exception needs a reason in the analyst's own words. */
const ownWordsOnly: ReadonlySet<Kind> = new Set(['bank-account']);

/** The quick reasons for these exceptions, in the order listed (at most nine: Alt+1…Alt+9). */
export function quickReasons(exceptions: readonly Pick<ApprovalException, 'kind'>[]): string[] {
  if (exceptions.some((exception) => ownWordsOnly.has(exception.kind))) return [];
  const reasons: string[] = [];
  for (const { kind } of exceptions) {
    const reason = byKind[kind];
    if (reason && !reasons.includes(reason)) reasons.push(reason);
  }
  if (!reasons.includes(general)) reasons.push(general);
  return reasons.slice(0, 9);
}

/** The quick reason an Alt+digit chord picks (KeyboardEvent.code, which Alt does not change on any layout), or null. */
export function quickReasonForKey(reasons: readonly string[], event: { altKey: boolean; ctrlKey: boolean; metaKey: boolean; code: string }): string | null {
  if (!event.altKey || event.ctrlKey || event.metaKey) return null;
  const digit = /^Digit([1-9])$/.exec(event.code);
  return digit ? (reasons[Number(digit[1]) - 1] ?? null) : null;
}
