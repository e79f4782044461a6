/**
 * Four eyes (docs/team-mode.md): the person who approves an invoice is not the one who last changed what it pays —
 * its amounts or its payment fields. A field counts as changed by whoever made its newest revision (a correction or
 * an undo alike); an analyst who corrected the total and was corrected again by a colleague may approve.
 *
 * What is guarded: every amount and quantity (the totals, line and VAT cells: a price times a quantity is an amount),
 * the currency and the document type (a credit note turns the sign), the due date (when it is paid) and the payment
 * fields (IBAN, BIC, VAT IDs, terms, order and contract references: to whom and against what). Names, dates of issue,
 * descriptions and addresses are not: correcting them does not change what leaves the account.
 */
import { DOCUMENT_TYPE_PATH } from '../invoice/documentType.js';
import { paymentFieldCatalogue, type PaymentFieldKey } from '../invoice/fieldCatalogue.js';
import { kindOf, parsePaymentPath } from '../invoice/review/fieldPaths.js';
import type { PaymentValues } from './reviewedInvoice.js';

/** The rule's name, as refusals and the audit trail say it. */
export const FOUR_EYES_RULE = 'four-eyes';

const paymentGroup = new Set<string>(paymentFieldCatalogue.filter((f) => f.group === 'payment').map((f) => f.key));

/** Whether a field path is one four eyes guards (an amount, a quantity, the currency, the due date, a payment field). */
export function isFourEyesPath(path: string): boolean {
  if (path === DOCUMENT_TYPE_PATH || path === 'due_date') return true;
  const payment = parsePaymentPath(path);
  if (payment) return paymentGroup.has(payment);
  const kind = kindOf(path);
  return kind === 'amount' || kind === 'number' || kind === 'currency';
}

/** Names compared as account names are (trimmed, case-insensitive: accounts.name is unique without case). */
export const samePerson = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The guarded paths whose newest revision (in the order given: oldest first) is by `person`. */
export function correctedLastBy(revisions: readonly { field: string; author: string }[], person: string): string[] {
  const last = new Map<string, string>();
  for (const r of revisions) if (isFourEyesPath(r.field)) last.set(r.field, r.author);
  return [...last].filter(([, author]) => samePerson(author, person)).map(([path]) => path);
}

/** The payment fields (payment group) whose value read from the page text differs between two readings of it. */
export function paymentFieldsChanged(before: PaymentValues, after: PaymentValues): PaymentFieldKey[] {
  return paymentFieldCatalogue.filter((f) => f.group === 'payment' && (before[f.key] ?? null) !== (after[f.key] ?? null)).map((f) => f.key);
}
