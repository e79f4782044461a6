/**
 * XRechnung 3.0 (KoSIT's CIUS of EN 16931): a subset of its own rules, BR-DE-*, with the ids, flags and contexts of
 * KoSIT's schematron (`../shared/testdata/xrechnung/oracle/XRechnung-{UBL,CII}-validation.xslt`, XRechnung 3.0).
 * An XRechnung must also pass every EN 16931 rule; this set is applied beside `en16931`, never instead of it.
 *
 * Each rule is checked on the element tree (local names) in the context the schematron gives it — an assert on the
 * seller's postal address fires only where that address exists — so that its verdict is the official one; the
 * differential test (xrechnungDifferential.test.ts in testing/) compares them with the XSLT on the technical cases
 * and their mutants. Implemented: BR-DE-1 … 11, 14 … 22, 23-a/b, 24-a/b, 25-a/b, 26 … 28, 30, 31 (BR-DE-18 on the XML's
 * text, where the caller passes it), and all 21 Peppol rules XRechnung 3.0 includes (CII writes R043 as R043-1 and
 * R043-2; R120 is UBL's only). Not implemented (and so never reported): the BR-DEX-* extension rules and the CVD
 * rules — `XRECHNUNG_RULE_IDS` lists what is.
 */
import { all, at, attributeOf, children, decimalOf, textOf, type XmlNode, type XmlValue } from '../../einvoice/xmlInput.js';
import type { RuleFailure, RuleFlag } from '../model/report.js';
import type Big from 'big.js';
import { decOf, xround } from '../decimal.js';

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
  'BR-DE-16': { flag: 'fatal', bt: ['BT-31', 'BT-32', 'BG-11'], message: '[BR-DE-16] Wenn in einer Rechnung die Steuercodes S, Z, E, AE, K, G, L oder M verwendet werden, muss mindestens eines der Elemente "Seller VAT identifier" (BT-31), "Seller tax registration identifier" (BT-32) oder "SELLER TAX REPRESENTATIVE PARTY" (BG-11) übermittelt werden.' },
  'BR-DE-17': { flag: 'warning', bt: ['BT-3'], message: '[BR-DE-17] Mit dem Element "Invoice type code" (BT-3) sollen ausschließlich folgende Codes aus der Codeliste UNTDID 1001 übermittelt werden: 326, 380, 384, 389, 381, 875, 876, 877.' },
  'BR-DE-18': { flag: 'fatal', bt: ['BT-20'], message: '[BR-DE-18] Die Informationen zur Gewährung von Skonto müssen wie folgt im Element "Payment terms" (BT-20) übermittelt werden: Anzugeben ist im ersten Segment "SKONTO", im zweiten "TAGE=n", im dritten "PROZENT=n". Skonto Zeilen müssen dem regulären Ausdruck XR-SKONTO-REGEX entsprechen.' },
  'BR-DE-19': { flag: 'warning', bt: ['BT-84'], message: '[BR-DE-19] "Payment account identifier" (BT-84) soll eine korrekte IBAN enthalten, wenn in "Payment means type code" (BT-81) mit dem Code 58 SEPA als Zahlungsmittel gefordert wird.' },
  'BR-DE-20': { flag: 'warning', bt: ['BT-91'], message: '[BR-DE-20] "Debited account identifier" (BT-91) soll eine korrekte IBAN enthalten, wenn in "Payment means type code" (BT-81) mit dem Code 59 SEPA als Zahlungsmittel gefordert wird.' },
  'BR-DE-21': { flag: 'warning', bt: ['BT-24'], message: '[BR-DE-21] Das Element "Specification identifier" (BT-24) soll syntaktisch der Kennung des Standards XRechnung entsprechen.' },
  'BR-DE-22': { flag: 'fatal', bt: ['BT-125'], message: '[BR-DE-22] Das "filename"-Attribut aller "EmbeddedDocumentBinaryObject"-Elemente muss eindeutig sein' },
  'BR-DE-23-a': { flag: 'fatal', bt: ['BG-17'], message: '[BR-DE-23-a] Wenn BT-81 "Payment means type code" einen Schlüssel für Überweisungen enthält (30, 58), muss BG-17 "CREDIT TRANSFER" übermittelt werden.' },
  'BR-DE-23-b': { flag: 'fatal', bt: ['BG-18', 'BG-19'], message: '[BR-DE-23-b] Wenn BT-81 "Payment means type code" einen Schlüssel für Überweisungen enthält (30, 58), dürfen BG-18 und BG-19 nicht übermittelt werden.' },
  'BR-DE-24-a': { flag: 'fatal', bt: ['BG-18'], message: '[BR-DE-24-a] Wenn BT-81 "Payment means type code" einen Schlüssel für Zahlungskarten enthält (48, 54, 55), muss BG-18 "PAYMENT CARD INFORMATION" übermittelt werden.' },
  'BR-DE-24-b': { flag: 'fatal', bt: ['BG-17', 'BG-19'], message: '[BR-DE-24-b] Wenn BT-81 "Payment means type code" einen Schlüssel für Zahlungskarten enthält (48, 54, 55), dürfen BG-17 und BG-19 nicht übermittelt werden.' },
  'BR-DE-25-a': { flag: 'fatal', bt: ['BG-19'], message: '[BR-DE-25-a] Wenn BT-81 "Payment means type code" einen Schlüssel für Lastschriften enthält (59), muss BG-19 "DIRECT DEBIT" übermittelt werden.' },
  'BR-DE-25-b': { flag: 'fatal', bt: ['BG-17', 'BG-18'], message: '[BR-DE-25-b] Wenn BT-81 "Payment means type code" einen Schlüssel für Lastschriften enthält (59), dürfen BG-17 und BG-18 nicht übermittelt werden.' },
  'BR-DE-26': { flag: 'warning', bt: ['BG-3'], message: '[BR-DE-26] Wenn im Element "Invoice type code" (BT-3) der Code 384 (Corrected invoice) übermittelt wird, soll PRECEDING INVOICE REFERENCE BG-3 mindestens einmal vorhanden sein.' },
  'BR-DE-27': { flag: 'warning', bt: ['BT-42'], message: '[BR-DE-27] In BT-42 sollen mindestens drei Ziffern enthalten sein.' },
  'BR-DE-28': { flag: 'warning', bt: ['BT-43'], message: '[BR-DE-28] In BT-43 soll genau ein @-Zeichen enthalten sein, welches nicht von einem Leerzeichen, einem Punkt, aber mindestens zwei Zeichen auf beiden Seiten flankiert werden soll. Ein Punkt sollte nicht am Anfang oder am Ende stehen.' },
  'BR-DE-30': { flag: 'fatal', bt: ['BG-19', 'BT-90'], message: '[BR-DE-30] Wenn "DIRECT DEBIT" BG-19 vorhanden ist, dann muss "Bank assigned creditor identifier" BT-90 übermittelt werden.' },
  'BR-DE-31': { flag: 'fatal', bt: ['BG-19', 'BT-91'], message: '[BR-DE-31] Wenn "DIRECT DEBIT" BG-19 vorhanden ist, dann muss "Debited account identifier" BT-91 übermittelt werden.' },
  // The Peppol rules XRechnung 3.0 includes (KoSIT's XSLT, English messages as it writes them): those implemented.
  'PEPPOL-EN16931-R001': { flag: 'fatal', bt: ['BT-23'], message: 'Business process MUST be provided.' },
  'PEPPOL-EN16931-R005': { flag: 'fatal', bt: ['BT-6'], message: 'VAT accounting currency code MUST be different from invoice currency code when provided.' },
  'PEPPOL-EN16931-R010': { flag: 'fatal', bt: ['BT-49'], message: 'Buyer electronic address MUST be provided' },
  'PEPPOL-EN16931-R020': { flag: 'fatal', bt: ['BT-34'], message: 'Seller electronic address MUST be provided' },
  'PEPPOL-EN16931-R053': { flag: 'fatal', bt: ['BT-110'], message: 'Only one tax total with tax subtotals MUST be provided.' },
  'PEPPOL-EN16931-R054': { flag: 'fatal', bt: ['BT-111'], message: 'Only one tax total without tax subtotals MUST be provided when tax currency code is provided.' },
  'PEPPOL-EN16931-R061': { flag: 'fatal', bt: ['BT-89'], message: 'Mandate reference MUST be provided for direct debit.' },
  'PEPPOL-EN16931-R101': { flag: 'fatal', bt: ['BT-128'], message: 'Element Document reference can only be used for Invoice line object' },
  'PEPPOL-EN16931-R121': { flag: 'fatal', bt: ['BT-149'], message: 'Base quantity MUST be a positive number above zero.' },
  'PEPPOL-EN16931-R044': { flag: 'fatal', bt: ['BT-147'], message: 'Charge on price level is NOT allowed. Only value \'false\' allowed.' },
  'PEPPOL-EN16931-R046': { flag: 'fatal', bt: ['BT-146', 'BT-147', 'BT-148'], message: 'Item net price MUST equal (Gross price - Allowance amount) when gross price is provided.' },
  'PEPPOL-EN16931-R130': { flag: 'fatal', bt: ['BT-150'], message: 'Unit code of price base quantity MUST be same as invoiced quantity.' },
  'PEPPOL-EN16931-R008': { flag: 'fatal', bt: [], message: 'Document MUST not contain empty elements.' },
  'PEPPOL-EN16931-R040': { flag: 'fatal', bt: ['BT-92', 'BT-93', 'BT-94', 'BT-99', 'BT-100', 'BT-101', 'BT-136', 'BT-137', 'BT-138', 'BT-141', 'BT-142', 'BT-143'], message: 'Allowance/charge amount must equal base amount * percentage/100 if base amount and percentage exists' },
  'PEPPOL-EN16931-R041': { flag: 'fatal', bt: ['BT-93', 'BT-100', 'BT-137', 'BT-142'], message: 'Allowance/charge base amount MUST be provided when allowance/charge percentage is provided.' },
  'PEPPOL-EN16931-R042': { flag: 'fatal', bt: ['BT-94', 'BT-101', 'BT-138', 'BT-143'], message: 'Allowance/charge percentage MUST be provided when allowance/charge base amount is provided.' },
  'PEPPOL-EN16931-R043': { flag: 'fatal', bt: ['BG-20', 'BG-21', 'BG-27', 'BG-28'], message: 'Allowance/charge ChargeIndicator value MUST equal \'true\' or \'false\'' },
  'PEPPOL-EN16931-R043-1': { flag: 'fatal', bt: ['BG-20', 'BG-21', 'BG-27', 'BG-28'], message: 'Allowance/charge ChargeIndicator value MUST equal \'true\' or \'false\'' },
  'PEPPOL-EN16931-R043-2': { flag: 'fatal', bt: ['BT-147'], message: 'Allowance/charge ChargeIndicator value MUST equal \'true\' or \'false\'' },
  'PEPPOL-EN16931-R055': { flag: 'fatal', bt: ['BT-110', 'BT-111'], message: 'Invoice total VAT amount and Invoice total VAT amount in accounting currency MUST have the same operational sign' },
  'PEPPOL-EN16931-R110': { flag: 'fatal', bt: ['BT-134', 'BT-73'], message: 'Start date of line period MUST be within invoice period.' },
  'PEPPOL-EN16931-R111': { flag: 'fatal', bt: ['BT-135', 'BT-74'], message: 'End date of line period MUST be within invoice period.' },
  'PEPPOL-EN16931-R120': { flag: 'fatal', bt: ['BT-131'], message: 'Invoice line net amount MUST equal (Invoiced quantity * (Item net price/item price base quantity) + Sum of invoice line charge amount - sum of invoice line allowance amount' },
};

/** KoSIT's XR-SKONTO-REGEX (XPath `$` is the string's end; the line is normalize-space'd first). */
const SKONTO = /(^|\r?\n)#(SKONTO)#TAGE=([0-9]+#PROZENT=[0-9]+\.[0-9]{2})(#BASISBETRAG=-?[0-9]+\.[0-9]{2})?#$/;
/** XPath normalize-space: XML whitespace (space, tab, CR, LF) collapsed and trimmed. */
const xpathNormalizeSpace = (text: string): string => text.replace(/[ \t\r\n]+/g, ' ').replace(/^ | $/g, '');

/**
 * BR-DE-18 on the text of each payment terms' first note (UBL `cac:PaymentTerms/cbc:Note[1]`, CII
 * `…/ram:SpecifiedTradePaymentTerms/ram:Description[1]`) as written — its line breaks matter, and the tree's text is
 * trimmed: every line starting with `#` matches XR-SKONTO-REGEX, and after the note's last `#…#` comes a line break.
 */
function skontoHolds(notes: readonly string[]): boolean {
  for (const note of notes) {
    if (note === '') continue; // tokenize('') is the empty sequence
    const lines = note.split(/\r?\n/).filter((line) => xpathNormalizeSpace(line).startsWith('#'));
    if (lines.length === 0) continue;
    const segments = note.split(/#[^\n\r]+#/);
    const last = segments[segments.length - 1] ?? '';
    const endsWithBreak = /^[ \t\r\n]*\n/.test(last);
    if (!lines.every((line) => SKONTO.test(xpathNormalizeSpace(line)) && endsWithBreak)) return false;
  }
  return true;
}

/** The text of each `container`'s first `note` element in the XML as written: line ends normalized, CDATA and references decoded. */
export function firstNoteTexts(xml: string, container: string, note: string): string[] {
  const texts: string[] = [];
  const open = new RegExp(`<([\\w.-]+:)?${container}(?:\\s[^>]*)?>`, 'g');
  for (let m = open.exec(xml); m; m = open.exec(xml)) {
    const close = xml.indexOf(`</${m[1] ?? ''}${container}>`, m.index);
    if (close < 0) break;
    const body = xml.slice(m.index + m[0].length, close);
    const first = new RegExp(`<([\\w.-]+:)?${note}(?:\\s[^>]*?)?(/>|>([\\s\\S]*?)</\\1?${note}>)`).exec(body);
    if (first) texts.push(first[2] === '/>' ? '' : xmlTextContent(first[3] ?? ''));
    open.lastIndex = close;
  }
  return texts;
}

function xmlTextContent(raw: string): string {
  const normalized = raw.replace(/\r\n?/g, '\n');
  return normalized.replace(/<!\[CDATA\[([\s\S]*?)\]\]>|&(lt|gt|amp|quot|apos|#x[0-9a-fA-F]+|#[0-9]+);/g, (_, cdata: string | undefined, ref: string | undefined) => {
    if (cdata !== undefined) return cdata;
    if (ref === 'lt') return '<';
    if (ref === 'gt') return '>';
    if (ref === 'amp') return '&';
    if (ref === 'quot') return '"';
    if (ref === 'apos') return "'";
    return String.fromCodePoint(ref!.startsWith('#x') ? parseInt(ref!.slice(2), 16) : parseInt(ref!.slice(1), 10));
  });
}

/** BR-DE-16: the VAT category codes that require the seller's VAT or tax registration (or a tax representative). */
const VAT_CODES_NEEDING_SELLER_ID = new Set(['S', 'Z', 'E', 'AE', 'K', 'G', 'L', 'M']);
/** BR-DE-27 (`.*([0-9].*){3,}.*`): at least three ASCII digits. */
const hasThreeDigits = (text: string): boolean => (text.match(/[0-9]/g) ?? []).length >= 3;
/** BR-DE-28, KoSIT's XR-EMAIL-REGEX; `\s` in XPath is space, tab, CR and LF only. */
const EMAIL = /^[^@ \t\n\r]+@([^@. \t\n\r]+\.)+[^@. \t\n\r]+$/;

/**
 * BR-DE-19/20's IBAN test as KoSIT writes it: whitespace removed, the shape `^[A-Z]{2}[0-9]{2}[a-zA-Z0-9]{0,30}$`,
 * then ISO 7064 mod 97 on the rearranged characters, each code point above 64 as its value − 55, else − 48 (so a
 * lower-case letter counts as code point − 55, as the XPath does).
 */
function kositIbanHolds(raw: string): boolean {
  const iban = raw.replace(/[ \n\r\t]/g, '');
  if (!/^[A-Z]{2}[0-9]{2}[a-zA-Z0-9]{0,30}$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 2).toUpperCase() + iban.slice(2, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const cp = char.codePointAt(0)!;
    for (const digit of String(cp > 64 ? cp - 55 : cp - 48)) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/** Every element named `name` anywhere under `node`, grouped by parent (in document order within a parent). */
function siblingGroups(node: XmlValue | undefined, name: string, groups: XmlValue[][] = []): XmlValue[][] {
  if (!node || typeof node !== 'object') return groups;
  if (Array.isArray(node)) {
    for (const item of node) siblingGroups(item, name, groups);
    return groups;
  }
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('@_') || key === '#text') continue;
    if (key === name) groups.push(Array.isArray(value) ? value : [value]);
    siblingGroups(value, name, groups);
  }
  return groups;
}

/** BR-DE-22: some reference's attachment filename equals one of an earlier sibling reference's. */
function duplicateFilename(references: XmlValue[], attachmentPath: string): boolean {
  const seen = new Set<string>();
  for (const reference of references) {
    const names = all(reference, attachmentPath).map((object) => attributeOf(object, 'filename')).filter((n): n is string => n !== null);
    if (names.some((n) => seen.has(n))) return true;
    for (const n of names) seen.add(n);
  }
  return false;
}

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
export function checkXRechnung(syntax: 'ubl' | 'cii', root: XmlNode, xmlText?: string): RuleFailure[] {
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

  // BR-DE-18 needs the notes' text as written (their line breaks); checked where the caller passes the XML's text.
  if (xmlText !== undefined) {
    fire('BR-DE-18', skontoHolds(syntax === 'ubl' ? firstNoteTexts(xmlText, 'PaymentTerms', 'Note') : firstNoteTexts(xmlText, 'SpecifiedTradePaymentTerms', 'Description')));
  }

  // BR-DE-19 / 20: the account of an SEPA credit transfer (58) and of an SEPA direct debit (59) is an IBAN.
  for (const means of all(root, b.paymentMeans)) {
    const code = normalized(at(means, b.paymentMeansCode));
    if (code === '58') fire('BR-DE-19', kositIbanHolds(textOf(at(means, syntax === 'ubl' ? 'PayeeFinancialAccount/ID' : 'PayeePartyCreditorFinancialAccount/IBANID')) ?? ''));
    if (code === '59') fire('BR-DE-20', kositIbanHolds(textOf(at(means, syntax === 'ubl' ? 'PaymentMandate/PayerFinancialAccount/ID' : 'PayerPartyDebtorFinancialAccount/IBANID')) ?? ''));
  }

  // BR-DE-27 / 28: the seller contact's telephone has three digits, its e-mail address KoSIT's shape.
  for (const contact of all(root, b.sellerContact)) {
    fire('BR-DE-27', hasThreeDigits(normalized(at(contact, b.contactPhone))));
    fire('BR-DE-28', EMAIL.test(normalized(at(contact, b.contactEmail))));
  }

  if (syntax === 'ubl') {
    checkUblOnly(root, fire);
    checkPeppolUbl(root, fire);
    checkPeppolUblAmounts(root, fire);
  } else {
    checkCiiOnly(root, fire);
    checkPeppolCii(root, fire);
    checkPeppolCiiAmounts(root, fire);
  }
  // PEPPOL-EN16931-R008 (its own pattern; CII spares ApplicableHeaderTradeDelivery, which may be empty).
  fire('PEPPOL-EN16931-R008', !hasEmptyElement(root, syntax === 'cii' ? 'ApplicableHeaderTradeDelivery' : null));

  return XRECHNUNG_RULE_IDS.filter((id) => fired.has(id)).map((id) => ({ id, ...RULES[id]! }));
}

type Fire = (id: string, holds: boolean) => void;

/** The rules whose UBL form tests other paths than a shared binding can say: BR-DE-16, 22, 30, 31. */
function checkUblOnly(root: XmlNode, fire: Fire): void {
  // BR-DE-16: a document allowance's or charge's VAT category, or a line's, among S, Z, E, AE, K, G, L, M.
  const allowanceCodes = children(root, 'AllowanceCharge').flatMap((ac) => {
    const indicator = textOf(at(ac, 'ChargeIndicator'));
    return indicator === 'false' || indicator === 'true' ? all(ac, 'TaxCategory/ID').map((id) => textOf(id) ?? '') : [];
  });
  const lineCodes = [...children(root, 'InvoiceLine'), ...children(root, 'CreditNoteLine')].flatMap((line) => all(line, 'Item/ClassifiedTaxCategory/ID').map((id) => textOf(id) ?? ''));
  const usesCode = [...allowanceCodes, ...lineCodes].some((code) => VAT_CODES_NEEDING_SELLER_ID.has(code));
  fire('BR-DE-16', !usesCode || exists(root, 'TaxRepresentativeParty') || someText(root, 'AccountingSupplierParty/Party/PartyTaxScheme/CompanyID'));

  fire('BR-DE-22', !duplicateFilename(children(root, 'AdditionalDocumentReference'), 'Attachment/EmbeddedDocumentBinaryObject'));

  // BR-DE-30 / 31: a mandate (BG-19) needs the creditor's SEPA identifier and the debited account.
  const mandate = exists(root, 'PaymentMeans/PaymentMandate');
  const sepaId = [...all(root, 'AccountingSupplierParty/Party/PartyIdentification/ID'), ...all(root, 'PayeeParty/PartyIdentification/ID')].some((id) => attributeOf(id, 'schemeID') === 'SEPA');
  fire('BR-DE-30', !mandate || sepaId);
  fire('BR-DE-31', !mandate || exists(root, 'PaymentMeans/PaymentMandate/PayerFinancialAccount/ID'));
}

const CII_SETTLEMENT = 'SupplyChainTradeTransaction/ApplicableHeaderTradeSettlement';

/** The CII forms of BR-DE-16, 22, 30, 31. */
function checkCiiOnly(root: XmlNode, fire: Fire): void {
  // BR-DE-16 as KoSIT's CII test reads: some line tax of type VAT and some line tax with a listed category (each
  // anywhere among the lines), or a document allowance/charge whose CategoryTradeTax's string value is 'VAT' (text
  // only, never with children) and some such tax with a listed category.
  const lineTaxes = all(root, 'SupplyChainTradeTransaction/IncludedSupplyChainTradeLineItem/SpecifiedLineTradeSettlement/ApplicableTradeTax');
  const listed = (taxes: XmlValue[]): boolean => taxes.some((tax) => children(tax, 'CategoryCode').some((c) => VAT_CODES_NEEDING_SELLER_ID.has(textOf(c) ?? '')));
  const allowanceTaxes = all(root, `${CII_SETTLEMENT}/SpecifiedTradeAllowanceCharge/CategoryTradeTax`);
  const usesCode =
    (lineTaxes.some((tax) => children(tax, 'TypeCode').some((t) => textOf(t) === 'VAT')) && listed(lineTaxes)) ||
    (allowanceTaxes.some((tax) => typeof tax === 'string' && tax === 'VAT') && listed(allowanceTaxes));
  const sellerRegistration = all(root, 'SupplyChainTradeTransaction/ApplicableHeaderTradeAgreement/SellerTradeParty/SpecifiedTaxRegistration/ID').some((id) => {
    const scheme = (attributeOf(id, 'schemeID') ?? '').trim();
    return (scheme === 'VA' || scheme === 'FC') && normalized(id) !== '';
  });
  fire('BR-DE-16', !usesCode || sellerRegistration || exists(root, 'SupplyChainTradeTransaction/ApplicableHeaderTradeAgreement/SellerTaxRepresentativeTradeParty'));

  // BR-DE-22: //ram:AdditionalReferencedDocument, compared with its preceding siblings.
  fire('BR-DE-22', !siblingGroups(root, 'AdditionalReferencedDocument').some((group) => duplicateFilename(group, 'AttachmentBinaryObject')));

  // BR-DE-30 / 31: direct debit (BT-89 mandate, BT-90 creditor id, BT-91 debited account): all three or none.
  const bt89 = exists(root, `${CII_SETTLEMENT}/SpecifiedTradePaymentTerms/DirectDebitMandateID`);
  const bt90 = exists(root, `${CII_SETTLEMENT}/CreditorReferenceID`);
  const bt91 = exists(root, `${CII_SETTLEMENT}/SpecifiedTradeSettlementPaymentMeans/PayerPartyDebtorFinancialAccount/IBANID`);
  const noDirectDebit = !bt89 && !bt90 && !bt91;
  fire('BR-DE-30', ((bt89 || bt91) && bt90) || noDirectDebit);
  fire('BR-DE-31', ((bt89 || bt90) && bt91) || noDirectDebit);
}

/** `xs:decimal(x) > 0` where x exists: a base quantity that is no decimal counts as failing (saxon-js stops there). */
const positiveDecimal = (node: XmlValue | undefined): boolean => (decimalOf(node) ?? 0) > 0;

/**
 * The PEPPOL-EN16931-R* rules XRechnung 3.0 includes, UBL form (KoSIT's pattern: the document, TaxCurrencyCode, the
 * buyer's and seller's Party, direct-debit payment means, lines, price allowances, base quantities): R001, R005, R010,
 * R020, R044, R046, R053, R054, R061, R101, R121, R130; the amount rules are in checkPeppolUblAmounts.
 */
function checkPeppolUbl(root: XmlNode, fire: Fire): void {
  fire('PEPPOL-EN16931-R001', exists(root, 'ProfileID'));
  const taxTotals = children(root, 'TaxTotal');
  fire('PEPPOL-EN16931-R053', taxTotals.filter((t) => exists(t, 'TaxSubtotal')).length === 1);
  fire('PEPPOL-EN16931-R054', taxTotals.filter((t) => !exists(t, 'TaxSubtotal')).length === (exists(root, 'TaxCurrencyCode') ? 1 : 0));
  const documentCurrency = normalized(at(root, 'DocumentCurrencyCode'));
  for (const code of children(root, 'TaxCurrencyCode')) fire('PEPPOL-EN16931-R005', normalized(code) !== documentCurrency);
  for (const party of all(root, 'AccountingCustomerParty/Party')) fire('PEPPOL-EN16931-R010', exists(party, 'EndpointID'));
  for (const party of all(root, 'AccountingSupplierParty/Party')) fire('PEPPOL-EN16931-R020', exists(party, 'EndpointID'));
  for (const means of children(root, 'PaymentMeans')) {
    const code = normalized(at(means, 'PaymentMeansCode'));
    if (code === '49' || code === '59') fire('PEPPOL-EN16931-R061', exists(means, 'PaymentMandate/ID'));
  }
  for (const line of [...children(root, 'InvoiceLine'), ...children(root, 'CreditNoteLine')]) {
    const references = children(line, 'DocumentReference');
    fire('PEPPOL-EN16931-R101', references.length === 0 || references.some((r) => children(r, 'DocumentTypeCode').some((c) => textOf(c) === '130')));
    const base = all(line, 'Price/BaseQuantity');
    fire('PEPPOL-EN16931-R121', base.length === 0 || positiveDecimal(base[0]));
    // R130 (context Price/BaseQuantity[@unitCode]): the unit is the line quantity's, where the line has a quantity.
    const quantity = children(line, children(root, 'InvoiceLine').includes(line) ? 'InvoicedQuantity' : 'CreditedQuantity');
    const hasQuantity = exists(line, 'InvoicedQuantity') || exists(line, 'CreditedQuantity');
    for (const b of base) {
      const unit = attributeOf(b, 'unitCode');
      if (unit !== null) fire('PEPPOL-EN16931-R130', !hasQuantity || quantity.some((q) => attributeOf(q, 'unitCode') === unit));
    }
    // R044 / R046 (context Price/AllowanceCharge): only an allowance; net price = gross (base) − allowance.
    for (const price of children(line, 'Price')) {
      for (const ac of children(price, 'AllowanceCharge')) {
        fire('PEPPOL-EN16931-R044', normalized(at(ac, 'ChargeIndicator')) === 'false');
        if (exists(ac, 'BaseAmount')) {
          const [net, gross, allowance] = [decOf(textOf(at(price, 'PriceAmount')) ?? ''), decOf(textOf(at(ac, 'BaseAmount')) ?? ''), decOf(textOf(at(ac, 'Amount')) ?? '')];
          fire('PEPPOL-EN16931-R046', net !== null && gross !== null && allowance !== null && net.eq(gross.minus(allowance)));
        }
      }
    }
  }
}

/** The same rules in KoSIT's CII form (their contexts: ExchangedDocumentContext, the header settlement, the parties). */
function checkPeppolCii(root: XmlNode, fire: Fire): void {
  for (const context of children(root, 'ExchangedDocumentContext')) fire('PEPPOL-EN16931-R001', exists(context, 'BusinessProcessSpecifiedDocumentContextParameter/ID'));
  // $documentCurrencyCode: the header settlement's InvoiceCurrencyCode elements, compared as strings.
  const documentCurrencies = all(root, `${CII_SETTLEMENT}/InvoiceCurrencyCode`).map((c) => textOf(c) ?? '');
  const transaction = children(root, 'SupplyChainTradeTransaction');
  for (const settlement of transaction.flatMap((t) => children(t, 'ApplicableHeaderTradeSettlement'))) {
    const taxCurrency = children(settlement, 'TaxCurrencyCode');
    if (taxCurrency.length > 0) fire('PEPPOL-EN16931-R005', normalized(taxCurrency[0]) !== normalized(at(settlement, 'InvoiceCurrencyCode')));
    const amounts = all(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation/TaxTotalAmount').map((a) => attributeOf(a, 'currencyID'));
    fire('PEPPOL-EN16931-R053', amounts.filter((c) => c !== null && documentCurrencies.includes(c)).length <= 1);
    fire('PEPPOL-EN16931-R054', amounts.filter((c) => c !== null && documentCurrencies.some((d) => d !== c)).length === (taxCurrency.length > 0 ? 1 : 0));
    for (const means of children(settlement, 'SpecifiedTradeSettlementPaymentMeans')) {
      const code = normalized(at(means, 'TypeCode'));
      if (code === '49' || code === '59') fire('PEPPOL-EN16931-R061', exists(settlement, 'SpecifiedTradePaymentTerms/DirectDebitMandateID'));
    }
  }
  const agreement = transaction.flatMap((t) => children(t, 'ApplicableHeaderTradeAgreement'));
  for (const buyer of agreement.flatMap((a) => children(a, 'BuyerTradeParty'))) fire('PEPPOL-EN16931-R010', exists(buyer, 'URIUniversalCommunication/URIID'));
  for (const seller of agreement.flatMap((a) => children(a, 'SellerTradeParty'))) fire('PEPPOL-EN16931-R020', exists(seller, 'URIUniversalCommunication/URIID'));
  for (const line of transaction.flatMap((t) => children(t, 'IncludedSupplyChainTradeLineItem'))) {
    const references = all(line, 'SpecifiedLineTradeSettlement/AdditionalReferencedDocument');
    fire('PEPPOL-EN16931-R101', references.length === 0 || references.some((r) => children(r, 'TypeCode').some((c) => textOf(c) === '130')));
    const billedUnits = all(line, 'SpecifiedLineTradeDelivery/BilledQuantity').map((q) => attributeOf(q, 'unitCode'));
    for (const price of ['NetPriceProductTradePrice', 'GrossPriceProductTradePrice'].flatMap((name) => all(line, `SpecifiedLineTradeAgreement/${name}`))) {
      const base = children(price, 'BasisQuantity');
      fire('PEPPOL-EN16931-R121', base.length === 0 || positiveDecimal(base[0]));
      // R130 (context …/BasisQuantity[@unitCode]): the billed quantity's unit.
      for (const b of base) {
        const unit = attributeOf(b, 'unitCode');
        if (unit !== null) fire('PEPPOL-EN16931-R130', billedUnits.includes(unit));
      }
    }
    // R044 / R046 (context the line's GrossPriceProductTradePrice): only an allowance (some indicator 'false' where an
    // allowance amount is given); net = gross − the first allowance amount (0 where there is none).
    for (const gross of all(line, 'SpecifiedLineTradeAgreement/GrossPriceProductTradePrice')) {
      const allowances = children(gross, 'AppliedTradeAllowanceCharge');
      if (allowances.some((ac) => exists(ac, 'ActualAmount'))) fire('PEPPOL-EN16931-R044', allowances.some((ac) => all(ac, 'ChargeIndicator/Indicator').some((i) => textOf(i) === 'false')));
      if (exists(gross, 'ChargeAmount')) {
        const firstAllowance = allowances.flatMap((ac) => children(ac, 'ActualAmount'))[0];
        const net = decOf(textOf(at(line, 'SpecifiedLineTradeAgreement/NetPriceProductTradePrice/ChargeAmount')) ?? '');
        const grossAmount = decOf(textOf(at(gross, 'ChargeAmount')) ?? '');
        const allowance = firstAllowance === undefined ? decOf('0') : decOf(textOf(firstAllowance) ?? '');
        fire('PEPPOL-EN16931-R046', net !== null && grossAmount !== null && allowance !== null && net.eq(grossAmount.minus(allowance)));
      }
    }
  }
}

/**
 * `//*[not(*) and not(normalize-space())]`: some element, the root included, with no child element and no text but
 * whitespace (attributes do not count). Walked with an explicit stack: linear, and no recursion limit on deep input.
 */
function hasEmptyElement(root: XmlNode, spared: string | null): boolean {
  const stack: [string, XmlValue][] = [['', root]];
  while (stack.length > 0) {
    const [name, value] = stack.pop()!;
    if (Array.isArray(value)) {
      for (const item of value) stack.push([name, item]);
      continue;
    }
    const blank = name !== spared;
    if (typeof value === 'string') {
      if (blank && value.trim() === '') return true;
      continue;
    }
    const elements = Object.keys(value).filter((key) => !key.startsWith('@_') && !key.startsWith('#') && !key.startsWith('?'));
    if (elements.length === 0 && blank && (textOf(value) ?? '') === '') return true;
    for (const key of elements) stack.push([key, value[key]!]);
  }
  return false;
}

/** Every element named `name` at any depth (the schematron's unanchored contexts), in one walk. */
function descendants(root: XmlNode, name: string): XmlValue[] {
  const found: XmlValue[] = [];
  const stack: XmlValue[] = [root];
  while (stack.length > 0) {
    const value = stack.pop()!;
    if (Array.isArray(value)) {
      stack.push(...value);
      continue;
    }
    if (typeof value === 'string') continue;
    for (const key of Object.keys(value)) {
      if (key.startsWith('@_') || key.startsWith('#')) continue;
      if (key === name) found.push(...children(value, key));
      stack.push(value[key]!);
    }
  }
  return found;
}

/** KoSIT's $slackValue: 0.5 for an invoice in forints, else 0.02; u:slack(exp, val, slack): |exp − val| ≤ slack. */
const slackOf = (currency: string): Big => decOf(currency === 'HUF' ? '0.5' : '0.02')!;
const withinSlack = (expected: Big | null, value: Big | null, slack: Big): boolean =>
  expected !== null && value !== null && expected.plus(slack).gte(value) && expected.minus(slack).lte(value);
const decimalText = (node: XmlValue | undefined): Big | null => decOf(textOf(node) ?? '');

/**
 * R041 / R042 / R040 / R043 on one allowance or charge, as one schematron pattern judges it: the first rule whose
 * context matches wins, so a percentage without a base amount is R041 only, a base amount without a percentage R042
 * only, and the rest get R040 (amount = base × percentage / 100 within the slack) and the indicator check.
 */
function checkAllowanceCharge(ac: XmlValue, names: { percent: string; base: string; amount: string; indicator: string; r043: string }, slack: Big, fire: Fire): void {
  const hasPercent = exists(ac, names.percent);
  const hasBase = exists(ac, names.base);
  if (hasPercent && !hasBase) return fire('PEPPOL-EN16931-R041', false);
  if (!hasPercent && hasBase) return fire('PEPPOL-EN16931-R042', false);
  if (hasPercent && hasBase) {
    const base = decimalText(at(ac, names.base));
    const percent = decimalText(at(ac, names.percent));
    const amount = exists(ac, names.amount) ? decimalText(at(ac, names.amount)) : decOf('0');
    fire('PEPPOL-EN16931-R040', base !== null && percent !== null && withinSlack(amount, base.times(percent).div(100), slack));
  }
  const indicator = normalized(at(ac, names.indicator));
  fire(names.r043, indicator === 'true' || indicator === 'false');
}

/** `xs:date(line) >= xs:date(invoice)` (or <=): ISO dates compare as text; a date that is none fails. */
const ISO_DATE = /^-?\d{4,}-\d{2}-\d{2}(Z|[+-]\d{2}:\d{2})?$/;
function lineDateHolds(line: string, invoice: string, after: boolean): boolean {
  if (!ISO_DATE.test(line) || !ISO_DATE.test(invoice)) return false;
  const [l, i] = [line.slice(0, 10), invoice.slice(0, 10)];
  return after ? l >= i : l <= i;
}

/** XPath general comparison of amounts with 0 (existential): some amount compares as asked. */
const someAmount = (amounts: XmlValue[], test: (n: number) => boolean): boolean => amounts.some((a) => test(Number(normalized(a))));

/** UBL: R040–R043 (document and line allowances/charges), R055, R110/R111 (line periods), R120 (line net amount). */
function checkPeppolUblAmounts(root: XmlNode, fire: Fire): void {
  const documentCurrency = normalized(at(root, 'DocumentCurrencyCode'));
  const slack = slackOf(documentCurrency);
  const ubl = { percent: 'MultiplierFactorNumeric', base: 'BaseAmount', amount: 'Amount', indicator: 'ChargeIndicator', r043: 'PEPPOL-EN16931-R043' };
  const lines = [...children(root, 'InvoiceLine'), ...children(root, 'CreditNoteLine')];
  for (const ac of [...children(root, 'AllowanceCharge'), ...lines.flatMap((line) => children(line, 'AllowanceCharge'))]) checkAllowanceCharge(ac, ubl, slack, fire);

  const taxCurrency = children(root, 'TaxCurrencyCode');
  if (taxCurrency.length > 0) {
    const amounts = all(root, 'TaxTotal/TaxAmount');
    const inTax = amounts.filter((a) => attributeOf(a, 'currencyID') === normalized(taxCurrency[0]));
    const inDocument = amounts.filter((a) => attributeOf(a, 'currencyID') === documentCurrency);
    const negative = someAmount(inTax, (n) => n <= 0) && someAmount(inDocument, (n) => n <= 0);
    const positive = someAmount(inTax, (n) => n >= 0) && someAmount(inDocument, (n) => n >= 0);
    fire('PEPPOL-EN16931-R055', negative || positive);
  }

  const start = textOf(at(root, 'InvoicePeriod/StartDate'));
  const end = textOf(at(root, 'InvoicePeriod/EndDate'));
  for (const line of lines) {
    if (start !== null) for (const date of all(line, 'InvoicePeriod/StartDate')) fire('PEPPOL-EN16931-R110', lineDateHolds(textOf(date) ?? '', start, true));
    if (end !== null) for (const date of all(line, 'InvoicePeriod/EndDate')) fire('PEPPOL-EN16931-R111', lineDateHolds(textOf(date) ?? '', end, false));
  }

  // R120: LineExtensionAmount = quantity × (price / base quantity) + charges − allowances (each sum rounded to cents).
  for (const line of lines) {
    const quantityNode = at(line, children(root, 'InvoiceLine').length > 0 ? 'InvoicedQuantity' : 'CreditedQuantity') ?? at(line, 'InvoicedQuantity') ?? at(line, 'CreditedQuantity');
    const lineAmount = exists(line, 'LineExtensionAmount') ? decimalText(at(line, 'LineExtensionAmount')) : decOf('0');
    const quantity = quantityNode !== undefined ? decimalText(quantityNode) : decOf('1');
    const price = exists(line, 'Price/PriceAmount') ? decimalText(at(line, 'Price/PriceAmount')) : decOf('0');
    const baseNode = at(line, 'Price/BaseQuantity');
    const baseValue = baseNode !== undefined ? decimalText(baseNode) : null;
    const base = baseValue !== null && !baseValue.eq(0) ? baseValue : decOf('1');
    const total = (indicator: string): Big | null => {
      let sum = decOf('0')!;
      for (const ac of children(line, 'AllowanceCharge').filter((a) => normalized(at(a, 'ChargeIndicator')) === indicator)) {
        for (const amount of children(ac, 'Amount')) {
          const value = decimalText(amount);
          if (value === null) return null;
          sum = sum.plus(value);
        }
      }
      return xround(sum.times(100)).div(100);
    };
    const [charges, allowances] = [total('true'), total('false')];
    const holds = quantity !== null && price !== null && base !== null && charges !== null && allowances !== null && withinSlack(lineAmount, quantity.times(price.div(base)).plus(charges).minus(allowances), slack);
    fire('PEPPOL-EN16931-R120', holds);
  }
}

/** CII: R040–R043 (every SpecifiedTradeAllowanceCharge; R043-2 on price allowances), R055, R110/R111. */
function checkPeppolCiiAmounts(root: XmlNode, fire: Fire): void {
  const documentCurrencies = all(root, `${CII_SETTLEMENT}/InvoiceCurrencyCode`).map((c) => textOf(c) ?? '');
  const slack = slackOf(normalized(at(root, `${CII_SETTLEMENT}/InvoiceCurrencyCode`)));
  const cii = { percent: 'CalculationPercent', base: 'BasisAmount', amount: 'ActualAmount', indicator: 'ChargeIndicator/Indicator', r043: 'PEPPOL-EN16931-R043-1' };
  for (const ac of descendants(root, 'SpecifiedTradeAllowanceCharge')) checkAllowanceCharge(ac, cii, slack, fire);
  for (const ac of descendants(root, 'AppliedTradeAllowanceCharge')) {
    const indicator = normalized(at(ac, 'ChargeIndicator/Indicator'));
    fire('PEPPOL-EN16931-R043-2', indicator === 'true' || indicator === 'false');
  }

  const taxCurrencies = all(root, `${CII_SETTLEMENT}/TaxCurrencyCode`).map((c) => textOf(c) ?? '');
  const transaction = children(root, 'SupplyChainTradeTransaction');
  for (const settlement of transaction.flatMap((t) => children(t, 'ApplicableHeaderTradeSettlement'))) {
    const amounts = all(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation/TaxTotalAmount');
    const inDocument = amounts.filter((a) => documentCurrencies.includes(attributeOf(a, 'currencyID') ?? '\u0000'));
    const inTax = amounts.filter((a) => taxCurrencies.includes(attributeOf(a, 'currencyID') ?? '\u0000'));
    const applies = taxCurrencies.length > 0 && inDocument.length > 0;
    const negative = someAmount(inTax, (n) => n < 0) && someAmount(inDocument, (n) => n < 0);
    const positive = someAmount(inTax, (n) => n >= 0) && someAmount(inDocument, (n) => n >= 0);
    fire('PEPPOL-EN16931-R055', !applies || negative || positive);
  }

  // R110 / R111: a line's billing period within the invoice's (xs:untypedAtomic compared as strings, existentially).
  for (const t of transaction) {
    const header = all(t, 'ApplicableHeaderTradeSettlement/BillingSpecifiedPeriod');
    const starts = header.flatMap((p) => all(p, 'StartDateTime/DateTimeString')).map((d) => textOf(d) ?? '');
    const ends = header.flatMap((p) => all(p, 'EndDateTime/DateTimeString')).map((d) => textOf(d) ?? '');
    const hasStart = header.some((p) => exists(p, 'StartDateTime'));
    const hasEnd = header.some((p) => exists(p, 'EndDateTime'));
    for (const period of all(t, 'IncludedSupplyChainTradeLineItem/SpecifiedLineTradeSettlement/BillingSpecifiedPeriod')) {
      if (hasStart) for (const s of children(period, 'StartDateTime')) fire('PEPPOL-EN16931-R110', children(s, 'DateTimeString').some((d) => starts.some((h) => (textOf(d) ?? '') >= h)));
      if (hasEnd) for (const e of children(period, 'EndDateTime')) fire('PEPPOL-EN16931-R111', children(e, 'DateTimeString').some((d) => ends.some((h) => (textOf(d) ?? '') <= h)));
    }
  }
}
