/**
 * UN/CEFACT CII (ZUGFeRD 2.x / Factur-X / XRechnung CrossIndustryInvoice; ZUGFeRD 1 CrossIndustryDocument, whose
 * context, header, transaction, line items and rate have 1.0 names that are read here) → SemanticInvoice. Tax registrations keep their scheme as written: the CII rules take `VA` (and
 * only `VA`, not `VAT`) as a VAT identifier (BT-31/48/63) and `FC` as a tax registration (BT-32).
 */
import type { Address, AllowanceCharge, InvoiceLine, Party, Period, SemanticInvoice, TaxCategory, Term } from '../model/semanticInvoice.js';
import { emptyParty } from '../model/semanticInvoice.js';
import { descendants } from './readUbl.js';
import { has, nodes, term, terms, type XmlNode } from './terms.js';

/** ZUGFeRD 1.0 names a tax's rate ApplicablePercent (CII D16B: RateApplicablePercent, the only one its rules read). */
function taxCategory(node: XmlNode, zugferd1: boolean): TaxCategory {
  return {
    code: term(node, 'CategoryCode'),
    rate: term(node, zugferd1 ? 'ApplicablePercent' : 'RateApplicablePercent'),
    scheme: term(node, 'TypeCode'),
    exemptionReason: term(node, 'ExemptionReason'),
    exemptionReasonCode: term(node, 'ExemptionReasonCode'),
    dueDateTypeCode: term(node, 'DueDateTypeCode'),
  };
}

function address(node: XmlNode | undefined): Address | undefined {
  if (!node) return undefined;
  return { country: term(node, 'CountryID'), line1: term(node, 'LineOne'), city: term(node, 'CityName'), postCode: term(node, 'PostcodeCode') };
}

function party(node: XmlNode | undefined): Party {
  if (!node) return emptyParty();
  const addressNode = nodes(node, 'PostalTradeAddress')[0];
  return {
    name: term(node, 'Name'),
    tradingNames: terms(node, 'SpecifiedLegalOrganization/TradingBusinessName'),
    ids: terms(node, 'ID'),
    globalIds: terms(node, 'GlobalID'),
    legalIds: terms(node, 'SpecifiedLegalOrganization/ID'),
    taxIds: terms(node, 'SpecifiedTaxRegistration/ID').map((id) => ({
      id,
      scheme: id.attrs.schemeID === undefined ? undefined : { text: id.attrs.schemeID, attrs: {} },
    })),
    endpoints: nodes(node, 'URIUniversalCommunication').map((u) => term(u, 'URIID') ?? { text: '', attrs: {} }),
    ...(has(node, 'DefinedTradeContact')
      ? {
          contact: {
            name: term(node, 'DefinedTradeContact/PersonName') ?? term(node, 'DefinedTradeContact/DepartmentName'),
            phone: term(node, 'DefinedTradeContact/TelephoneUniversalCommunication/CompleteNumber'),
            email: term(node, 'DefinedTradeContact/EmailURIUniversalCommunication/URIID'),
          },
        }
      : {}),
    address: address(addressNode),
    hasAddress: addressNode !== undefined,
  };
}

/** A CII date element (StartDateTime …) as its DateTimeString, or an empty term when the element has none. */
function dateOf(node: XmlNode, name: string): Term | undefined {
  const element = nodes(node, name)[0];
  if (!element) return undefined;
  return term(element, 'DateTimeString') ?? { text: '', attrs: {} };
}

function period(node: XmlNode): Period {
  return { start: dateOf(node, 'StartDateTime'), end: dateOf(node, 'EndDateTime'), descriptionCode: undefined, hasChildren: Object.keys(node).some((k) => !k.startsWith('@_') && k !== '#text') };
}

function allowanceCharge(node: XmlNode, zugferd1: boolean): AllowanceCharge {
  const indicator = term(node, 'ChargeIndicator/Indicator')?.text ?? '';
  return {
    charge: indicator === 'true' || indicator === '1',
    indicator,
    amounts: terms(node, 'ActualAmount'),
    baseAmount: term(node, 'BasisAmount'),
    percent: term(node, 'CalculationPercent'),
    reasons: terms(node, 'Reason'),
    reasonCodes: terms(node, 'ReasonCode'),
    taxCategories: nodes(node, 'CategoryTradeTax').map((t) => taxCategory(t, zugferd1)),
  };
}

/**
 * A line item's element names: CII D16B's, or ZUGFeRD 1.0's (CII D13B), whose line agreement, delivery and settlement
 * are SpecifiedSupplyChainTrade… and whose line summation is SpecifiedTradeSettlementMonetarySummation — the renaming
 * that the ZUGFeRD 1 → 2 migration (Mustang's ZF1ToZF2.xsl) applies; the terms under them are the same.
 */
const LINE_PATHS = {
  d16b: { agreement: 'SpecifiedLineTradeAgreement', delivery: 'SpecifiedLineTradeDelivery', settlement: 'SpecifiedLineTradeSettlement', summation: 'SpecifiedTradeSettlementLineMonetarySummation' },
  zugferd1: { agreement: 'SpecifiedSupplyChainTradeAgreement', delivery: 'SpecifiedSupplyChainTradeDelivery', settlement: 'SpecifiedSupplyChainTradeSettlement', summation: 'SpecifiedTradeSettlementMonetarySummation' },
};

function line(node: XmlNode, zugferd1: boolean): InvoiceLine {
  const paths = zugferd1 ? LINE_PATHS.zugferd1 : LINE_PATHS.d16b;
  const product = nodes(node, 'SpecifiedTradeProduct')[0];
  const settlement = nodes(node, paths.settlement)[0];
  const agreement = nodes(node, paths.agreement)[0];
  return {
    kind: 'InvoiceLine',
    id: term(node, 'AssociatedDocumentLineDocument/LineID'),
    quantity: term(node, `${paths.delivery}/BilledQuantity`),
    netAmount: terms(settlement, `${paths.summation}/LineTotalAmount`),
    periods: nodes(settlement, 'BillingSpecifiedPeriod').map(period),
    allowances: nodes(settlement, 'SpecifiedTradeAllowanceCharge').map((a) => allowanceCharge(a, zugferd1)),
    itemName: term(product, 'Name'),
    taxCategories: nodes(settlement, 'ApplicableTradeTax').map((t) => taxCategory(t, zugferd1)),
    classifications: terms(product, 'DesignatedProductClassification/ClassCode'),
    standardIds: terms(product, 'GlobalID'),
    originCountries: terms(product, 'OriginTradeCountry/ID'),
    properties: nodes(product, 'ApplicableProductCharacteristic').map((p) => ({ name: term(p, 'Description'), value: term(p, 'Value') })),
    netPrice: terms(agreement, 'NetPriceProductTradePrice/ChargeAmount'),
    grossPrice: terms(agreement, 'GrossPriceProductTradePrice/ChargeAmount'),
    baseQuantity: term(agreement, 'NetPriceProductTradePrice/BasisQuantity'),
  };
}

export function readCiiInvoice(root: XmlNode, zugferd1: boolean): SemanticInvoice {
  // ZUGFeRD 1 names the context, header and transaction differently; the trade structure below them is alike.
  const context = nodes(root, zugferd1 ? 'SpecifiedExchangedDocumentContext' : 'ExchangedDocumentContext')[0];
  const header = nodes(root, zugferd1 ? 'HeaderExchangedDocument' : 'ExchangedDocument')[0];
  const tx = nodes(root, zugferd1 ? 'SpecifiedSupplyChainTradeTransaction' : 'SupplyChainTradeTransaction')[0];
  const agreement = nodes(tx, 'ApplicableHeaderTradeAgreement')[0] ?? nodes(tx, 'ApplicableSupplyChainTradeAgreement')[0];
  const delivery = nodes(tx, 'ApplicableHeaderTradeDelivery')[0] ?? nodes(tx, 'ApplicableSupplyChainTradeDelivery')[0];
  const settlement = nodes(tx, 'ApplicableHeaderTradeSettlement')[0] ?? nodes(tx, 'ApplicableSupplyChainTradeSettlement')[0];
  // Every monetary summation (a duplicated one is judged as the schematron judges it, each in its own context).
  const headerSummations = nodes(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation');
  const summations = headerSummations.length > 0 ? headerSummations : nodes(settlement, 'SpecifiedTradeSettlementMonetarySummation');
  const issue = terms(header, 'IssueDateTime/DateTimeString').find((t) => t.attrs.format === '102');
  const representative = nodes(agreement, 'SellerTaxRepresentativeTradeParty')[0];
  const payee = nodes(settlement, 'PayeeTradeParty')[0];
  const shipTo = nodes(delivery, 'ShipToTradeParty')[0];
  const shipToAddress = nodes(shipTo, 'PostalTradeAddress')[0];
  return {
    syntax: 'cii',
    ...(zugferd1 ? { zugferd1: true } : {}),
    creditNote: false,
    specification: term(context, 'GuidelineSpecifiedDocumentContextParameter/ID'),
    number: term(header, 'ID'),
    buyerReference: term(agreement, 'BuyerReference'),
    issueDate: issue,
    taxPointDate: descendants(root, new Set(['TaxPointDate']))[0],
    typeCode: term(header, 'TypeCode'),
    currencies: terms(settlement, 'InvoiceCurrencyCode'),
    taxCurrencies: terms(settlement, 'TaxCurrencyCode'),
    notes: nodes(header, 'IncludedNote').map((n) => ({ text: term(n, 'Content'), subjectCode: term(n, 'SubjectCode') })),
    periods: nodes(settlement, 'BillingSpecifiedPeriod').map(period),
    dueDateTypeCodes: descendants(root, new Set(['DueDateTypeCode'])),
    precedingInvoices: nodes(settlement, 'InvoiceReferencedDocument').map((d) => ({ id: term(d, 'IssuerAssignedID') })),
    documents: [...nodes(agreement, 'AdditionalReferencedDocument'), ...nodes(tx, 'IncludedSupplyChainTradeLineItem/SpecifiedLineTradeAgreement/AdditionalReferencedDocument')].map((d) => ({
      additional: true,
      id: term(d, 'IssuerAssignedID'),
      typeCode: term(d, 'TypeCode'),
      attachments: terms(d, 'AttachmentBinaryObject'),
    })),
    seller: party(nodes(agreement, 'SellerTradeParty')[0]),
    buyer: party(nodes(agreement, 'BuyerTradeParty')[0]),
    hasSeller: has(agreement, 'SellerTradeParty'),
    hasBuyer: has(agreement, 'BuyerTradeParty'),
    payee: payee ? party(payee) : undefined,
    taxRepresentative: representative ? party(representative) : undefined,
    delivery: delivery
      ? [{ date: term(delivery, 'ActualDeliverySupplyChainEvent/OccurrenceDateTime/DateTimeString'), address: address(shipToAddress), hasAddress: shipToAddress !== undefined, locationIds: terms(shipTo, 'GlobalID'), shipToParty: shipTo !== undefined }]
      : [],
    paymentMeans: nodes(settlement, 'SpecifiedTradeSettlementPaymentMeans').map((p) => ({
      code: term(p, 'TypeCode'),
      accounts: nodes(p, 'PayeePartyCreditorFinancialAccount').map((a) => ({ id: term(a, 'IBANID') ?? term(a, 'ProprietaryID'), iban: term(a, 'IBANID'), proprietary: term(a, 'ProprietaryID') })),
      cards: terms(p, 'ApplicableTradeSettlementFinancialCard/ID'),
    })),
    allowanceCharges: nodes(settlement, 'SpecifiedTradeAllowanceCharge').map((a) => allowanceCharge(a, zugferd1)),
    taxTotals: [{
      taxAmounts: summations.flatMap((m) => terms(m, 'TaxTotalAmount')),
      subtotals: nodes(settlement, 'ApplicableTradeTax').map((t) => ({ taxableAmount: term(t, 'BasisAmount'), taxAmount: term(t, 'CalculatedAmount'), categories: [taxCategory(t, zugferd1)] })),
    }],
    totals: summations.map((summation) => ({
      lineExtension: terms(summation, 'LineTotalAmount'),
      taxExclusive: terms(summation, 'TaxBasisTotalAmount'),
      taxInclusive: terms(summation, 'GrandTotalAmount'),
      allowanceTotal: terms(summation, 'AllowanceTotalAmount'),
      chargeTotal: terms(summation, 'ChargeTotalAmount'),
      prepaid: terms(summation, 'TotalPrepaidAmount'),
      rounding: terms(summation, 'RoundingAmount'),
      payable: terms(summation, 'DuePayableAmount'),
      taxTotal: terms(summation, 'TaxTotalAmount'),
    })),
    lines: nodes(tx, 'IncludedSupplyChainTradeLineItem').map((l) => line(l, zugferd1)),
    amountCurrencies: descendants(root, new Set(['TaxTotalAmount'])).filter((t) => 'currencyID' in t.attrs),
    unitCodes: descendants(root, new Set(['BasisQuantity', 'BilledQuantity'])).filter((t) => 'unitCode' in t.attrs),
    countryCodes: descendants(root, new Set(['CountryID'])),
    referenceTypeCodes: descendants(root, new Set(['ReferenceTypeCode'])),
  };
}
