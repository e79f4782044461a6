/** UBL 2.1 Invoice / CreditNote → SemanticInvoice (the EN 16931 UBL syntax binding). */
import type { AllowanceCharge, Address, DocumentTotals, InvoiceLine, Party, Period, SemanticInvoice, TaxCategory, Term } from '../model/semanticInvoice.js';
import { emptyParty } from '../model/semanticInvoice.js';
import { has, nodes, term, termOf, terms, type XmlNode, type XmlValue } from './terms.js';

const AMOUNT_NAMES = ['Amount', 'BaseAmount', 'PriceAmount', 'TaxAmount', 'TaxableAmount', 'LineExtensionAmount', 'TaxExclusiveAmount', 'TaxInclusiveAmount', 'AllowanceTotalAmount', 'ChargeTotalAmount', 'PrepaidAmount', 'PayableRoundingAmount', 'PayableAmount'];
const QUANTITY_NAMES = ['InvoicedQuantity', 'BaseQuantity', 'CreditedQuantity'];

function taxCategory(node: XmlNode): TaxCategory {
  return {
    code: term(node, 'ID'),
    rate: term(node, 'Percent'),
    scheme: term(node, 'TaxScheme/ID'),
    exemptionReason: term(node, 'TaxExemptionReason'),
    exemptionReasonCode: term(node, 'TaxExemptionReasonCode'),
  };
}

function address(node: XmlNode | undefined): Address | undefined {
  if (!node) return undefined;
  return { country: term(node, 'Country/IdentificationCode'), line1: term(node, 'StreetName'), city: term(node, 'CityName'), postCode: term(node, 'PostalZone') };
}

function party(node: XmlNode | undefined): Party {
  if (!node) return emptyParty();
  const addressNode = nodes(node, 'PostalAddress')[0];
  return {
    name: term(node, 'PartyLegalEntity/RegistrationName'),
    tradingNames: terms(node, 'PartyName/Name'),
    ids: terms(node, 'PartyIdentification/ID'),
    globalIds: [],
    legalIds: terms(node, 'PartyLegalEntity/CompanyID'),
    taxIds: nodes(node, 'PartyTaxScheme').map((t) => ({ id: term(t, 'CompanyID'), scheme: term(t, 'TaxScheme/ID') })),
    endpoints: terms(node, 'EndpointID'),
    ...(has(node, 'Contact') ? { contact: { name: term(node, 'Contact/Name'), phone: term(node, 'Contact/Telephone'), email: term(node, 'Contact/ElectronicMail') } } : {}),
    address: address(addressNode),
    hasAddress: addressNode !== undefined,
  };
}

function period(node: XmlNode): Period {
  return { start: term(node, 'StartDate'), end: term(node, 'EndDate'), descriptionCode: term(node, 'DescriptionCode'), hasChildren: Object.keys(node).some((k) => !k.startsWith('@_') && k !== '#text') };
}

function allowanceCharge(node: XmlNode): AllowanceCharge {
  const indicator = term(node, 'ChargeIndicator')?.text ?? '';
  return {
    charge: indicator === 'true' || indicator === '1',
    indicator,
    amounts: terms(node, 'Amount'),
    baseAmount: term(node, 'BaseAmount'),
    percent: term(node, 'MultiplierFactorNumeric'),
    reasons: terms(node, 'AllowanceChargeReason'),
    reasonCodes: terms(node, 'AllowanceChargeReasonCode'),
    taxCategories: nodes(node, 'TaxCategory').map(taxCategory),
  };
}

function line(node: XmlNode, kind: InvoiceLine['kind']): InvoiceLine {
  const item = nodes(node, 'Item')[0];
  return {
    kind,
    id: term(node, 'ID'),
    quantity: term(node, 'InvoicedQuantity') ?? term(node, 'CreditedQuantity'),
    netAmount: terms(node, 'LineExtensionAmount'),
    periods: nodes(node, 'InvoicePeriod').map(period),
    allowances: nodes(node, 'AllowanceCharge').map(allowanceCharge),
    itemName: term(item, 'Name'),
    taxCategories: nodes(item, 'ClassifiedTaxCategory').map(taxCategory),
    classifications: terms(item, 'CommodityClassification/ItemClassificationCode'),
    standardIds: terms(item, 'StandardItemIdentification/ID'),
    originCountries: terms(item, 'OriginCountry/IdentificationCode'),
    properties: nodes(item, 'AdditionalItemProperty').map((p) => ({ name: term(p, 'Name'), value: term(p, 'Value') })),
    netPrice: terms(node, 'Price/PriceAmount'),
    grossPrice: terms(node, 'Price/AllowanceCharge/BaseAmount'),
    baseQuantity: term(node, 'Price/BaseQuantity'),
  };
}

function totals(node: XmlNode): DocumentTotals {
  return {
    lineExtension: terms(node, 'LineExtensionAmount'),
    taxExclusive: terms(node, 'TaxExclusiveAmount'),
    taxInclusive: terms(node, 'TaxInclusiveAmount'),
    allowanceTotal: terms(node, 'AllowanceTotalAmount'),
    chargeTotal: terms(node, 'ChargeTotalAmount'),
    prepaid: terms(node, 'PrepaidAmount'),
    rounding: terms(node, 'PayableRoundingAmount'),
    payable: terms(node, 'PayableAmount'),
    taxTotal: [],
  };
}

/** Every descendant element whose local name is in `names` (document order within each parent is kept). */
export function descendants(node: XmlValue, names: ReadonlySet<string>, out: Term[] = []): Term[] {
  if (!node || typeof node !== 'object') return out;
  if (Array.isArray(node)) {
    for (const n of node) descendants(n, names, out);
    return out;
  }
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('@_') || key === '#text') continue;
    if (names.has(key)) for (const v of Array.isArray(value) ? value : [value]) out.push(termOf(v));
    descendants(value, names, out);
  }
  return out;
}

export function readUblInvoice(root: XmlNode, rootName: 'Invoice' | 'CreditNote'): SemanticInvoice {
  const supplier = nodes(root, 'AccountingSupplierParty/Party')[0];
  const customer = nodes(root, 'AccountingCustomerParty/Party')[0];
  const payee = nodes(root, 'PayeeParty')[0];
  const representative = nodes(root, 'TaxRepresentativeParty')[0];
  return {
    syntax: 'ubl',
    creditNote: rootName === 'CreditNote',
    specification: term(root, 'CustomizationID'),
    number: term(root, 'ID'),
    buyerReference: term(root, 'BuyerReference'),
    issueDate: term(root, 'IssueDate'),
    taxPointDate: term(root, 'TaxPointDate'),
    typeCode: term(root, rootName === 'CreditNote' ? 'CreditNoteTypeCode' : 'InvoiceTypeCode'),
    currencies: terms(root, 'DocumentCurrencyCode'),
    taxCurrencies: terms(root, 'TaxCurrencyCode'),
    notes: terms(root, 'Note').map((t) => ({ text: t, subjectCode: undefined })),
    periods: nodes(root, 'InvoicePeriod').map(period),
    dueDateTypeCodes: [],
    precedingInvoices: nodes(root, 'BillingReference').map((b) => ({ id: term(b, 'InvoiceDocumentReference/ID') })),
    documents: [
      ...nodes(root, 'AdditionalDocumentReference').map((d) => ({ d, additional: true })),
      ...[...nodes(root, 'InvoiceLine/DocumentReference'), ...nodes(root, 'CreditNoteLine/DocumentReference')].map((d) => ({ d, additional: false })),
    ].map(({ d, additional }) => ({
      additional,
      id: term(d, 'ID'),
      typeCode: term(d, 'DocumentTypeCode'),
      attachments: terms(d, 'Attachment/EmbeddedDocumentBinaryObject'),
    })),
    seller: party(supplier),
    buyer: party(customer),
    hasSeller: has(root, 'AccountingSupplierParty'),
    hasBuyer: has(root, 'AccountingCustomerParty'),
    payee: payee ? party(payee) : undefined,
    taxRepresentative: representative ? { ...party(representative), name: term(representative, 'PartyName/Name') } : undefined,
    delivery: nodes(root, 'Delivery').map((d) => {
      const addressNode = nodes(d, 'DeliveryLocation/Address')[0];
      return { date: term(d, 'ActualDeliveryDate'), address: address(addressNode), hasAddress: addressNode !== undefined, locationIds: terms(d, 'DeliveryLocation/ID'), shipToParty: has(d, 'DeliveryParty') };
    }),
    paymentMeans: nodes(root, 'PaymentMeans').map((p) => ({
      code: term(p, 'PaymentMeansCode'),
      accounts: nodes(p, 'PayeeFinancialAccount').map((a) => ({ id: term(a, 'ID') })),
      cards: terms(p, 'CardAccount/PrimaryAccountNumberID'),
    })),
    allowanceCharges: nodes(root, 'AllowanceCharge').map(allowanceCharge),
    taxTotals: nodes(root, 'TaxTotal').map((t) => ({
      taxAmounts: terms(t, 'TaxAmount'),
      subtotals: nodes(t, 'TaxSubtotal').map((s) => ({ taxableAmount: term(s, 'TaxableAmount'), taxAmount: term(s, 'TaxAmount'), categories: nodes(s, 'TaxCategory').map(taxCategory) })),
    })),
    totals: nodes(root, 'LegalMonetaryTotal').map(totals),
    lines: [...nodes(root, 'InvoiceLine').map((l) => line(l, 'InvoiceLine')), ...nodes(root, 'CreditNoteLine').map((l) => line(l, 'CreditNoteLine'))],
    amountCurrencies: descendants(root, new Set(AMOUNT_NAMES)),
    referenceTypeCodes: [],
    countryCodes: descendants(root, new Set(['IdentificationCode'])),
    unitCodes: descendants(root, new Set(QUANTITY_NAMES)).filter((t) => 'unitCode' in t.attrs),
  };
}
