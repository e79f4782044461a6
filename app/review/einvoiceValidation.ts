/**
 * The EN 16931 validation report of a document's e-invoice, as the review screen shows it: failures grouped by the
 * invoice field they concern (fatal groups first), and live re-validation when the analyst edits a field — the edit
 * is applied to the semantic model read from the XML and only the rules that read the edited business term run again.
 * Pure (renderer and main side alike).
 */
import type { RuleFailure, SemanticInvoice, Term, ValidationReport } from '../en16931/index.js';
import { invoiceFieldCatalogue, type ScalarField } from '../invoice/fieldCatalogue.js';
import type { RuleResult } from '../invoice/rules/ruleTypes.js';
import { rulesFor } from '../en16931/rules/index.js';
import { CII_TEXT, UBL_TEXT } from '../en16931/rules/schematronText.js';

/** Page invoice fields and the EN 16931 business term each is: the catalogue's (app/invoice/fieldCatalogue.ts). */
export const FIELD_TERMS = Object.fromEntries(invoiceFieldCatalogue.map((f) => [f.key, f.bt])) as { readonly [F in ScalarField as F['key']]: F['bt'] };
export type ValidatedField = keyof typeof FIELD_TERMS;

const TERM_FIELDS = new Map<string, ValidatedField>(Object.entries(FIELD_TERMS).map(([field, bt]) => [bt, field as ValidatedField]));

export interface FailureGroup {
  /** The page field the failures concern, or null when none of their terms is a page field. */
  field: ValidatedField | null;
  /** The business term that named the group (the field's, else the failures' first). */
  term: string;
  fatal: number;
  failures: RuleFailure[];
}

/** The page field a failure concerns: the first of its terms that is one. */
export function fieldOfFailure(failure: Pick<RuleFailure, 'bt'>): ValidatedField | null {
  for (const bt of failure.bt) {
    const field = TERM_FIELDS.get(bt);
    if (field) return field;
  }
  return null;
}

/** Failures grouped by field (or by first term), groups with a fatal failure first, then by term order. */
/** The group heading of schema findings (the XSD layer), listed first among fatal groups. */
export const SCHEMA_GROUP = 'XML schema';

export function groupFailures(failed: readonly RuleFailure[]): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const failure of failed) {
    // Schema findings are about the XML's structure, on no field: one group of their own.
    const field = failure.layer === 'schema' ? null : fieldOfFailure(failure);
    const term = failure.layer === 'schema' ? SCHEMA_GROUP : field ? FIELD_TERMS[field] : (failure.bt[0] ?? 'document');
    const group = groups.get(term) ?? { field, term, fatal: 0, failures: [] };
    group.failures.push(failure);
    if (failure.flag === 'fatal') group.fatal++;
    groups.set(term, group);
  }
  for (const group of groups.values()) group.failures.sort((a, b) => (a.flag === b.flag ? 0 : a.flag === 'fatal' ? -1 : 1));
  const termNumber = (term: string) => Number(/\d+/.exec(term)?.[0] ?? Number.MAX_SAFE_INTEGER);
  const schemaFirst = (g: FailureGroup) => (g.term === SCHEMA_GROUP ? 0 : 1);
  return [...groups.values()].sort((a, b) => (b.fatal > 0 ? 1 : 0) - (a.fatal > 0 ? 1 : 0) || schemaFirst(a) - schemaFirst(b) || termNumber(a.term) - termNumber(b.term));
}

function term(text: string, like?: Term): Term {
  return { text, attrs: like?.attrs ?? {} };
}

/** Replaces the first of a repeated term (or adds it); null removes them all. */
function replaceFirst(terms: readonly Term[], text: string | null): Term[] {
  if (text === null) return [];
  return [term(text, terms[0]), ...terms.slice(1)];
}

function isoToSyntaxDate(inv: SemanticInvoice, iso: string): string {
  // CII writes dates as format 102 (yyyymmdd); the page's fields are ISO.
  return inv.syntax === 'cii' ? iso.replace(/-/g, '') : iso;
}

/**
 * The invoice with one page field set to the analyst's value (null: the field cleared). Amounts are written with two
 * decimals, as the review screen shows them.
 */
export function applyFieldEdit(inv: SemanticInvoice, field: ValidatedField, value: string | number | null): SemanticInvoice {
  const text = value === null ? null : typeof value === 'number' ? value.toFixed(2) : value;
  const totalsWith = (key: 'lineExtension' | 'allowanceTotal' | 'chargeTotal' | 'taxExclusive' | 'taxInclusive' | 'prepaid' | 'payable' | 'taxTotal') => {
    const totals = inv.totals[0] ?? { lineExtension: [], taxExclusive: [], taxInclusive: [], allowanceTotal: [], chargeTotal: [], prepaid: [], rounding: [], payable: [], taxTotal: [] };
    return { ...inv, totals: [{ ...totals, [key]: replaceFirst(totals[key], text) }, ...inv.totals.slice(1)] };
  };
  switch (field) {
    case 'invoice_number':
      return { ...inv, number: text === null ? undefined : term(text, inv.number) };
    case 'issue_date':
      return { ...inv, issueDate: text === null ? undefined : term(isoToSyntaxDate(inv, text), inv.issueDate) };
    case 'currency':
      return { ...inv, currencies: replaceFirst(inv.currencies, text) };
    case 'due_date':
      return inv; // BT-9 is read by no rule of the schematron on its own value
    case 'seller':
      return { ...inv, seller: { ...inv.seller, name: text === null ? undefined : term(text, inv.seller.name) } };
    case 'buyer':
      return { ...inv, buyer: { ...inv.buyer, name: text === null ? undefined : term(text, inv.buyer.name) } };
    case 'line_total':
      return totalsWith('lineExtension');
    case 'allowances':
      return totalsWith('allowanceTotal');
    case 'charges':
      return totalsWith('chargeTotal');
    case 'subtotal':
      return totalsWith('taxExclusive');
    case 'total':
      return totalsWith('taxInclusive');
    case 'prepaid':
      return totalsWith('prepaid');
    case 'amount_due':
      return totalsWith('payable');
    case 'tax': {
      // BT-110, the tax total in the invoice currency: CII keeps it in the monetary summation, UBL in TaxTotal.
      if (inv.syntax === 'cii') return totalsWith('taxTotal');
      const first = inv.taxTotals[0];
      if (!first) return inv;
      return { ...inv, taxTotals: [{ ...first, taxAmounts: replaceFirst(first.taxAmounts, text) }, ...inv.taxTotals.slice(1)] };
    }
  }
}

/**
 * Terms whose reading depends on another term's value: a rule on the tax total (BT-110) picks the TaxTotal whose
 * currencyID is the invoice currency (BT-5), so a currency edit must re-run it too.
 */
const IMPLIED_READS: Readonly<Record<string, readonly string[]>> = { 'BT-5': ['BT-110', 'BT-111'] };

/**
 * The report after an edit of `edited` terms: the rules reading one of them run again on `inv` (the edited model), the
 * other rules keep their previous failures. Equal to a full validation where each rule's `bt` lists what it reads
 * (checked on the testdata e-invoices in einvoiceValidation.test.ts).
 */
export function revalidateTerms(inv: SemanticInvoice, previous: ValidationReport, edited: readonly string[]): ValidationReport {
  const touched = new Set(edited.flatMap((bt) => [bt, ...(IMPLIED_READS[bt] ?? [])]));
  const rerun = rulesFor(inv.syntax).filter((rule) => rule.bt.some((bt) => touched.has(bt)));
  const rerunIds = new Set(rerun.map((rule) => rule.id));
  const failed = previous.failed.filter((f) => !rerunIds.has(f.id));
  for (const rule of rerun) {
    const violations = rule.check(inv);
    if (violations.length === 0) continue;
    const text = (inv.syntax === 'cii' ? CII_TEXT[rule.id] : undefined) ?? UBL_TEXT[rule.id];
    const seen = new Set<string>();
    for (const v of violations) {
      if (seen.has(v.line ?? '')) continue;
      seen.add(v.line ?? '');
      failed.push({ id: rule.id, flag: text?.flag ?? 'fatal', message: text?.message ?? rule.id, bt: rule.bt, ...(v.line !== undefined ? { line: v.line } : {}) });
    }
  }
  failed.sort((a, b) => (a.flag === b.flag ? 0 : a.flag === 'fatal' ? -1 : 1));
  // Edits change the semantic model, not the XML: the schema layer's verdict stands.
  const schemaFailed = previous.schema?.checked === true && !previous.schema.valid;
  return { ...previous, valid: !failed.some((f) => f.flag === 'fatal') && !schemaFailed, failed };
}

/**
 * The e-invoice's fatal failures as findings beside the page's rules, so that the pinned summary and the EN 16931
 * report are one list and cannot disagree: once per rule (a rule failing on three lines is one finding), on the page
 * field it concerns where there is one. A rule the page's own rules already report failing (`alreadyFailing`, e.g.
 * BR-CO-10 computed on the same values) is not listed twice. Warnings are no findings: the EN 16931 report lists them.
 */
/** A schema finding as a line of text: libxml2's message with the XML line it is on. */
export function schemaFindingText(failure: Pick<RuleFailure, 'message' | 'xmlLine'>): string {
  return failure.xmlLine !== undefined ? `XML line ${failure.xmlLine}: ${failure.message}` : failure.message;
}

export function einvoiceFindings(report: Pick<ValidationReport, 'failed'> | null, alreadyFailing: ReadonlySet<string> = new Set()): RuleResult[] {
  if (!report) return [];
  const seen = new Set<string>(alreadyFailing);
  const findings: RuleResult[] = [];
  for (const failure of report.failed) {
    if (failure.flag !== 'fatal' || seen.has(failure.id)) continue;
    seen.add(failure.id);
    if (failure.layer === 'schema') {
      // One finding for the schema layer (its first error), on no field: the XML's structure, not a value, is wrong.
      findings.push({ rule: failure.id, title: 'XML schema', status: 'fail', message: schemaFindingText(failure), fields: [] });
      continue;
    }
    const field = fieldOfFailure(failure);
    findings.push({ rule: failure.id, title: 'EN 16931', status: 'fail', message: failure.message, fields: field ? [field] : [] });
  }
  return findings;
}
