/**
 * Required fields of EN 16931 that a page can show (a subset of BR-01 … BR-16: the rest — specification identifier,
 * type code, country codes — exist only in the XML), and the date order a clerk checks: due date not before issue.
 * Which fields: the catalogue's `checkedOnPage` ones (fieldCatalogue.ts). The line total (BR-12), the total without
 * VAT (BR-13) and the amount due (BR-15) are mandatory in the XML too, but a page leaves them implicit where they equal
 * another amount (no allowances, no VAT, nothing prepaid): the arithmetic rules check them where printed.
 */
import { invoiceFieldCatalogue, type BusinessRule, type ScalarFieldKey } from '../fieldCatalogue.js';
import { invoiceOnlyRules } from '../documentType.js';
import { plainFormat, type RuleFormat } from './money.js';
import { isKnown, type RuleInvoice, type RuleResult } from './ruleTypes.js';

interface Required {
  rule: BusinessRule;
  field: ScalarFieldKey;
  /** The business term as EN 16931 names it. */
  term: string;
}

const required: Required[] = invoiceFieldCatalogue
  .flatMap((f): Required[] => (f.checkedOnPage && f.requiredBy ? [{ rule: f.requiredBy, field: f.key, term: `${f.term} (${f.bt})` }] : []))
  .sort((a, b) => a.rule.localeCompare(b.rule, 'en', { numeric: true }));

const present = (value: unknown): boolean => (typeof value === 'number' ? isKnown(value) : typeof value === 'string' ? value.trim() !== '' : false);

/** `format`: amounts print as the document prints them, like every other rule's message (BR-14's total). */
export function requiredFields(invoice: RuleInvoice, format: RuleFormat = plainFormat): RuleResult[] {
  return required.map(({ rule, field, term }) => {
    if (invoice.document_type === 'receipt' && invoiceOnlyRules.has(rule)) {
      return { rule, title: `${term} present`, status: 'not-applicable', message: `${term}: not required on a receipt.`, fields: [field] };
    }
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
