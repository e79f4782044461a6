/**
 * What an EN 16931 e-invoice generated from a reviewed invoice says, term by term, or the business terms it lacks.
 * Only what the reviewer's fields state or what the norm defines from them is filled in:
 *   - BT-106 (sum of line net amounts) is the sum of the lines where the page prints no line total (BR-CO-10 defines it);
 *   - BT-115 (amount due) is BT-112 − BT-113 where not printed (BR-CO-16);
 *   - one VAT breakdown row (BG-23) from BT-109 and BT-110 when no breakdown is printed, only where the rate it implies
 *     reproduces the tax to the cent (BR-S-09 holds it to that) — a mixed-rate invoice is never guessed;
 *   - each VAT row's category and exemption reason, each line's category and unit, the document's allowances and
 *     charges: the e-invoice XML's own where the document has one (xmlDetails.ts); else a positive rate is category S
 *     (standard rate) and a 0 % row is never guessed (Z, E, AE, K, G and O all have 0 %);
 *   - a line's price (BT-146) is its amount over its quantity where only the price is missing and it divides exactly;
 *   - the unit (BT-130) is C62 ("one"): pages print counts, never a UN/ECE Rec 20 code;
 *   - BR-CO-25: an amount due needs a due date (BT-9) or payment terms (BT-20);
 *   - a country (BT-40, BT-55) from the e-invoice XML, else from the party's VAT identifier (DE…, EL → GR);
 *   - the routing terms (BT-10, BG-6, city, post code, electronic address) where the reviewer or the XML gives them;
 *   - each line's allowances and charges (BG-27, BG-28: already inside its net amount), the rounding amount (BT-114)
 *     and the delivery terms (BT-72 date, BG-14 period, BG-15 deliver-to address with BT-80 country): the XML's own,
 *     the rounding only where it reconciles the reviewed amount due (BR-CO-16);
 *   - a credit note (a credit-note type code, ../documentType.ts) states its amounts positive: a page that prints the
 *     credit as negative amounts is written with every sign turned (asCreditNote), which keeps every sum's identity.
 * Anything else missing is reported with its BT, and no XML is written for that invoice.
 */
import Big from 'big.js';
import { countryOfVatId } from '../../invoice/identifiers.js';
import { isCreditNote } from '../documentType.js';
import type { ReviewedInvoice } from '../reviewedInvoice.js';
import { taxTypeName } from '../../en16931/zugferd1/zugferd1Categories.js';
import type { XmlDelivery, XmlVatDetail } from './xmlDetails.js';

/** The UN/ECE Rec 20 unit code for a count of items ("one"). */
export const COUNT_UNIT_CODE = 'C62';
/** Decimals of an amount (BR-DEC-*: at most two). */
const AMOUNT_DECIMALS = 2;
/** Decimals a derived unit price may have before it is not an exact quotient any more. */
const PRICE_DECIMALS = 4;
/** UNTDID 4461: 58 SEPA credit transfer (an IBAN in euro), 30 credit transfer otherwise. */
const SEPA_CREDIT_TRANSFER = '58';
/** UNCL 5305 VAT categories: S standard rate (a positive rate the page prints), O not subject to VAT (no rate at all). */
const STANDARD_RATE = 'S';
const NOT_SUBJECT_TO_VAT = 'O';
const CREDIT_TRANSFER = '30';
/**
 * The VAT categories whose use requires the seller VAT identifier (BT-31), tax registration (BT-32) or tax
 * representative (BT-63), with the rule that says so for a line (O forbids BT-31 instead: BR-O-02).
 */
const SELLER_TAX_ID_RULES: Readonly<Record<string, string>> = { S: 'BR-S-02', Z: 'BR-Z-02', E: 'BR-E-02', AE: 'BR-AE-02', K: 'BR-IC-02', G: 'BR-G-02', L: 'BR-AF-02', M: 'BR-AG-02' };

/** An electronic address (BT-34/BT-49) with its scheme (BT-34-1: EM for e-mail, else an ISO 6523 ICD such as 0204). */
export interface PlannedEndpoint {
  scheme: string;
  id: string;
}

export interface PlannedParty {
  name: string;
  vatId: string | null;
  /** BT-32 (the seller's only): a tax registration other than VAT, e.g. a German Steuernummer (CII schemeID FC), as the XML states it. */
  taxRegistration: string | null;
  country: string;
  city: string | null;
  postCode: string | null;
  endpoint: PlannedEndpoint | null;
  /** BG-6 (the seller's only): BT-41 name, BT-42 telephone, BT-43 e-mail. */
  contact: { name: string | null; phone: string | null; email: string | null } | null;
}

/** A line-level allowance (BG-27) or charge (BG-28), as the XML states it. */
export interface PlannedLineAllowanceCharge {
  charge: boolean;
  amount: string;
  reason: string | null;
  reasonCode: string | null;
}

export interface PlannedLine {
  id: string;
  name: string;
  quantity: string;
  unitCode: string;
  netAmount: string;
  price: string;
  allowanceCharges: PlannedLineAllowanceCharge[];
  category: string;
  /** Null for category O (not subject to VAT: no rate, BR-O-05). */
  rate: string | null;
}

export interface PlannedVatRow {
  category: string;
  rate: string | null;
  base: string;
  amount: string;
  /** BT-120, BT-121: why a row is exempt (E, AE, K, G, O require one), as the XML states it. */
  exemptionReason: string | null;
  exemptionReasonCode: string | null;
}

/** A document-level allowance (BG-20) or charge (BG-21), as the XML states it. */
export interface PlannedAllowanceCharge {
  charge: boolean;
  amount: string;
  reason: string | null;
  reasonCode: string | null;
  category: string;
  rate: string | null;
}

export interface EInvoicePlan {
  number: string;
  issueDate: string;
  dueDate: string | null;
  /** BT-3 (UNTDID 1001): the reviewed invoice's document type (../documentType.ts). */
  typeCode: string;
  currency: string;
  /** BT-10, where the reviewer or the XML gives one (XRechnung requires it: BR-DE-15). */
  buyerReference: string | null;
  seller: PlannedParty;
  buyer: PlannedParty;
  payment: { meansCode: string; iban: string; bic: string | null } | null;
  paymentTerms: string | null;
  purchaseOrder: string | null;
  contract: string | null;
  lines: PlannedLine[];
  vat: PlannedVatRow[];
  allowanceCharges: PlannedAllowanceCharge[];
  /** BT-72, BG-14 and BG-15 (BT-80) as the XML states them; null where it states none. */
  delivery: XmlDelivery | null;
  totals: { lineTotal: string; taxExclusive: string; tax: string; taxInclusive: string; allowances: string | null; charges: string | null; prepaid: string | null; rounding: string | null; payable: string };
}

/** A business term the invoice lacks, with why (shown in the export's list of invoices not written). */
export interface MissingTerm {
  bt: string;
  why: string;
}

export type PlanOutcome = { ok: true; plan: EInvoicePlan } | { ok: false; missing: MissingTerm[] };

const dec = (n: number): string => new Big(n).toString();
const amountText = (n: number): string => new Big(n).round(AMOUNT_DECIMALS, Big.roundHalfUp).toFixed(AMOUNT_DECIMALS);
const present = (s: string | null | undefined): s is string => typeof s === 'string' && s.trim() !== '';

const sameAmount = (a: number | null, b: number | null): boolean => a !== null && b !== null && Math.abs(a - b) < 0.005;
const sameRate = (a: number | null, b: string | null): boolean => (a === null ? b === null : b !== null && Math.abs(a - Number(b)) < 0.005);

/** The XML's breakdown row a reviewed row stands for: same rate and taxable amount, else the only one of that rate. */
function xmlVatRow(inv: ReviewedInvoice, row: { rate: number | null; base: number | null }): XmlVatDetail | undefined {
  const rows = inv.xmlDetails?.vat ?? [];
  const ofRate = rows.filter((x) => sameRate(row.rate, x.rate) || (row.rate === null && x.rate === null) || (row.rate === 0 && x.rate === null));
  return ofRate.find((x) => sameAmount(row.base, x.base)) ?? (ofRate.length === 1 ? ofRate[0] : undefined);
}

function vatRows(inv: ReviewedInvoice, missing: MissingTerm[]): PlannedVatRow[] {
  const f = inv.fields;
  const otherTaxes = inv.xmlDetails?.otherTaxes ?? [];
  if (otherTaxes.length > 0) {
    // Its amounts are another tax's (an insurance tax): calling them VAT would state a VAT the issuer never charged.
    missing.push({ bt: 'BT-118', why: `the XML's tax is ${otherTaxes.map(taxTypeName).join(', ')}, not VAT: EN 16931's VAT breakdown (BG-23) carries VAT only, and the XML states no VAT category for the supply` });
    return [];
  }
  const rows = f.tax_breakdown.length > 0
    ? f.tax_breakdown
    : f.subtotal !== null && f.tax !== null && f.subtotal !== 0
      ? [{ rate: Number(new Big(f.tax).times(100).div(f.subtotal).round(AMOUNT_DECIMALS)), base: f.subtotal, amount: f.tax }]
      : [];
  if (rows.length === 0) missing.push({ bt: 'BG-23', why: 'no VAT breakdown, and the subtotal and tax do not give one' });
  const planned: PlannedVatRow[] = [];
  for (const [i, row] of rows.entries()) {
    // The XML's own category for the row: a 0 % row is zero-rated, exempt, reverse charge … as the issuer declared.
    const declared = f.tax_breakdown.length > 0 ? xmlVatRow(inv, row) : undefined;
    const notSubject = declared?.category === NOT_SUBJECT_TO_VAT;
    if ((row.rate === null && !notSubject) || row.base === null || row.amount === null) {
      missing.push({ bt: row.rate === null ? 'BT-119' : row.base === null ? 'BT-116' : 'BT-117', why: `VAT row ${i + 1} is incomplete` });
      continue;
    }
    if (!declared && (row.rate ?? 0) <= 0) {
      missing.push({ bt: 'BT-118', why: `VAT row ${i + 1} has a 0 % rate: zero-rated, exempt or reverse charge cannot be told from the page` });
      continue;
    }
    const expected = new Big(row.base).times(row.rate ?? 0).div(100).round(AMOUNT_DECIMALS, Big.roundHalfUp);
    if (f.tax_breakdown.length === 0 && !expected.eq(new Big(row.amount).round(AMOUNT_DECIMALS))) {
      missing.push({ bt: 'BG-23', why: 'no VAT breakdown, and the tax is no single rate of the subtotal' });
      continue;
    }
    planned.push({
      category: declared?.category ?? STANDARD_RATE,
      rate: notSubject ? null : dec(row.rate!),
      base: amountText(row.base),
      amount: amountText(row.amount),
      exemptionReason: declared?.exemptionReason ?? null,
      exemptionReasonCode: declared?.exemptionReasonCode ?? null,
    });
  }
  return planned;
}

function plannedLines(inv: ReviewedInvoice, vat: PlannedVatRow[], missing: MissingTerm[]): PlannedLine[] {
  const lines = inv.fields.lines;
  if (lines.length === 0) missing.push({ bt: 'BG-25', why: 'no invoice line' });
  // Each line's category and unit as its XML declares them, where the reviewed lines are the XML's (same count).
  const declared = inv.xmlDetails && inv.xmlDetails.lines.length === lines.length ? inv.xmlDetails.lines : null;
  const categoryOf = (i: number): { category: string; rate: string | null } | null => {
    const line = declared?.[i];
    if (line?.category) return { category: line.category, rate: line.category === NOT_SUBJECT_TO_VAT ? null : line.rate };
    return vat.length === 1 ? vat[0]! : null;
  };
  if (lines.length > 0 && vat.length > 1 && lines.some((_, i) => !declared?.[i]?.category)) missing.push({ bt: 'BT-151', why: 'several VAT rates, and the lines do not say which is theirs' });
  return lines.flatMap((l, i) => {
    const category = categoryOf(i);
    const name = `line ${i + 1}`;
    const lacks = (bt: string, what: string) => missing.push({ bt, why: `${name} has no ${what}` });
    if (!present(l.description)) lacks('BT-153', 'item name');
    if (l.amount === null) lacks('BT-131', 'net amount');
    if (l.quantity === null) lacks('BT-129', 'quantity');
    let price = l.unit_price;
    if (price === null && l.amount !== null && l.quantity !== null && l.quantity !== 0) {
      const quotient = new Big(l.amount).div(l.quantity);
      if (quotient.round(PRICE_DECIMALS).times(l.quantity).eq(l.amount)) price = Number(quotient.round(PRICE_DECIMALS));
    }
    if (price === null) lacks('BT-146', 'net price');
    if (l.amount === null || l.quantity === null || price === null || !present(l.description) || !category) return [];
    const allowanceCharges = (declared?.[i]?.allowanceCharges ?? []).map((a) => ({ charge: a.charge, amount: amountText(a.amount), reason: a.reason, reasonCode: a.reasonCode }));
    return [{ id: String(i + 1), name: l.description.trim(), quantity: dec(l.quantity), unitCode: declared?.[i]?.unitCode ?? COUNT_UNIT_CODE, netAmount: amountText(l.amount), price: dec(price), allowanceCharges, category: category.category, rate: category.rate }];
  });
}

/**
 * The document-level allowances and charges: the XML's own (with their reason and VAT category) where they add up to
 * the reviewed sums (BT-107, BT-108); a sum with no such detail is reported (BG-20/BG-21), never invented.
 */
function plannedAllowanceCharges(inv: ReviewedInvoice, missing: MissingTerm[]): PlannedAllowanceCharge[] {
  const f = inv.fields;
  const declared = inv.xmlDetails?.allowanceCharges ?? [];
  const planned: PlannedAllowanceCharge[] = [];
  for (const [charge, sum, bt, what] of [[false, f.allowances, 'BG-20', 'allowances'], [true, f.charges, 'BG-21', 'charges']] as const) {
    const mine = declared.filter((a) => a.charge === charge);
    const total = mine.reduce((acc, a) => acc.plus(a.amount), new Big(0));
    if ((sum ?? 0) === 0 && mine.length === 0) continue;
    if (mine.length === 0 || !total.eq(new Big(sum ?? 0).round(AMOUNT_DECIMALS))) {
      missing.push({ bt, why: mine.length === 0 ? `the XML states the sum of document ${what} (${charge ? 'BT-108' : 'BT-107'}) but no ${charge ? 'charge' : 'allowance'} with its reason (${charge ? 'BT-104/BT-105, BR-38' : 'BT-97/BT-98, BR-33'}) and VAT category` : `document ${what} that do not add up to their sum` });
      continue;
    }
    for (const a of mine) planned.push({ charge, amount: amountText(a.amount), reason: a.reason, reasonCode: a.reasonCode, category: a.category, rate: a.category === NOT_SUBJECT_TO_VAT ? null : a.rate });
  }
  return planned;
}

/** An ISO 6523 ICD (four digits) or EM before the address, as xmlPaymentFields.ts writes a non-e-mail address. */
const SCHEMED_ENDPOINT = /^(EM|\d{4}):(.+)$/;

/** An electronic address as the routing fields hold it: `scheme:id`, or a bare e-mail address (EM); null when neither. */
export function plannedEndpoint(text: string | null): PlannedEndpoint | null {
  if (!present(text)) return null;
  const value = text.trim();
  const schemed = SCHEMED_ENDPOINT.exec(value);
  if (schemed) return { scheme: schemed[1]!, id: schemed[2]!.trim() };
  return value.includes('@') ? { scheme: 'EM', id: value } : null;
}

const given = (s: string | null | undefined): string | null => (present(s) ? s.trim() : null);

function party(role: 'seller' | 'buyer', name: string | null, inv: ReviewedInvoice, missing: MissingTerm[]): PlannedParty | null {
  const p = inv.payment;
  const [nameBt, countryBt] = role === 'seller' ? ['BT-27', 'BT-40'] : ['BT-44', 'BT-55'];
  const vatId = role === 'seller' ? p.seller_vat_id : p.buyer_vat_id;
  const country = (role === 'seller' ? inv.sellerCountry : inv.buyerCountry) ?? countryOfVatId(vatId);
  if (!present(name)) missing.push({ bt: nameBt, why: `no ${role} name` });
  if (!country) missing.push({ bt: countryBt, why: `no ${role} country (neither in an e-invoice XML nor a ${role} VAT identifier)` });
  if (!present(name) || !country) return null;
  const contact = role === 'seller' ? { name: given(p.seller_contact_name), phone: given(p.seller_contact_phone), email: given(p.seller_contact_email) } : null;
  return {
    name: name.trim(),
    vatId: present(vatId) ? vatId.replace(/\s/g, '').toUpperCase() : null,
    taxRegistration: role === 'seller' ? given(inv.xmlDetails?.sellerTaxRegistration) : null,
    country,
    city: given(role === 'seller' ? p.seller_city : p.buyer_city),
    postCode: given(role === 'seller' ? p.seller_post_code : p.buyer_post_code),
    endpoint: plannedEndpoint(role === 'seller' ? p.seller_endpoint : p.buyer_endpoint),
    contact: contact && (contact.name || contact.phone || contact.email) ? contact : null,
  };
}

const negate = (amount: string): string => new Big(amount).times(-1).toFixed(AMOUNT_DECIMALS);
const negateQuantity = (quantity: string): string => new Big(quantity).times(-1).toString();
const negateOrNull = (amount: string | null): string | null => (amount === null ? null : negate(amount));

/**
 * A credit note's plan with positive amounts (EN 16931: the type code says it is a credit; BR-27 forbids a negative
 * price): where its total is negative — a page printing the credit as minus amounts — every amount and quantity turns
 * sign. All the sums (BR-CO-10 … 16, BR-S-08) are linear, so each holds after the turn exactly as before it.
 */
function asCreditNote(plan: EInvoicePlan): EInvoicePlan {
  if (!isCreditNote(plan.typeCode) || !new Big(plan.totals.taxInclusive).lt(0)) return plan;
  const t = plan.totals;
  return {
    ...plan,
    lines: plan.lines.map((l) => ({ ...l, quantity: negateQuantity(l.quantity), netAmount: negate(l.netAmount), price: new Big(l.price).abs().toString(), allowanceCharges: l.allowanceCharges.map((a) => ({ ...a, amount: negate(a.amount) })) })),
    vat: plan.vat.map((row) => ({ ...row, base: negate(row.base), amount: negate(row.amount) })),
    allowanceCharges: plan.allowanceCharges.map((a) => ({ ...a, amount: negate(a.amount) })),
    totals: { lineTotal: negate(t.lineTotal), taxExclusive: negate(t.taxExclusive), tax: negate(t.tax), taxInclusive: negate(t.taxInclusive), allowances: negateOrNull(t.allowances), charges: negateOrNull(t.charges), prepaid: negateOrNull(t.prepaid), rounding: negateOrNull(t.rounding), payable: negate(t.payable) },
  };
}

export function planEInvoice(inv: ReviewedInvoice): PlanOutcome {
  const f = inv.fields;
  const p = inv.payment;
  const missing: MissingTerm[] = [];
  if (!present(f.invoice_number)) missing.push({ bt: 'BT-1', why: 'no invoice number' });
  if (!present(f.issue_date)) missing.push({ bt: 'BT-2', why: 'no issue date' });
  if (!present(f.currency)) missing.push({ bt: 'BT-5', why: 'no currency' });
  const seller = party('seller', f.seller, inv, missing);
  const buyer = party('buyer', f.buyer, inv, missing);
  if (f.subtotal === null) missing.push({ bt: 'BT-109', why: 'no subtotal (total without VAT)' });
  if (f.total === null) missing.push({ bt: 'BT-112', why: 'no total' });
  if (f.tax === null) missing.push({ bt: 'BT-110', why: 'no VAT total' });
  const allowanceCharges = plannedAllowanceCharges(inv, missing);
  const vat = vatRows(inv, missing);
  const lines = plannedLines(inv, vat, missing);
  const categories = [...new Set([...vat, ...lines, ...allowanceCharges].map((x) => x.category))];
  const needing = categories.filter((c) => c in SELLER_TAX_ID_RULES);
  if (seller && !seller.vatId && !seller.taxRegistration) {
    if (needing.length > 0) {
      missing.push({ bt: 'BT-31', why: `VAT category ${needing.join(', ')} needs the seller VAT identifier or tax registration (BT-32) (${needing.map((c) => SELLER_TAX_ID_RULES[c]).join(', ')})` });
    } else if (categories.length === 0 && (inv.xmlDetails?.otherTaxes ?? []).length === 0) {
      // No category could be told yet (the breakdown is what is missing): listed now, so that the invoice's gaps are
      // all named at once — only O (not subject to VAT) does without it.
      missing.push({ bt: 'BT-31', why: 'every VAT category but O (not subject to VAT) needs the seller VAT identifier or tax registration (BT-32)' });
    }
  }
  if ((f.amount_due ?? f.total ?? 0) > 0 && !present(f.due_date) && !present(p.payment_terms)) {
    missing.push({ bt: 'BT-9', why: 'an amount due needs a due date or payment terms (BT-20) (BR-CO-25)' });
  }
  if (missing.length > 0 || !seller || !buyer) return { ok: false, missing };

  const lineTotal = f.line_total ?? f.lines.reduce((sum, l) => sum.plus(l.amount ?? 0), new Big(0)).toNumber();
  // BT-114 as the XML states it, where it is what reconciles the reviewed amount due with the total (BR-CO-16).
  const unrounded = new Big(f.total!).minus(f.prepaid ?? 0);
  const xmlRounding = inv.xmlDetails?.rounding ?? null;
  const rounding = xmlRounding !== null && (f.amount_due === null || unrounded.plus(xmlRounding).round(AMOUNT_DECIMALS).eq(new Big(f.amount_due).round(AMOUNT_DECIMALS))) ? xmlRounding : null;
  const payable = f.amount_due ?? unrounded.plus(rounding ?? 0).toNumber();
  const delivery = inv.xmlDetails?.delivery;
  const payment = present(p.iban)
    ? { meansCode: f.currency === 'EUR' ? SEPA_CREDIT_TRANSFER : CREDIT_TRANSFER, iban: p.iban.replace(/\s/g, '').toUpperCase(), bic: present(p.bic) ? p.bic.replace(/\s/g, '').toUpperCase() : null }
    : null;
  return {
    ok: true,
    plan: asCreditNote({
      number: f.invoice_number!.trim(),
      issueDate: f.issue_date!,
      dueDate: present(f.due_date) ? f.due_date : null,
      typeCode: inv.documentType.code,
      currency: f.currency!,
      buyerReference: given(p.buyer_reference),
      seller,
      buyer,
      payment,
      paymentTerms: present(p.payment_terms) ? p.payment_terms.trim() : null,
      purchaseOrder: present(p.purchase_order) ? p.purchase_order.trim() : null,
      contract: present(p.contract) ? p.contract.trim() : null,
      lines,
      vat,
      allowanceCharges,
      delivery: delivery && (delivery.date || delivery.period || delivery.address) ? delivery : null,
      totals: {
        lineTotal: amountText(lineTotal),
        taxExclusive: amountText(f.subtotal!),
        tax: amountText(f.tax!),
        taxInclusive: amountText(f.total!),
        allowances: allowanceCharges.some((a) => !a.charge) ? amountText(f.allowances ?? 0) : null,
        charges: allowanceCharges.some((a) => a.charge) ? amountText(f.charges ?? 0) : null,
        prepaid: f.prepaid !== null && f.prepaid !== 0 ? amountText(f.prepaid) : null,
        rounding: rounding === null ? null : amountText(rounding),
        payable: amountText(payable),
      },
    }),
  };
}
