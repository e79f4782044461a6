/**
 * The invoice fields Recto reads, reviews and checks, defined once. Every other list of fields derives from here:
 * the plain `<stem>.fields.json` shape (extractFields.ts), the review reading (fieldShape.ts), the rule inputs
 * (rules/ruleTypes.ts), the panel's fields and paths (review/fieldPaths.ts), the required-field rules
 * (rules/requiredRules.ts) and the contract's wire shape (contract/fields.ts).
 *
 * Each field names the EN 16931 business term (BT) it stands for and, where the norm makes it mandatory in an
 * e-invoice, the business rule (BR) that does. A page is held to fewer of those than an e-invoice: `checkedOnPage`
 * marks the ones the page check demands (see requiredRules.ts for why the others are left to the arithmetic rules).
 */

/** What kind of value a field holds: decides how an edit is validated and which JSON type it has. */
export type FieldKind = 'text' | 'date' | 'amount' | 'currency' | 'number';

/** The format a value of each kind is kept in (on the wire, in `<stem>.fields.json`, in the project file). */
export const kindFormat: Record<FieldKind, string> = {
  text: 'text as printed, trimmed',
  date: 'ISO 8601 calendar date YYYY-MM-DD',
  amount: 'decimal number in the invoice currency (JSON number)',
  currency: 'ISO 4217 alphabetic code (EUR, USD)',
  number: 'decimal number (JSON number)',
};

/** A field's value type by its kind: amounts and quantities are numbers, everything else strings. */
export type ValueOfKind<K extends FieldKind> = K extends 'amount' | 'number' ? number : string;

/** Whether a kind's values are numbers (amounts, quantities) rather than strings. */
export const holdsNumbers: Record<FieldKind, boolean> = { text: false, date: false, currency: false, amount: true, number: true };

/** An EN 16931 business term id (`BT-112`). */
export type BusinessTerm = `BT-${number}`;
/** An EN 16931 business rule id (`BR-14`, `BR-CO-10`). */
export type BusinessRule = `BR-${string}`;

export interface CatalogueEntry {
  key: string;
  /** The panel's label. */
  label: string;
  kind: FieldKind;
  /** The EN 16931 business term the field stands for. */
  bt: BusinessTerm;
  /** The business term's name as EN 16931 spells it. */
  term: string;
  /** The EN 16931 rule that makes the term mandatory in an e-invoice; null where it is optional or conditional. */
  requiredBy: BusinessRule | null;
}

export interface ScalarCatalogueEntry extends CatalogueEntry {
  /**
   * `core`: every reading has it (the invoice's key fields). `settlement`: the totals block's other amounts, read from
   * the page where printed, absent from readings written before they were read.
   */
  group: 'core' | 'settlement';
  /** The panel lists it always, or only where the page, the XML or the analyst gives a value (most pages print none). */
  shown: 'always' | 'when-given';
  /** Whether the page check demands it (requiredRules.ts); only meaningful where `requiredBy` is set. */
  checkedOnPage: boolean;
  /**
   * What supplier memory does with it (docs/supplier-memory.md): `hint` — a per-invoice value re-read through where the
   * supplier prints it; `identity` — the supplier's own value, scored but never hinted; null — not kept.
   */
  memory: 'hint' | 'identity' | null;
}

/** The invoice-level fields, in panel order. */
export const invoiceFieldCatalogue = [
  { key: 'invoice_number', label: 'Invoice number', kind: 'text', bt: 'BT-1', term: 'Invoice number', requiredBy: 'BR-02', group: 'core', shown: 'always', memory: 'hint', checkedOnPage: true },
  { key: 'issue_date', label: 'Issue date', kind: 'date', bt: 'BT-2', term: 'Invoice issue date', requiredBy: 'BR-03', group: 'core', shown: 'always', memory: 'hint', checkedOnPage: true },
  { key: 'due_date', label: 'Due date', kind: 'date', bt: 'BT-9', term: 'Payment due date', requiredBy: null, group: 'core', shown: 'always', memory: 'hint', checkedOnPage: false },
  { key: 'seller', label: 'Seller', kind: 'text', bt: 'BT-27', term: 'Seller name', requiredBy: 'BR-06', group: 'core', shown: 'always', memory: 'identity', checkedOnPage: true },
  { key: 'buyer', label: 'Buyer', kind: 'text', bt: 'BT-44', term: 'Buyer name', requiredBy: 'BR-07', group: 'core', shown: 'always', memory: 'hint', checkedOnPage: true },
  { key: 'currency', label: 'Currency', kind: 'currency', bt: 'BT-5', term: 'Invoice currency code', requiredBy: 'BR-05', group: 'core', shown: 'always', memory: 'identity', checkedOnPage: true },
  { key: 'line_total', label: 'Line total', kind: 'amount', bt: 'BT-106', term: 'Sum of Invoice line net amount', requiredBy: 'BR-12', group: 'settlement', shown: 'when-given', memory: null, checkedOnPage: false },
  { key: 'allowances', label: 'Allowances', kind: 'amount', bt: 'BT-107', term: 'Sum of allowances on document level', requiredBy: null, group: 'settlement', shown: 'when-given', memory: null, checkedOnPage: false },
  { key: 'charges', label: 'Charges', kind: 'amount', bt: 'BT-108', term: 'Sum of charges on document level', requiredBy: null, group: 'settlement', shown: 'when-given', memory: null, checkedOnPage: false },
  { key: 'subtotal', label: 'Subtotal', kind: 'amount', bt: 'BT-109', term: 'Invoice total amount without VAT', requiredBy: 'BR-13', group: 'core', shown: 'always', memory: 'hint', checkedOnPage: false },
  { key: 'tax', label: 'Tax', kind: 'amount', bt: 'BT-110', term: 'Invoice total VAT amount', requiredBy: null, group: 'core', shown: 'always', memory: 'hint', checkedOnPage: false },
  { key: 'total', label: 'Total', kind: 'amount', bt: 'BT-112', term: 'Invoice total amount with VAT', requiredBy: 'BR-14', group: 'core', shown: 'always', memory: 'hint', checkedOnPage: true },
  { key: 'prepaid', label: 'Paid', kind: 'amount', bt: 'BT-113', term: 'Paid amount', requiredBy: null, group: 'settlement', shown: 'when-given', memory: null, checkedOnPage: false },
  { key: 'amount_due', label: 'Amount due', kind: 'amount', bt: 'BT-115', term: 'Amount due for payment', requiredBy: 'BR-15', group: 'settlement', shown: 'always', memory: null, checkedOnPage: false },
] as const satisfies readonly ScalarCatalogueEntry[];

/** A payment, routing or contact field: `xrechnung` names the XRechnung rule (BR-DE-*) that makes it mandatory there. */
export interface PaymentCatalogueEntry extends CatalogueEntry {
  /** `payment`: what a payment needs; `routing`: the buyer reference, seller contact and addresses XRechnung requires. */
  group: 'payment' | 'routing';
  /**
   * Whether a page value differing from the XML's is a disagreement (PAYMENT-XML): identifiers are the same string
   * wherever written; free text (payment terms, names of contacts, places) is worded differently and is not compared.
   */
  comparedWithXml: boolean;
  /** The XRechnung 3.0 rule requiring the term (the CIUS the invoices export can write); null where XRechnung does not. */
  xrechnung: `BR-DE-${number}` | 'XR-1..1' | null;
}

/**
 * The fields a payment needs (app/invoices: read from the page by paymentFieldsFromText.ts, from the e-invoice XML by
 * xmlPaymentFields.ts, checked by identifiers.ts), then the routing and contact terms XRechnung requires (buyer
 * reference / Leitweg-ID, seller contact, the parties' city, post code and electronic address). Kept apart from the
 * invoice-level fields above, whose shape the engine's readings and the wire contract fix; each names its business
 * term the same way. `XR-1..1`: XRechnung 3.0 gives the term cardinality 1..1 (no BR-DE rule of its own).
 */
export const paymentFieldCatalogue = [
  { key: 'seller_vat_id', label: 'Seller VAT ID', kind: 'text', bt: 'BT-31', term: 'Seller VAT identifier', requiredBy: null, group: 'payment', comparedWithXml: true, xrechnung: null },
  { key: 'buyer_vat_id', label: 'Buyer VAT ID', kind: 'text', bt: 'BT-48', term: 'Buyer VAT identifier', requiredBy: null, group: 'payment', comparedWithXml: true, xrechnung: null },
  { key: 'iban', label: 'IBAN', kind: 'text', bt: 'BT-84', term: 'Payment account identifier', requiredBy: null, group: 'payment', comparedWithXml: true, xrechnung: 'BR-DE-1' },
  { key: 'bic', label: 'BIC', kind: 'text', bt: 'BT-86', term: 'Payment service provider identifier', requiredBy: null, group: 'payment', comparedWithXml: true, xrechnung: null },
  { key: 'payment_terms', label: 'Payment terms', kind: 'text', bt: 'BT-20', term: 'Payment terms', requiredBy: null, group: 'payment', comparedWithXml: false, xrechnung: null },
  { key: 'purchase_order', label: 'Purchase order', kind: 'text', bt: 'BT-13', term: 'Purchase order reference', requiredBy: null, group: 'payment', comparedWithXml: true, xrechnung: null },
  { key: 'contract', label: 'Contract', kind: 'text', bt: 'BT-12', term: 'Contract reference', requiredBy: null, group: 'payment', comparedWithXml: true, xrechnung: null },
  { key: 'buyer_reference', label: 'Buyer reference', kind: 'text', bt: 'BT-10', term: 'Buyer reference', requiredBy: null, group: 'routing', comparedWithXml: false, xrechnung: 'BR-DE-15' },
  { key: 'seller_contact_name', label: 'Seller contact', kind: 'text', bt: 'BT-41', term: 'Seller contact point', requiredBy: null, group: 'routing', comparedWithXml: false, xrechnung: 'BR-DE-5' },
  { key: 'seller_contact_phone', label: 'Contact phone', kind: 'text', bt: 'BT-42', term: 'Seller contact telephone number', requiredBy: null, group: 'routing', comparedWithXml: false, xrechnung: 'BR-DE-6' },
  { key: 'seller_contact_email', label: 'Contact e-mail', kind: 'text', bt: 'BT-43', term: 'Seller contact email address', requiredBy: null, group: 'routing', comparedWithXml: false, xrechnung: 'BR-DE-7' },
  { key: 'seller_city', label: 'Seller city', kind: 'text', bt: 'BT-37', term: 'Seller city', requiredBy: null, group: 'routing', comparedWithXml: false, xrechnung: 'BR-DE-3' },
  { key: 'seller_post_code', label: 'Seller post code', kind: 'text', bt: 'BT-38', term: 'Seller post code', requiredBy: null, group: 'routing', comparedWithXml: false, xrechnung: 'BR-DE-4' },
  { key: 'buyer_city', label: 'Buyer city', kind: 'text', bt: 'BT-52', term: 'Buyer city', requiredBy: null, group: 'routing', comparedWithXml: false, xrechnung: 'BR-DE-8' },
  { key: 'buyer_post_code', label: 'Buyer post code', kind: 'text', bt: 'BT-53', term: 'Buyer post code', requiredBy: null, group: 'routing', comparedWithXml: false, xrechnung: 'BR-DE-9' },
  { key: 'seller_endpoint', label: 'Seller e-address', kind: 'text', bt: 'BT-34', term: 'Seller electronic address', requiredBy: null, group: 'routing', comparedWithXml: false, xrechnung: 'XR-1..1' },
  { key: 'buyer_endpoint', label: 'Buyer e-address', kind: 'text', bt: 'BT-49', term: 'Buyer electronic address', requiredBy: null, group: 'routing', comparedWithXml: false, xrechnung: 'XR-1..1' },
] as const satisfies readonly PaymentCatalogueEntry[];
export type PaymentFieldKey = (typeof paymentFieldCatalogue)[number]['key'];

/** Columns of an invoice line (BG-25), in panel order. */
export const lineColumnCatalogue = [
  { key: 'description', label: 'Description', kind: 'text', bt: 'BT-153', term: 'Item name', requiredBy: 'BR-25' },
  { key: 'quantity', label: 'Qty', kind: 'number', bt: 'BT-129', term: 'Invoiced quantity', requiredBy: 'BR-22' },
  { key: 'unit_price', label: 'Unit price', kind: 'amount', bt: 'BT-146', term: 'Item net price', requiredBy: 'BR-26' },
  { key: 'amount', label: 'Amount', kind: 'amount', bt: 'BT-131', term: 'Invoice line net amount', requiredBy: 'BR-24' },
] as const satisfies readonly CatalogueEntry[];

/**
 * A line's terms only an e-invoice XML states (a page prints counts and amounts, not codes): shown beside the line's
 * columns and written to lines.csv under `column`, never corrected on their own (a corrected invoice keeps the XML's).
 */
export const lineTermCatalogue = [
  { key: 'unitCode', column: 'unit', label: 'Unit', bt: 'BT-130', term: 'Invoiced quantity unit of measure code (UN/ECE Rec 20)' },
  { key: 'category', column: 'vat_category', label: 'VAT', bt: 'BT-151', term: 'Invoiced item VAT category code (UNCL 5305)' },
  { key: 'rate', column: 'vat_rate', label: 'VAT %', bt: 'BT-152', term: 'Invoiced item VAT rate' },
] as const satisfies readonly { key: string; column: string; label: string; bt: BusinessTerm; term: string }[];
export type LineTermKey = (typeof lineTermCatalogue)[number]['key'];

/** Columns of a VAT breakdown row (BG-23), in panel order. The rate is conditional (BR-48: not for category O). */
export const taxColumnCatalogue = [
  { key: 'rate', label: 'Rate %', kind: 'number', bt: 'BT-119', term: 'VAT category rate', requiredBy: null },
  { key: 'base', label: 'Base', kind: 'amount', bt: 'BT-116', term: 'VAT category taxable amount', requiredBy: 'BR-45' },
  { key: 'amount', label: 'VAT', kind: 'amount', bt: 'BT-117', term: 'VAT category tax amount', requiredBy: 'BR-46' },
] as const satisfies readonly CatalogueEntry[];

export type ScalarField = (typeof invoiceFieldCatalogue)[number];
export type ScalarFieldKey = ScalarField['key'];
export type CoreField = Extract<ScalarField, { group: 'core' }>;
export type CoreFieldKey = CoreField['key'];
export type SettlementField = Extract<ScalarField, { group: 'settlement' }>;
export type SettlementFieldKey = SettlementField['key'];
export type LineColumn = (typeof lineColumnCatalogue)[number];
export type LineColumnKey = LineColumn['key'];
export type TaxColumn = (typeof taxColumnCatalogue)[number];
export type TaxColumnKey = TaxColumn['key'];

/** The plain values of a set of scalar fields: each its kind's type, null where absent. */
export type ScalarValues<F extends ScalarField> = { [E in F as E['key']]: ValueOfKind<E['kind']> | null };
/** The key fields' plain values (`invoice_number: string | null`, `total: number | null`, …). */
export type CoreValues = ScalarValues<CoreField>;
/** The settlement amounts' plain values. */
export type SettlementValues = ScalarValues<SettlementField>;
/** A plain invoice line: its description as printed ('' where none), its numbers null where absent. */
export type PlainLine = { [C in LineColumn as C['key']]: C['kind'] extends 'text' ? string : ValueOfKind<C['kind']> | null };
/** A plain VAT breakdown row: rate in percent, taxable amount, tax; null where absent. */
export type PlainTaxRow = { [C in TaxColumn as C['key']]: ValueOfKind<C['kind']> | null };

const keysOf = <E extends { key: string }>(entries: readonly E[]): E['key'][] => entries.map((e) => e.key);

/** The key fields every reading has, in catalogue order. */
export const coreFieldKeys = keysOf(invoiceFieldCatalogue.filter((f): f is CoreField => f.group === 'core'));
/** The totals block's other amounts, in catalogue order. */
export const settlementFieldKeys = keysOf(invoiceFieldCatalogue.filter((f): f is SettlementField => f.group === 'settlement'));
/** Every invoice-level field, in panel order. */
export const scalarFieldKeys = keysOf(invoiceFieldCatalogue);

/** The fields supplier memory keeps: read through hints, or scored as the supplier's own (`memory`), in catalogue order. */
export type MemoryField = Extract<ScalarField, { memory: 'hint' | 'identity' }>['key'];
export type HintedField = Extract<ScalarField, { memory: 'hint' }>['key'];
export const memoryFieldKeys = keysOf(invoiceFieldCatalogue.filter((f): f is Extract<ScalarField, { memory: 'hint' | 'identity' }> => f.memory !== null)) as [MemoryField, ...MemoryField[]];
export const hintedFieldKeys = keysOf(invoiceFieldCatalogue.filter((f): f is Extract<ScalarField, { memory: 'hint' }> => f.memory === 'hint')) as [HintedField, ...HintedField[]];

/** The catalogue entry of an invoice-level field; undefined for anything else. */
export const scalarFieldOf = (key: string): ScalarField | undefined => invoiceFieldCatalogue.find((f) => f.key === key);

/**
 * The EN 16931 business term a field path stands for: `total` → BT-112, `lines.2.amount` → BT-131,
 * `tax_breakdown.0.base` → BT-116; null for paths outside the catalogue.
 */
export function businessTermOf(path: string): BusinessTerm | null {
  const scalar = scalarFieldOf(path);
  if (scalar) return scalar.bt;
  const cell = /^(lines|tax_breakdown)\.\d+\.(\w+)$/.exec(path);
  if (!cell) return null;
  const columns: readonly CatalogueEntry[] = cell[1] === 'lines' ? lineColumnCatalogue : taxColumnCatalogue;
  return columns.find((c) => c.key === cell[2])?.bt ?? null;
}

/** The invoice-level field that stands for a business term (BT-112 → `total`); undefined where none does. */
export const scalarFieldForTerm = (bt: BusinessTerm): ScalarField | undefined => invoiceFieldCatalogue.find((f) => f.bt === bt);
