/**
 * A page-read invoice (the review screen's plain fields) → SemanticInvoice, so the same rules check what a page says.
 * Each field lands on the business term the field catalogue (../invoice/fieldCatalogue.ts) names for it; the terms
 * the page provides are recorded in `pageTerms`, and validateSemanticInvoice(…, { source: 'page' }) reports a rule
 * whose inputs are not all among them as not applicable rather than failed — a page that prints no VAT breakdown or
 * no seller address has not broken BR-CO-18 or BR-08, it simply does not say.
 */
import { invoiceFieldCatalogue, lineColumnCatalogue, taxColumnCatalogue } from '../invoice/fieldCatalogue.js';
import type { PlainInvoiceFields } from '../invoice/fieldValues.js';
import type { DocumentTotals, InvoiceLine, SemanticInvoice, Term, VatBreakdown } from './model/semanticInvoice.js';
import { emptyParty } from './model/semanticInvoice.js';

const termOf = (value: string | number | null | undefined, attrs: Record<string, string> = {}): Term | undefined =>
  value === null || value === undefined || value === '' ? undefined : { text: typeof value === 'number' ? decimalText(value) : value, attrs };

/** A JSON number as decimal text without exponent (1e-7 → "0.0000001"), so the decimal parser reads what the page said. */
function decimalText(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const plain = String(n);
  if (!/e/i.test(plain)) return plain;
  return n.toFixed(20).replace(/\.?0+$/, '');
}

const listOf = (t: Term | undefined): Term[] => (t ? [t] : []);
const btOf = (key: string): string => invoiceFieldCatalogue.find((f) => f.key === key)?.bt ?? '';
const lineBt = (key: string): string => lineColumnCatalogue.find((c) => c.key === key)?.bt ?? '';
const taxBt = (key: string): string => taxColumnCatalogue.find((c) => c.key === key)?.bt ?? '';

export function semanticInvoiceFromPage(fields: PlainInvoiceFields): SemanticInvoice {
  const given = new Set<string>();
  const scalar = (key: keyof PlainInvoiceFields & string): Term | undefined => {
    const value = fields[key] as string | number | null | undefined;
    const t = termOf(value);
    if (t) given.add(btOf(key));
    return t;
  };
  const currency = scalar('currency');
  const amount = (key: keyof PlainInvoiceFields & string): Term[] => {
    const t = termOf(fields[key] as number | null | undefined, currency ? { currencyID: currency.text } : {});
    if (t) given.add(btOf(key));
    return listOf(t);
  };
  const seller = { ...emptyParty(), name: scalar('seller') };
  const buyer = { ...emptyParty(), name: scalar('buyer') };
  const totals: DocumentTotals = {
    lineExtension: amount('line_total'),
    taxExclusive: amount('subtotal'),
    taxInclusive: amount('total'),
    allowanceTotal: amount('allowances'),
    chargeTotal: amount('charges'),
    prepaid: amount('prepaid'),
    rounding: [],
    payable: amount('amount_due'),
    taxTotal: [],
  };
  const tax = amount('tax');

  const lines: InvoiceLine[] = fields.lines.map((l, i) => ({
    kind: 'InvoiceLine',
    id: { text: String(i + 1), attrs: {} },
    quantity: termOf(l.quantity),
    netAmount: listOf(termOf(l.amount, currency ? { currencyID: currency.text } : {})),
    periods: [],
    allowances: [],
    itemName: termOf(l.description),
    taxCategories: [],
    classifications: [],
    standardIds: [],
    originCountries: [],
    properties: [],
    netPrice: listOf(termOf(l.unit_price)),
    grossPrice: [],
    baseQuantity: undefined,
  }));
  // A line column is a term the page gives when every line has it (a rule over lines reads it on each of them).
  if (lines.length > 0) {
    given.add('BG-25');
    for (const column of lineColumnCatalogue) if (fields.lines.every((l) => l[column.key] !== null && l[column.key] !== '')) given.add(lineBt(column.key));
  }

  const rows = fields.tax_breakdown ?? [];
  const subtotals: VatBreakdown[] = rows.map((r) => ({
    taxableAmount: termOf(r.base),
    taxAmount: termOf(r.amount),
    categories: [{ code: undefined, rate: termOf(r.rate), scheme: { text: 'VAT', attrs: {} }, exemptionReason: undefined, exemptionReasonCode: undefined }],
  }));
  if (rows.length > 0) {
    given.add('BG-23');
    for (const column of taxColumnCatalogue) if (rows.every((r) => r[column.key] !== null)) given.add(taxBt(column.key));
  }

  return {
    syntax: 'ubl',
    creditNote: false,
    specification: undefined,
    number: scalar('invoice_number'),
    issueDate: scalar('issue_date'),
    taxPointDate: undefined,
    typeCode: undefined,
    currencies: listOf(currency),
    taxCurrencies: [],
    notes: [],
    periods: [],
    dueDateTypeCodes: [],
    precedingInvoices: [],
    documents: [],
    seller,
    buyer,
    hasSeller: seller.name !== undefined,
    hasBuyer: buyer.name !== undefined,
    delivery: [],
    paymentMeans: [],
    allowanceCharges: [],
    taxTotals: tax.length > 0 || subtotals.length > 0 ? [{ taxAmounts: tax, subtotals }] : [],
    totals: Object.values(totals).some((v) => v.length > 0) ? [totals] : [],
    lines,
    amountCurrencies: [],
    unitCodes: [],
    countryCodes: [],
    referenceTypeCodes: [],
    pageTerms: given,
  };
}
