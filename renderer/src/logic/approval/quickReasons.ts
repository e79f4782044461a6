/**
 * The reasons an analyst gives most for approving over exceptions, offered in the approval prompt under Alt+Shift+1…9 (or the plain digit while focus is not in the reason's text box)
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

/** The quick reasons for these exceptions, in the order listed (at most nine: Alt+Shift+1…9). */
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

/**
 * The quick reason a key picks, by the digit key's position (KeyboardEvent.code: no layout or modifier changes it):
 * Alt+Shift+digit anywhere in the prompt, or a plain digit where focus is not in the reason's text box (`inText`),
 * where it types. Not Alt+digit: Chrome and Firefox on Linux take Alt+1…9 for switching tabs in the browser shell
 * (docs/invoice-review.md, "Approval prompt").
 */
export function quickReasonForKey(
  reasons: readonly string[],
  event: { altKey: boolean; shiftKey: boolean; ctrlKey: boolean; metaKey: boolean; code: string },
  inText: boolean,
): string | null {
  if (event.ctrlKey || event.metaKey) return null;
  const chord = event.altKey && event.shiftKey;
  const plain = !event.altKey && !event.shiftKey && !inText;
  if (!chord && !plain) return null;
  const digit = /^Digit([1-9])$/.exec(event.code);
  return digit ? (reasons[Number(digit[1]) - 1] ?? null) : null;
}
