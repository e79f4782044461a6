/**
 * Required fields of EN 16931 that a page can show (a subset of BR-01 … BR-16: the rest — specification identifier,
 * type code, country codes — exist only in the XML), and the date order a clerk checks: due date not before issue.
 */
import { plainFormat, type RuleFormat } from './money.js';
import { isKnown, type RuleInvoice, type RuleResult } from './ruleTypes.js';

interface Required {
  rule: string;
  field: keyof RuleInvoice;
  /** The business term as EN 16931 names it. */
  term: string;
}

const required: Required[] = [
  { rule: 'BR-02', field: 'invoice_number', term: 'Invoice number (BT-1)' },
  { rule: 'BR-03', field: 'issue_date', term: 'Invoice issue date (BT-2)' },
  { rule: 'BR-05', field: 'currency', term: 'Invoice currency code (BT-5)' },
  { rule: 'BR-06', field: 'seller', term: 'Seller name (BT-27)' },
  { rule: 'BR-07', field: 'buyer', term: 'Buyer name (BT-44)' },
  { rule: 'BR-14', field: 'total', term: 'Invoice total amount with VAT (BT-112)' },
];

const present = (value: unknown): boolean => (typeof value === 'number' ? isKnown(value) : typeof value === 'string' ? value.trim() !== '' : false);

/** `format`: amounts print as the document prints them, like every other rule's message (BR-14's total). */
export function requiredFields(invoice: RuleInvoice, format: RuleFormat = plainFormat): RuleResult[] {
  return required.map(({ rule, field, term }) => {
    const value = invoice[field];
    const ok = present(value);
    return {
      rule,
      title: `${term} present`,
      status: ok ? 'pass' : 'fail',
      message: ok ? `${term}: ${typeof value === 'number' ? format.amount(value) : String(value)}.` : `${term} is missing.`,
      fields: [field],
    };
  });
}

const isoDate = /^\d{4}-\d{2}-\d{2}$/;

/** Due date (BT-9) on or after the issue date (BT-2). ISO dates compare as strings. */
export function dueAfterIssue(invoice: RuleInvoice): RuleResult {
  const rule = 'DUE-DATE';
  const title = 'Due date on or after issue date';
  const { issue_date: issue, due_date: due } = invoice;
  if (!issue || !due || !isoDate.test(issue) || !isoDate.test(due)) {
    return { rule, title, status: 'not-applicable', message: !due ? 'No due date printed.' : 'No issue date to compare with.', fields: [] };
  }
  const ok = due >= issue;
  return { rule, title, status: ok ? 'pass' : 'fail', message: `Due date ${due} ${ok ? '≥' : '<'} issue date ${issue}.`, fields: ['issue_date', 'due_date'] };
}
