/**
 * XRechnung 3.0 (KoSIT's CIUS of EN 16931): a subset of its own rules, BR-DE-*, with the ids, flags and contexts of
 * KoSIT's schematron (`../shared/testdata/xrechnung/oracle/XRechnung-{UBL,CII}-validation.xslt`, XRechnung 3.0).
 * An XRechnung must also pass every EN 16931 rule; this set is applied beside `en16931`, never instead of it.
 *
 * Each rule is checked on the element tree (local names) in the context the schematron gives it — an assert on the
 * seller's postal address fires only where that address exists — so that its verdict is the official one; the
 * differential test (xrechnungDifferential.test.ts in testing/) compares them with the XSLT on the technical cases
 * and their mutants. Implemented: BR-DE-1 … 11, 14, 15, 17, 21, 23-a/b, 24-a/b, 25-a/b, 26. Not implemented (and so
 * never reported): BR-DE-16, 18, 19, 20, 22, 27, 28, 30, 31, the BR-DEX-* extension rules, the CVD rules, and the
 * PEPPOL-EN16931-* rules XRechnung includes — `XRECHNUNG_RULE_IDS` lists what is checked.
 */
import { all, at, children, textOf, type XmlNode, type XmlValue } from '../../einvoice/xmlInput.js';
import type { RuleFailure, RuleFlag } from '../model/report.js';

export const XRECHNUNG_VERSION = '3.0';
const XR_CIUS_ID = `urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_${XRECHNUNG_VERSION}`;
/** BR-DE-21: the specification identifiers XRechnung 3.0 accepts (CIUS, extension, CVD 0.9). */
const XR_IDS = [XR_CIUS_ID, `${XR_CIUS_ID}#conformant#urn:xeinkauf.de:kosit:extension:xrechnung_${XRECHNUNG_VERSION}`, `${XR_CIUS_ID}#compliant#urn:xeinkauf.de:kosit:xrechnung:cvd_0.9`];
/** BR-DE-17: the document type codes XRechnung supports. */
const TYPE_CODES = new Set(['326', '380', '384', '389', '381', '875', '876', '877']);

/** The KoSIT messages (German, as the schematron writes them), shortened to their rule statement. */
const RULES: Record<string, { flag: RuleFlag; bt: string[]; message: string }> = {
  'BR-DE-1': { flag: 'fatal', bt: ['BG-16'], message: '[BR-DE-1] Eine Rechnung (INVOICE) muss Angaben zu "PAYMENT INSTRUCTIONS" (BG-16) enthalten.' },
  'BR-DE-2': { flag: 'fatal', bt: ['BG-6'], message: '[BR-DE-2] Die Gruppe "SELLER CONTACT" (BG-6) muss übermittelt werden.' },
  'BR-DE-3': { flag: 'fatal', bt: ['BT-37'], message: '[BR-DE-3] Das Element "Seller city" (BT-37) muss übermittelt werden.' },
  'BR-DE-4': { flag: 'fatal', bt: ['BT-38'], message: '[BR-DE-4] Das Element "Seller post code" (BT-38) muss übermittelt werden.' },
  'BR-DE-5': { flag: 'fatal', bt: ['BT-41'], message: '[BR-DE-5] Das Element "Seller contact point" (BT-41) muss übermittelt werden.' },
  'BR-DE-6': { flag: 'fatal', bt: ['BT-42'], message: '[BR-DE-6] Das Element "Seller contact telephone number" (BT-42) muss übermittelt werden.' },
  'BR-DE-7': { flag: 'fatal', bt: ['BT-43'], message: '[BR-DE-7] Das Element "Seller contact email address" (BT-43) muss übermittelt werden.' },
  'BR-DE-8': { flag: 'fatal', bt: ['BT-52'], message: '[BR-DE-8] Das Element "Buyer city" (BT-52) muss übermittelt werden.' },
  'BR-DE-9': { flag: 'fatal', bt: ['BT-53'], message: '[BR-DE-9] Das Element "Buyer post code" (BT-53) muss übermittelt werden.' },
  'BR-DE-10': { flag: 'fatal', bt: ['BT-77'], message: '[BR-DE-10] Das Element "Deliver to city" (BT-77) muss übermittelt werden, wenn die Gruppe "DELIVER TO ADDRESS" (BG-15) übermittelt wird.' },
  'BR-DE-11': { flag: 'fatal', bt: ['BT-78'], message: '[BR-DE-11] Das Element "Deliver to post code" (BT-78) muss übermittelt werden, wenn die Gruppe "DELIVER TO ADDRESS" (BG-15) übermittelt wird.' },
  'BR-DE-14': { flag: 'fatal', bt: ['BT-119'], message: '[BR-DE-14] Das Element "VAT category rate" (BT-119) muss übermittelt werden.' },
  'BR-DE-15': { flag: 'fatal', bt: ['BT-10'], message: '[BR-DE-15] Das Element "Buyer reference" (BT-10) muss übermittelt werden.' },
  'BR-DE-17': { flag: 'warning', bt: ['BT-3'], message: '[BR-DE-17] Mit dem Element "Invoice type code" (BT-3) sollen ausschließlich folgende Codes aus der Codeliste UNTDID 1001 übermittelt werden: 326, 380, 384, 389, 381, 875, 876, 877.' },
  'BR-DE-21': { flag: 'warning', bt: ['BT-24'], message: '[BR-DE-21] Das Element "Specification identifier" (BT-24) soll syntaktisch der Kennung des Standards XRechnung entsprechen.' },
  'BR-DE-23-a': { flag: 'fatal', bt: ['BG-17'], message: '[BR-DE-23-a] Wenn BT-81 "Payment means type code" einen Schlüssel für Überweisungen enthält (30, 58), muss BG-17 "CREDIT TRANSFER" übermittelt werden.' },
  'BR-DE-23-b': { flag: 'fatal', bt: ['BG-18', 'BG-19'], message: '[BR-DE-23-b] Wenn BT-81 "Payment means type code" einen Schlüssel für Überweisungen enthält (30, 58), dürfen BG-18 und BG-19 nicht übermittelt werden.' },
  'BR-DE-24-a': { flag: 'fatal', bt: ['BG-18'], message: '[BR-DE-24-a] Wenn BT-81 "Payment means type code" einen Schlüssel für Zahlungskarten enthält (48, 54, 55), muss BG-18 "PAYMENT CARD INFORMATION" übermittelt werden.' },
  'BR-DE-24-b': { flag: 'fatal', bt: ['BG-17', 'BG-19'], message: '[BR-DE-24-b] Wenn BT-81 "Payment means type code" einen Schlüssel für Zahlungskarten enthält (48, 54, 55), dürfen BG-17 und BG-19 nicht übermittelt werden.' },
  'BR-DE-25-a': { flag: 'fatal', bt: ['BG-19'], message: '[BR-DE-25-a] Wenn BT-81 "Payment means type code" einen Schlüssel für Lastschriften enthält (59), muss BG-19 "DIRECT DEBIT" übermittelt werden.' },
  'BR-DE-25-b': { flag: 'fatal', bt: ['BG-17', 'BG-18'], message: '[BR-DE-25-b] Wenn BT-81 "Payment means type code" einen Schlüssel für Lastschriften enthält (59), dürfen BG-17 und BG-18 nicht übermittelt werden.' },
  'BR-DE-26': { flag: 'warning', bt: ['BG-3'], message: '[BR-DE-26] Wenn im Element "Invoice type code" (BT-3) der Code 384 (Corrected invoice) übermittelt wird, soll PRECEDING INVOICE REFERENCE BG-3 mindestens einmal vorhanden sein.' },
};

export const XRECHNUNG_RULE_IDS = Object.keys(RULES);

/** XPath `normalize-space(x)`: whitespace runs to one space, trimmed. */
const normalized = (node: XmlValue | undefined): string => (textOf(node) ?? '').replace(/\s+/g, ' ').trim();
/** `x[boolean(normalize-space(.))]`: some element at the path has non-blank text. */
const someText = (node: XmlValue | undefined, path: string): boolean => all(node, path).some((n) => normalized(n) !== '');
const exists = (node: XmlValue | undefined, path: string): boolean => all(node, path).length > 0;

interface Binding {
  /** The document context's element paths (relative to the root element). */
  seller: string;
  sellerAddress: string;
  sellerContact: string;
  contactName: string[];
  contactPhone: string;
  contactEmail: string;
  buyerAddress: string;
  deliveryAddress: string;
  paymentMeans: string;
  paymentMeansCode: string;
  creditTransfer: string;
  card: string;
  /** BG-19 inside the payment means (UBL: the mandate; CII: the debtor's account) and, for CII, at document level. */
  directDebit: string;
  documentDirectDebit: string[];
  vatBreakdown: string;
  vatRate: string;
  buyerReference: string;
  typeCode: string;
  specification: string;
  precedingInvoice: string;
}

const UBL: Binding = {
  seller: 'AccountingSupplierParty',
  sellerAddress: 'AccountingSupplierParty/Party/PostalAddress',
  sellerContact: 'AccountingSupplierParty/Party/Contact',
  contactName: ['Name'],
  contactPhone: 'Telephone',
  contactEmail: 'ElectronicMail',
  buyerAddress: 'AccountingCustomerParty/Party/PostalAddress',
  deliveryAddress: 'Delivery/DeliveryLocation/Address',
  paymentMeans: 'PaymentMeans',
  paymentMeansCode: 'PaymentMeansCode',
  creditTransfer: 'PayeeFinancialAccount',
  card: 'CardAccount',
  directDebit: 'PaymentMandate',
  documentDirectDebit: [],
  vatBreakdown: 'TaxTotal/TaxSubtotal',
  vatRate: 'TaxCategory/Percent',
  buyerReference: 'BuyerReference',
  typeCode: 'InvoiceTypeCode|CreditNoteTypeCode',
  specification: 'CustomizationID',
  precedingInvoice: 'BillingReference/InvoiceDocumentReference',
};

const CII: Binding = {
  seller: 'SupplyChainTradeTransaction/ApplicableHeaderTradeAgreement/SellerTradeParty',
  sellerAddress: 'SupplyChainTradeTransaction/ApplicableHeaderTradeAgreement/SellerTradeParty/PostalTradeAddress',
  sellerContact: 'SupplyChainTradeTransaction/ApplicableHeaderTradeAgreement/SellerTradeParty/DefinedTradeContact',
  contactName: ['PersonName', 'DepartmentName'],
  contactPhone: 'TelephoneUniversalCommunication/CompleteNumber',
  contactEmail: 'EmailURIUniversalCommunication/URIID',
  buyerAddress: 'SupplyChainTradeTransaction/ApplicableHeaderTradeAgreement/BuyerTradeParty/PostalTradeAddress',
  deliveryAddress: 'SupplyChainTradeTransaction/ApplicableHeaderTradeDelivery/ShipToTradeParty/PostalTradeAddress',
  paymentMeans: 'SupplyChainTradeTransaction/ApplicableHeaderTradeSettlement/SpecifiedTradeSettlementPaymentMeans',
  paymentMeansCode: 'TypeCode',
  creditTransfer: 'PayeePartyCreditorFinancialAccount',
  card: 'ApplicableTradeSettlementFinancialCard',
  directDebit: 'PayerPartyDebtorFinancialAccount/IBANID',
  documentDirectDebit: ['SupplyChainTradeTransaction/ApplicableHeaderTradeSettlement/SpecifiedTradePaymentTerms/DirectDebitMandateID', 'SupplyChainTradeTransaction/ApplicableHeaderTradeSettlement/CreditorReferenceID'],
  vatBreakdown: 'SupplyChainTradeTransaction/ApplicableHeaderTradeSettlement/ApplicableTradeTax',
  vatRate: 'RateApplicablePercent',
  buyerReference: 'SupplyChainTradeTransaction/ApplicableHeaderTradeAgreement/BuyerReference',
  typeCode: 'ExchangedDocument/TypeCode',
  specification: 'ExchangedDocumentContext/GuidelineSpecifiedDocumentContextParameter/ID',
  precedingInvoice: 'SupplyChainTradeTransaction/ApplicableHeaderTradeSettlement/InvoiceReferencedDocument',
};

/** A path with `|` alternatives at its last step (UBL's Invoice/CreditNote type code). */
function allOf(node: XmlValue | undefined, path: string): XmlValue[] {
  const slash = path.lastIndexOf('/');
  const [head, last] = slash < 0 ? ['', path] : [path.slice(0, slash), path.slice(slash + 1)];
  const parents = head ? all(node, head) : node === undefined ? [] : [node];
  return last.split('|').flatMap((name) => parents.flatMap((p) => children(p, name)));
}

/** The fired XRechnung rules of an invoice's element tree (`root`: the root element, children by local name). */
export function checkXRechnung(syntax: 'ubl' | 'cii', root: XmlNode): RuleFailure[] {
  const b = syntax === 'cii' ? CII : UBL;
  const fired = new Set<string>();
  const fire = (id: string, holds: boolean): void => {
    if (!holds) fired.add(id);
  };

  // The document (UBL: /Invoice | /CreditNote; CII: /CrossIndustryInvoice).
  fire('BR-DE-1', exists(root, b.paymentMeans));
  fire('BR-DE-15', someText(root, b.buyerReference));
  const typeCodes = allOf(root, b.typeCode).map(normalized);
  fire('BR-DE-17', typeCodes.some((code) => TYPE_CODES.has(code)));
  fire('BR-DE-26', !typeCodes.includes('384') || exists(root, b.precedingInvoice));
  // CII's context is ExchangedDocumentContext: the rule runs only where it exists.
  if (syntax === 'ubl' || exists(root, 'ExchangedDocumentContext')) fire('BR-DE-21', allOf(root, b.specification).some((id) => XR_IDS.includes(textOf(id) ?? '')));

  // The seller, its address and contact; the buyer's and the delivery address (each where the group exists).
  for (const seller of all(root, b.seller)) fire('BR-DE-2', exists(seller, syntax === 'ubl' ? 'Party/Contact' : 'DefinedTradeContact'));
  for (const address of all(root, b.sellerAddress)) {
    fire('BR-DE-3', someText(address, 'CityName'));
    fire('BR-DE-4', someText(address, syntax === 'ubl' ? 'PostalZone' : 'PostcodeCode'));
  }
  for (const contact of all(root, b.sellerContact)) {
    fire('BR-DE-5', b.contactName.some((name) => someText(contact, name)));
    fire('BR-DE-6', someText(contact, b.contactPhone));
    fire('BR-DE-7', someText(contact, b.contactEmail));
  }
  for (const address of all(root, b.buyerAddress)) {
    fire('BR-DE-8', someText(address, 'CityName'));
    fire('BR-DE-9', someText(address, syntax === 'ubl' ? 'PostalZone' : 'PostcodeCode'));
  }
  for (const address of all(root, b.deliveryAddress)) {
    fire('BR-DE-10', someText(address, 'CityName'));
    fire('BR-DE-11', someText(address, syntax === 'ubl' ? 'PostalZone' : 'PostcodeCode'));
  }

  // Payment means by kind: credit transfer (30, 58), card (48, 54, 55), direct debit (59).
  const documentDebit = b.documentDirectDebit.some((path) => exists(root, path));
  for (const means of all(root, b.paymentMeans)) {
    const code = normalized(at(means, b.paymentMeansCode));
    const transfer = exists(means, b.creditTransfer);
    const card = exists(means, b.card);
    const debit = exists(means, b.directDebit) || documentDebit;
    if (code === '30' || code === '58') {
      fire('BR-DE-23-a', transfer);
      fire('BR-DE-23-b', !card && !debit);
    } else if (code === '48' || code === '54' || code === '55') {
      fire('BR-DE-24-a', card);
      fire('BR-DE-24-b', !transfer && !debit);
    } else if (code === '59') {
      fire('BR-DE-25-a', debit);
      fire('BR-DE-25-b', !transfer && !card);
    }
  }

  for (const breakdown of all(root, b.vatBreakdown)) fire('BR-DE-14', someText(breakdown, b.vatRate));

  return XRECHNUNG_RULE_IDS.filter((id) => fired.has(id)).map((id) => ({ id, ...RULES[id]! }));
}
