/**
 * What the pinned summary at the top of the fields panel says about a page, in the order an analyst acts on it:
 * failing rules (each one click from its fields), missing required fields, fields where page and e-invoice XML
 * disagree, other invoices of the project this one may duplicate (each one click from opening it). Pure, from the rule results and the values the panel shows; the panel renders it above the fold.
 */
import type { RuleResult } from '../../../../app/invoice/rules/index.js';
import { scalarFields, valueAt, type EngineFieldValues, type FieldValue } from '../../../../app/invoice/review/index.js';
import { requiredFieldRules } from '../../../../app/review/attention.js';
import { namesAgree } from '../../../../app/einvoice/pageVsXml.js';
import { printsFieldValue } from '../../../../app/einvoice/printedOnPage.js';

/** Amounts closer than this (half a cent) are the same amount. */
const SAME_AMOUNT = 0.005;

export const sameFieldValue = (a: FieldValue | undefined, b: FieldValue | undefined): boolean =>
  typeof a === 'number' && typeof b === 'number' ? Math.abs(a - b) < SAME_AMOUNT : String(a ?? '').trim().toLowerCase() === String(b ?? '').trim().toLowerCase();

const printed = (value: unknown): boolean => value !== null && value !== undefined && value !== '';

/**
 * The scalar fields whose page value differs from the XML's. A value the page does not show is missing from the
 * reading, not in disagreement with the XML.
 */
export function xmlDisagreements(values: EngineFieldValues | null, xml: Partial<EngineFieldValues> | null, pageText?: string): string[] {
  if (!values || !xml) return [];
  return scalarFields
    .filter((field) => {
      const page = valueAt(values, field.key);
      const fromXml = xml[field.key] as FieldValue | undefined;
      if (!printed(page) || !printed(fromXml)) return false;
      // Names as the queue compares them (pageVsXml.ts): legal form, case, punctuation and broken words aside.
      const differs = field.key === 'seller' || field.key === 'buyer' ? !namesAgree(String(page), String(fromXml)) : !sameFieldValue(page, fromXml);
      // As the approval's exceptions (main/store/curation/attention.ts): where the page prints the XML's value too,
      // the reader took another printed value — a reading doubt, not a disagreement of the document.
      return differs && !(pageText !== undefined && printsFieldValue(pageText, field.key, fromXml as string | number));
    })
    .map((field) => field.key);
}

export interface SummaryRule {
  /** Index into the page's rule results (what the rule list and "next failing rule" select by); -1 for a document rule outside that list. */
  index: number;
  rule: string;
  message: string;
  /** For a rule outside the page's list (a payment field's check): the field it is about, selected instead. */
  field?: string;
}

/** Another invoice this one looks like (the `duplicate` attention signal), with the page that opens it. */
export interface SummaryDuplicate {
  documentName: string;
  /** Null where that invoice has no page to open (its pages were removed). */
  pageId: string | null;
  /** Why it looks like one, in words ("Same supplier and invoice number as"). */
  why: string;
}

export interface FailureSummary {
  /** The page has been read (an unread page holds no rules: it is "not read yet", not "all hold"). */
  read: boolean;
  /** Some invoice field was read or entered: with none, no rule had anything to check — never "all hold". */
  fieldsRead: boolean;
  failing: SummaryRule[];
  missing: SummaryRule[];
  /** Field keys whose page value differs from the XML's. */
  disagreements: string[];
  duplicates: SummaryDuplicate[];
  /** The document carries an e-invoice XML the page was compared with. */
  withXml: boolean;
  /** Nothing to act on. */
  clear: boolean;
}

/** What the page's own rules do not hold: the payment fields' rules checked on the main side (app/invoices/paymentRules.ts), other invoices this one looks like. */
export interface SummaryExtras {
  /** Failing rules outside the page's list: the payment fields' checks, the e-invoice's fatal EN 16931 failures. */
  documentRules?: readonly RuleResult[];
  /** Whether any invoice field has a value (default true). */
  fieldsRead?: boolean;
  duplicates?: readonly SummaryDuplicate[];
  /** Whether the document carries an e-invoice XML (default false: a scan, a receipt, a PDF without one). */
  withXml?: boolean;
}

export function summarizeFailures(rules: readonly RuleResult[], disagreements: readonly string[], read: boolean, { documentRules = [], duplicates = [], fieldsRead = true, withXml = false }: SummaryExtras = {}): FailureSummary {
  const failing: SummaryRule[] = [];
  const missing: SummaryRule[] = [];
  rules.forEach((result, index) => {
    if (result.status !== 'fail') return;
    (requiredFieldRules.has(result.rule) ? missing : failing).push({ index, rule: result.rule, message: result.message });
  });
  for (const result of documentRules) {
    if (result.status === 'fail') failing.push({ index: -1, rule: result.rule, message: result.message, field: result.fields[0] });
  }
  const toActOn = failing.length + missing.length + disagreements.length + duplicates.length;
  return { read, fieldsRead, failing, missing, disagreements: [...disagreements], duplicates: [...duplicates], withXml, clear: read && fieldsRead && toActOn === 0 };
}

/** What the summary says where nothing is to act on: the page and its XML agreeing only where there is an XML. */
export const clearMessage = (summary: Pick<FailureSummary, 'withXml'>): string => (summary.withXml ? 'Every rule that applies holds; page and XML agree.' : 'Every rule that applies holds.');

export const fieldLabel = (key: string): string => scalarFields.find((field) => field.key === key)?.label ?? key;

/** A group's entries once per rule (a rule failing on three lines is one chip, ×3), selecting its first failure. */
export function byRule(entries: readonly SummaryRule[]): (SummaryRule & { count: number })[] {
  const grouped = new Map<string, SummaryRule & { count: number }>();
  for (const entry of entries) {
    const known = grouped.get(entry.rule);
    if (known) known.count++;
    else grouped.set(entry.rule, { ...entry, count: 1 });
  }
  return [...grouped.values()];
}
