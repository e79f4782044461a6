/**
 * The EN 16931 semantic model (BT = business term, BG = business group), as read from UBL, CII or a page.
 *
 * Every term is kept as written, not interpreted: the schematron distinguishes an element that is absent from one
 * that is present but empty (`exists(x)` vs `normalize-space(x) != ''`), compares amounts as written (decimals are
 * counted in the text), and reads attributes (currencyID, schemeID, unitCode, listID, mimeCode). So a term is a
 * `Term` (text plus attributes) or undefined when absent, and repeated terms are arrays in document order.
 * Decimal arithmetic happens in the rules (see ../decimal.ts), never here.
 */

/** One written value: its text (whitespace-trimmed as the XML reader returns it) and its attributes. */
export interface Term {
  text: string;
  attrs: Readonly<Record<string, string>>;
}

export type Opt = Term | undefined;

export type Syntax = 'ubl' | 'cii';

/** A VAT category as it appears on a line (BG-30), an allowance/charge (BG-20/21/27/28) or the breakdown (BG-23). */
export interface TaxCategory {
  /** BT-95/102/118/151 … the category code. */
  code: Opt;
  /** BT-96/103/119/152 … the rate. */
  rate: Opt;
  /** The tax scheme (UBL cac:TaxScheme/cbc:ID, CII ram:TypeCode) — rules only consider VAT. */
  scheme: Opt;
  /** BT-120 and BT-121 (breakdown only). */
  exemptionReason: Opt;
  exemptionReasonCode: Opt;
  /** CII only: the category of a breakdown carries its own due-date type code (BT-8). */
  dueDateTypeCode?: Opt;
}

export interface Address {
  /** BT-40/55/69/80 … the country code. */
  country: Opt;
  line1?: Opt;
  city?: Opt;
  postCode?: Opt;
}

export interface Party {
  /** BT-27/44/59/62: the registration (legal) name; for CII the trade party name. */
  name: Opt;
  /** BT-28/45/… trading names (UBL PartyName/Name). */
  tradingNames: Term[];
  /** BT-29/46/60 identifiers (with schemeID). */
  ids: Term[];
  /** CII GlobalID identifiers (BT-29/46/60 with a scheme). */
  globalIds: Term[];
  /** BT-30/47/61 legal registration identifiers. */
  legalIds: Term[];
  /** BT-31/48/63 (VAT) and BT-32 (tax registration): the party's tax scheme entries. */
  taxIds: { id: Opt; scheme: Opt }[];
  /** BT-34/49 electronic address with its scheme. */
  endpoints: Term[];
  /** BG-6 / BG-9 contact: BT-41/56 name (point), BT-42/57 telephone, BT-43/58 e-mail; absent where none is given. */
  contact?: { name: Opt; phone: Opt; email: Opt };
  address?: Address;
  /** True when the address element is present (even empty). */
  hasAddress: boolean;
}

export function emptyParty(): Party {
  return { name: undefined, tradingNames: [], ids: [], globalIds: [], legalIds: [], taxIds: [], endpoints: [], hasAddress: false };
}

export interface Period {
  start: Opt;
  end: Opt;
  /** BT-8 (UBL InvoicePeriod/DescriptionCode). */
  descriptionCode: Opt;
  /** True when the period element has any child at all (BR-IC-11 counts `InvoicePeriod/*`). */
  hasChildren: boolean;
}

export interface AllowanceCharge {
  charge: boolean;
  /** The indicator as written ("true"/"false"/"1"/"0"). */
  indicator: string;
  /** BT-92/99/136/141 amounts; arrays because CII may repeat ram:ActualAmount and rules read the first. */
  amounts: Term[];
  baseAmount: Opt;
  percent: Opt;
  reasons: Term[];
  reasonCodes: Term[];
  taxCategories: TaxCategory[];
}

export interface VatBreakdown {
  /** BT-116. */
  taxableAmount: Opt;
  /** BT-117. */
  taxAmount: Opt;
  categories: TaxCategory[];
}

export interface TaxTotal {
  /** BT-110 / BT-111 (with currencyID). */
  taxAmounts: Term[];
  subtotals: VatBreakdown[];
}

export interface DocumentTotals {
  lineExtension: Term[]; // BT-106
  taxExclusive: Term[]; // BT-109
  taxInclusive: Term[]; // BT-112
  allowanceTotal: Term[]; // BT-107
  chargeTotal: Term[]; // BT-108
  prepaid: Term[]; // BT-113
  rounding: Term[]; // BT-114
  payable: Term[]; // BT-115
  /** CII: BT-110/111 live in the monetary summation. */
  taxTotal: Term[];
}

export interface PaymentMeans {
  /** BT-81. */
  code: Opt;
  /** BG-17 credit transfer accounts: BT-84 (UBL ID; CII IBANID / ProprietaryID). */
  accounts: { id: Opt; iban?: Opt; proprietary?: Opt }[];
  /** BT-87 card primary account numbers. */
  cards: Term[];
}

export interface ItemProperty {
  name: Opt; // BT-160
  value: Opt; // BT-161
}

export interface InvoiceLine {
  /** UBL: which element the line is (an Invoice carries InvoiceLine, a CreditNote CreditNoteLine); CII: InvoiceLine. */
  kind: 'InvoiceLine' | 'CreditNoteLine';
  /** BT-126. */
  id: Opt;
  /** BT-129 with unitCode (BT-130). */
  quantity: Opt;
  /** BT-131. */
  netAmount: Term[];
  periods: Period[];
  allowances: AllowanceCharge[];
  /** BT-153. */
  itemName: Opt;
  /** BG-30. */
  taxCategories: TaxCategory[];
  /** BT-158 with listID. */
  classifications: Term[];
  /** BT-157 with schemeID. */
  standardIds: Term[];
  /** BT-159. */
  originCountries: Term[];
  properties: ItemProperty[];
  /** BT-146 net price. */
  netPrice: Term[];
  /** BT-148 gross price (UBL Price/AllowanceCharge/BaseAmount, CII GrossPrice/ChargeAmount). */
  grossPrice: Term[];
  /** BT-149 base quantity with unitCode. */
  baseQuantity: Opt;
}

export interface DocumentReference {
  /** An additional supporting document (BG-24), as opposed to an object identifier or line reference. */
  additional: boolean;
  /** BT-122 / BT-18 id with schemeID (BT-18-1). */
  id: Opt;
  typeCode: Opt;
  /** BT-125 attachment with mimeCode. */
  attachments: Term[];
}

export interface SemanticInvoice {
  syntax: Syntax;
  /**
   * Read from a ZUGFeRD 1.0 CrossIndustryDocument: its terms are as written, in 1.0's codes (a 1.0 category may be
   * absent or IC); ../zugferd1/zugferd1Categories.ts gives their EN 16931 meaning where an e-invoice is generated.
   */
  zugferd1?: true;
  /** UBL CreditNote root. */
  creditNote: boolean;
  specification: Opt; // BT-24
  number: Opt; // BT-1
  buyerReference?: Opt; // BT-10
  issueDate: Opt; // BT-2
  taxPointDate: Opt; // BT-7
  typeCode: Opt; // BT-3
  currencies: Term[]; // BT-5
  taxCurrencies: Term[]; // BT-6
  notes: { text: Opt; subjectCode: Opt }[]; // BG-1
  periods: Period[]; // BG-14
  /** CII: due date type code (BT-8) on the header breakdown. */
  dueDateTypeCodes: Term[];
  precedingInvoices: { id: Opt }[]; // BG-3
  documents: DocumentReference[]; // BG-24 and BT-18
  seller: Party; // BG-4
  buyer: Party; // BG-7
  hasSeller: boolean;
  hasBuyer: boolean;
  payee?: Party; // BG-10
  taxRepresentative?: Party; // BG-11
  delivery: { date: Opt; address?: Address; hasAddress: boolean; locationIds: Term[]; shipToParty: boolean }[]; // BG-13
  paymentMeans: PaymentMeans[]; // BG-16
  allowanceCharges: AllowanceCharge[]; // BG-20 / BG-21
  taxTotals: TaxTotal[]; // BT-110/111 + BG-23
  totals: DocumentTotals[]; // BG-22
  lines: InvoiceLine[]; // BG-25
  /** Every amount with its currencyID, wherever it is (BR-CL-03 reads them all). */
  amountCurrencies: Term[];
  /** Every country code anywhere (addresses, origin), for BR-B-01 and the country code list. */
  countryCodes: Term[];
  /** Every quantity carrying a unit code (BR-CL-23). */
  unitCodes: Term[];
  /** CII: every reference type code (BT-18-1 as CII writes it), checked against the object identifier schemes. */
  referenceTypeCodes: Term[];
  /** For an invoice built from a page: the BT/BG the page provides (rules reading others are not applicable). */
  pageTerms?: ReadonlySet<string>;
}
