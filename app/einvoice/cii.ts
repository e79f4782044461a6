/**
 * UN/CEFACT Cross Industry Invoice → EInvoice, for both generations of the German/French e-invoice:
 * - ZUGFeRD 1.0 `CrossIndustryDocument` (CII D13A-era names: HeaderExchangedDocument, SpecifiedSupplyChainTradeTransaction,
 *   ApplicableSupplyChainTradeAgreement/…Settlement, SpecifiedTradeSettlementMonetarySummation);
 * - ZUGFeRD 2.x / Factur-X / XRechnung CII `CrossIndustryInvoice` (D16B: ExchangedDocument, SupplyChainTradeTransaction,
 *   ApplicableHeaderTradeAgreement/…Settlement, SpecifiedTradeSettlementHeaderMonetarySummation).
 * The two differ in element names only; one table of names per generation drives one reader.
 */
import { all, at, attributeOf, decimalOf, textOf, type XmlNode, type XmlValue } from './xmlInput.js';
import { isoDate, profileName, sourced, type EInvoice, type EInvoiceLine, type EInvoiceTax, type XmlSourced } from './einvoice.js';
import type { Party } from '../invoice/fieldShape.js';
import type { TaxCategory } from '../en16931/model/semanticInvoice.js';
import { zugferd1Tax } from '../en16931/zugferd1/zugferd1Categories.js';

interface CiiNames {
  flavour: string;
  context: string;
  document: string;
  transaction: string;
  agreement: string;
  settlement: string;
  summation: string;
  lineDelivery: string;
  lineAgreement: string;
  lineSettlement: string;
  lineSummation: string;
}

const d16b: CiiNames = {
  flavour: 'CII CrossIndustryInvoice',
  context: 'ExchangedDocumentContext',
  document: 'ExchangedDocument',
  transaction: 'SupplyChainTradeTransaction',
  agreement: 'ApplicableHeaderTradeAgreement',
  settlement: 'ApplicableHeaderTradeSettlement',
  summation: 'SpecifiedTradeSettlementHeaderMonetarySummation',
  lineDelivery: 'SpecifiedLineTradeDelivery',
  lineAgreement: 'SpecifiedLineTradeAgreement',
  lineSettlement: 'SpecifiedLineTradeSettlement',
  lineSummation: 'SpecifiedTradeSettlementLineMonetarySummation',
};

const zugferd1: CiiNames = {
  flavour: 'ZUGFeRD 1.0 CrossIndustryDocument',
  context: 'SpecifiedExchangedDocumentContext',
  document: 'HeaderExchangedDocument',
  transaction: 'SpecifiedSupplyChainTradeTransaction',
  agreement: 'ApplicableSupplyChainTradeAgreement',
  settlement: 'ApplicableSupplyChainTradeSettlement',
  summation: 'SpecifiedTradeSettlementMonetarySummation',
  lineDelivery: 'SpecifiedSupplyChainTradeDelivery',
  lineAgreement: 'SpecifiedSupplyChainTradeAgreement',
  lineSettlement: 'SpecifiedSupplyChainTradeSettlement',
  lineSummation: 'SpecifiedTradeSettlementMonetarySummation',
};

function party(node: XmlValue | undefined): Party {
  const address = at(node, 'PostalTradeAddress');
  const lines = ['LineOne', 'LineTwo', 'LineThree'].map((n) => textOf(at(address, n))).filter((t): t is string => !!t);
  const city = [textOf(at(address, 'PostcodeCode')), textOf(at(address, 'CityName'))].filter(Boolean).join(' ');
  if (city) lines.push(city);
  const country = textOf(at(address, 'CountryID'));
  if (country) lines.push(country);
  const vat = all(node, 'SpecifiedTaxRegistration/ID').find((id) => attributeOf(id, 'schemeID') === 'VA') ?? at(node, 'SpecifiedTaxRegistration/ID');
  return { name: textOf(at(node, 'Name')), address: lines, vatId: textOf(vat) };
}

/** An amount among several of the same name: the one in the invoice currency (TaxTotalAmount may repeat per currency). */
function amountIn(nodes: XmlValue[], currency: string | null): XmlValue | undefined {
  return nodes.find((n) => currency !== null && attributeOf(n, 'currencyID') === currency) ?? nodes[0];
}

function money(base: string, nodes: XmlValue[], currency: string | null): XmlSourced<number> | null {
  const node = amountIn(nodes, currency);
  return sourced(decimalOf(node), textOf(node), base);
}

/** A CII date (`udt:DateTimeString` with its format code) under `node` at `path`; `base` is node's own path. */
function dateAt(node: XmlValue | undefined, base: string, path: string): XmlSourced<string> | null {
  const dateNode = at(node, `${path}/DateTimeString`);
  const text = textOf(dateNode);
  return sourced(isoDate(text, attributeOf(dateNode, 'format')), text, `${base}${path}/DateTimeString`);
}

/** A ZUGFeRD 1.0 tax element as the EN 16931 model's terms, for its code lists' reading (zugferd1Categories.ts). */
function zugferd1TaxTerms(tax: XmlValue | undefined): TaxCategory {
  const term = (name: string) => {
    const text = textOf(at(tax, name));
    return text === null ? undefined : { text, attrs: {} };
  };
  return { code: term('CategoryCode'), rate: term('ApplicablePercent'), scheme: term('TypeCode'), exemptionReason: undefined, exemptionReasonCode: undefined };
}

export function readCii(root: XmlNode, rootName: string): EInvoice {
  const names = rootName === 'CrossIndustryDocument' ? zugferd1 : d16b;
  // ZUGFeRD 1.0's categories in EN 16931's codes, as the export reads them (a BASIC rate without category is S, an
  // insurance tax has no VAT category): the review shows what the e-invoice written from it will say.
  const zugferd1Header = names === zugferd1 ? all(at(at(root, names.transaction), names.settlement), 'ApplicableTradeTax').map(zugferd1TaxTerms) : [];
  const categoryOf = (tax: XmlValue | undefined): string | null => {
    if (names !== zugferd1) return textOf(at(tax, 'CategoryCode'));
    const read = zugferd1Tax(zugferd1TaxTerms(tax), zugferd1Header);
    return read.vat ? read.category : null;
  };
  const document = at(root, names.document);
  const transaction = at(root, names.transaction);
  const agreement = at(transaction, names.agreement);
  const settlement = at(transaction, names.settlement);
  const summation = at(settlement, names.summation);
  const T = `${names.transaction}/`;
  const S = `${T}${names.settlement}/`;
  const M = `${S}${names.summation}/`;

  const profileId = textOf(at(root, `${names.context}/GuidelineSpecifiedDocumentContextParameter/ID`));
  const currencyText = textOf(at(settlement, 'InvoiceCurrencyCode'));
  const seller = party(at(agreement, 'SellerTradeParty'));
  const buyer = party(at(agreement, 'BuyerTradeParty'));

  const lines: EInvoiceLine[] = all(transaction, 'IncludedSupplyChainTradeLineItem').map((item) => {
    const quantity = at(item, `${names.lineDelivery}/BilledQuantity`);
    return {
      id: textOf(at(item, 'AssociatedDocumentLineDocument/LineID')),
      description: textOf(at(item, 'SpecifiedTradeProduct/Name')) ?? '',
      quantity: decimalOf(quantity),
      unitCode: attributeOf(quantity, 'unitCode'),
      unit_price: decimalOf(at(item, `${names.lineAgreement}/NetPriceProductTradePrice/ChargeAmount`)),
      amount: decimalOf(amountIn(all(item, `${names.lineSettlement}/${names.lineSummation}/LineTotalAmount`), currencyText)),
      taxRate: decimalOf(at(item, `${names.lineSettlement}/ApplicableTradeTax/RateApplicablePercent`) ?? at(item, `${names.lineSettlement}/ApplicableTradeTax/ApplicablePercent`)),
      taxCategory: categoryOf(at(item, `${names.lineSettlement}/ApplicableTradeTax`)),
    };
    // A text line (ZUGFeRD 1.0 puts free text between the items as a line item with a note and nothing else): no item.
  }).filter((line) => line.description !== '' || line.quantity !== null || line.amount !== null);

  const taxes: EInvoiceTax[] = all(settlement, 'ApplicableTradeTax').map((tax) => ({
    category: categoryOf(tax),
    rate: decimalOf(at(tax, 'RateApplicablePercent') ?? at(tax, 'ApplicablePercent')),
    basis: decimalOf(at(tax, 'BasisAmount')),
    amount: decimalOf(at(tax, 'CalculatedAmount')),
  }));

  const payment = [
    ...all(settlement, 'SpecifiedTradePaymentTerms/Description').map(textOf),
    ...all(settlement, 'SpecifiedTradeSettlementPaymentMeans/PayeePartyCreditorFinancialAccount/IBANID').map((n) => {
      const iban = textOf(n);
      return iban ? `IBAN ${iban}` : null;
    }),
  ].filter((t): t is string => !!t);

  return {
    info: {
      syntax: 'CII',
      flavour: names.flavour,
      profileId,
      profile: profileName(profileId),
      typeCode: textOf(at(document, 'TypeCode')),
      fileName: null,
    },
    fields: {
      invoice_number: sourced(textOf(at(document, 'ID')), null, `${names.document}/ID`),
      issue_date: dateAt(document, `${names.document}/`, 'IssueDateTime'),
      due_date: dateAt(settlement, S, 'SpecifiedTradePaymentTerms/DueDateDateTime'),
      seller: sourced(seller.name, null, `${T}${names.agreement}/SellerTradeParty/Name`),
      buyer: sourced(buyer.name, null, `${T}${names.agreement}/BuyerTradeParty/Name`),
      currency: sourced(currencyText, null, `${S}InvoiceCurrencyCode`),
      subtotal: money(`${M}TaxBasisTotalAmount`, all(summation, 'TaxBasisTotalAmount'), currencyText),
      tax: money(`${M}TaxTotalAmount`, all(summation, 'TaxTotalAmount'), currencyText),
      total: money(`${M}GrandTotalAmount`, all(summation, 'GrandTotalAmount'), currencyText),
      amount_due: money(`${M}DuePayableAmount`, all(summation, 'DuePayableAmount'), currencyText),
    },
    seller,
    buyer,
    lines,
    taxes,
    adjustments: {
      line_total: decimalOf(amountIn(all(summation, 'LineTotalAmount'), currencyText)),
      allowances: decimalOf(amountIn(all(summation, 'AllowanceTotalAmount'), currencyText)),
      charges: decimalOf(amountIn(all(summation, 'ChargeTotalAmount'), currencyText)),
      prepaid: decimalOf(amountIn(all(summation, 'TotalPrepaidAmount'), currencyText)),
      rounding: decimalOf(amountIn(all(summation, 'RoundingAmount'), currencyText)),
    },
    notes: all(document, 'IncludedNote/Content').map(textOf).filter((t): t is string => !!t),
    payment,
  };
}
