/**
 * The VAT category rules, UBL binding: BR-S (standard), BR-Z (zero), BR-E (exempt), BR-AE (reverse charge),
 * BR-IC (intra-community, code K), BR-G (export), BR-O (not subject), BR-AF (IGIC, code L), BR-AG (IPSI, code M),
 * BR-B (split payment). Each family has the same ten assertions (-01 … -10) with small differences the schematron
 * makes per category — which selections filter on the VAT scheme, exact sums or a ±1 tolerance, which seller and buyer
 * identifiers suffice — and those differences are kept in the table below rather than smoothed over.
 */
import Big from 'big.js';
import { dec, decOf, round2, sum, xsDouble } from '../decimal.js';
import type { AllowanceCharge, InvoiceLine, Party, SemanticInvoice, TaxCategory, Term } from '../model/semanticInvoice.js';
import { code, forEach, isAllowance, isCharge, isVat, present, vatIds, anyTaxIds, whole, type Rule } from './rule.js';

type Family = 'S' | 'Z' | 'E' | 'AE' | 'IC' | 'G' | 'O' | 'AF' | 'AG';

interface CategorySpec {
  family: Family;
  /** The category code (BT-95/102/118/151). */
  code: string;
  name: string;
  /** -01: "count" (S, L, M: some breakdown when used) or "one" (exactly one breakdown when used). */
  presence: 'count' | 'one';
  /** -02…-04: which seller identifiers satisfy the rule. */
  seller: 'anyTaxId' | 'vatId' | 'none';
  /** -02…-04: what the buyer needs as well. */
  buyer: 'none' | 'vatOrLegal' | 'vat';
  /** -05…-07: the rate test. */
  rate: 'zero' | 'positive' | 'nonNegative' | 'absent';
  /** -08: exact sum, or ±1 tolerance per rate. */
  taxable: 'exact' | 'perRate';
  /** -09: tax amount zero, or rate × taxable within ±1. */
  tax: 'zero' | 'product';
  /** -10: an exemption reason is required, or forbidden. */
  reason: 'required' | 'forbidden';
}

const SPECS: CategorySpec[] = [
  { family: 'S', code: 'S', name: 'Standard rated', presence: 'count', seller: 'anyTaxId', buyer: 'none', rate: 'positive', taxable: 'perRate', tax: 'product', reason: 'forbidden' },
  { family: 'Z', code: 'Z', name: 'Zero rated', presence: 'one', seller: 'anyTaxId', buyer: 'none', rate: 'zero', taxable: 'exact', tax: 'zero', reason: 'forbidden' },
  { family: 'E', code: 'E', name: 'Exempt from VAT', presence: 'one', seller: 'anyTaxId', buyer: 'none', rate: 'zero', taxable: 'exact', tax: 'zero', reason: 'required' },
  { family: 'AE', code: 'AE', name: 'Reverse charge', presence: 'one', seller: 'anyTaxId', buyer: 'vatOrLegal', rate: 'zero', taxable: 'exact', tax: 'zero', reason: 'required' },
  { family: 'IC', code: 'K', name: 'Intra-community supply', presence: 'one', seller: 'vatId', buyer: 'vat', rate: 'zero', taxable: 'exact', tax: 'zero', reason: 'required' },
  { family: 'G', code: 'G', name: 'Export outside the EU', presence: 'one', seller: 'vatId', buyer: 'none', rate: 'zero', taxable: 'exact', tax: 'zero', reason: 'required' },
  { family: 'O', code: 'O', name: 'Not subject to VAT', presence: 'one', seller: 'none', buyer: 'none', rate: 'absent', taxable: 'exact', tax: 'zero', reason: 'required' },
  { family: 'AF', code: 'L', name: 'IGIC', presence: 'count', seller: 'anyTaxId', buyer: 'none', rate: 'nonNegative', taxable: 'perRate', tax: 'product', reason: 'forbidden' },
  { family: 'AG', code: 'M', name: 'IPSI', presence: 'count', seller: 'anyTaxId', buyer: 'none', rate: 'nonNegative', taxable: 'perRate', tax: 'product', reason: 'forbidden' },
];

const is = (c: TaxCategory, value: string): boolean => code(c.code) === value;
const isVatOf = (c: TaxCategory, value: string): boolean => is(c, value) && isVat(c);

/** `//cac:AllowanceCharge`: document and line allowances and charges alike. */
const everyAllowanceCharge = (inv: SemanticInvoice): AllowanceCharge[] => [...inv.allowanceCharges, ...inv.lines.flatMap((l) => l.allowances)];
const lineCategories = (inv: SemanticInvoice): TaxCategory[] => inv.lines.flatMap((l) => l.taxCategories);
const breakdownCategories = (inv: SemanticInvoice): TaxCategory[] => inv.taxTotals.flatMap((t) => t.subtotals.flatMap((s) => s.categories));
/** `//cac:TaxCategory`: breakdown and allowance/charge categories. */
const allTaxCategories = (inv: SemanticInvoice): TaxCategory[] => [...breakdownCategories(inv), ...everyAllowanceCharge(inv).flatMap((a) => a.taxCategories)];

const sellerHas = (inv: SemanticInvoice, which: 'anyTaxId' | 'vatId'): boolean =>
  (which === 'anyTaxId' ? anyTaxIds(inv.seller) : vatIds(inv.seller)).length > 0 || vatIds(inv.taxRepresentative).length > 0;
const buyerHas = (buyer: Party, which: CategorySpec['buyer']): boolean =>
  which === 'none' || vatIds(buyer).length > 0 || (which === 'vatOrLegal' && buyer.legalIds.length > 0);

/** -02/-03/-04: the identifiers a use of the category requires (BR-O: requires their absence). */
function partiesHold(spec: CategorySpec, inv: SemanticInvoice): boolean {
  if (spec.seller === 'none') return vatIds(inv.seller).length === 0 && vatIds(inv.taxRepresentative).length === 0 && vatIds(inv.buyer).length === 0;
  return sellerHas(inv, spec.seller) && buyerHas(inv.buyer, spec.buyer);
}

function rateHolds(spec: CategorySpec, c: TaxCategory): boolean {
  switch (spec.rate) {
    case 'zero': {
      const rate = dec(c.rate);
      return rate !== null && rate.eq(0);
    }
    case 'absent':
      return c.rate === undefined;
    case 'positive':
    case 'nonNegative': {
      const rate = c.rate ? xsDouble(c.rate.text) : null;
      return rate !== null && (spec.rate === 'positive' ? rate > 0 : rate >= 0);
    }
  }
}

/** Σ lines + Σ charges − Σ allowances of the category (optionally at one rate), as the -08 rules sum them. */
function categoryBase(inv: SemanticInvoice, kind: InvoiceLine['kind'], value: string, rate: Big | null): Big | null {
  const atRate = (c: TaxCategory): boolean => rate === null || (dec(c.rate)?.eq(rate) ?? false);
  const lines = inv.lines.filter((l) => l.kind === kind && l.taxCategories.some((c) => is(c, value)) && l.taxCategories.some(atRate));
  const acs = (kindTest: (a: AllowanceCharge) => boolean) =>
    inv.allowanceCharges.filter((a) => kindTest(a) && a.taxCategories.some((c) => is(c, value)) && a.taxCategories.some(atRate));
  const lineSum = sum(lines.flatMap((l) => l.netAmount));
  const chargeSum = sum(acs(isCharge).flatMap((a) => a.amounts));
  const allowanceSum = sum(acs(isAllowance).flatMap((a) => a.amounts));
  if (lineSum === null || chargeSum === null || allowanceSum === null) return null;
  return lineSum.plus(chargeSum).minus(allowanceSum);
}

/** `xs:decimal(TaxableAmount ± 1)`: the untyped amount is a double in that arithmetic. */
function doubleShift(t: Term | undefined, delta: number): Big | null {
  const n = t ? xsDouble(t.text) : null;
  return n === null || !Number.isFinite(n) ? null : decOf(String(n + delta).replace(/e\+?(-?\d+)$/, 'e$1')) ?? safeBig(n + delta);
}
function safeBig(n: number): Big | null {
  try {
    return Big(n);
  } catch {
    return null;
  }
}

function taxableHolds(spec: CategorySpec, inv: SemanticInvoice, taxable: Term | undefined, c: TaxCategory): boolean {
  const kinds = (['InvoiceLine', 'CreditNoteLine'] as const).filter((k) => inv.lines.some((l) => l.kind === k));
  if (spec.taxable === 'exact') {
    const amount = dec(taxable);
    return kinds.some((k) => {
      const base = categoryBase(inv, k, spec.code, null);
      return amount !== null && base !== null && amount.eq(base);
    });
  }
  // every $rate in xs:decimal(cbc:Percent): holds vacuously without a rate.
  if (c.rate === undefined) return true;
  const rate = dec(c.rate);
  if (rate === null) return false;
  const lo = doubleShift(taxable, -1);
  const hi = doubleShift(taxable, 1);
  return kinds.some((k) => {
    if (spec.family === 'S') {
      const used = inv.lines.some((l) => l.kind === k && l.taxCategories.some((x) => is(x, 'S')) && l.taxCategories.some((x) => dec(x.rate)?.eq(rate) ?? false))
        || everyAllowanceCharge(inv).some((a) => a.taxCategories.some((x) => is(x, 'S')) && a.taxCategories.some((x) => dec(x.rate)?.eq(rate) ?? false));
      if (!used) return false;
    }
    const base = categoryBase(inv, k, spec.code, rate);
    return base !== null && lo !== null && hi !== null && lo.lt(base) && hi.gt(base);
  });
}

function taxHolds(spec: CategorySpec, taxable: Term | undefined, tax: Term | undefined, c: TaxCategory): boolean {
  const amount = dec(tax);
  if (spec.tax === 'zero') return amount !== null && amount.eq(0);
  const base = dec(taxable);
  const rate = dec(c.rate);
  if (amount === null || base === null || rate === null) return false;
  const expected = round2(base.abs().times(rate.times('0.01')));
  return amount.abs().minus(1).lt(expected) && amount.abs().plus(1).gt(expected);
}

function familyRules(spec: CategorySpec): Rule[] {
  const f = spec.family;
  const v = spec.code;
  const id = (n: number) => `BR-${f}-${String(n).padStart(2, '0')}`;
  const breakdowns = (inv: SemanticInvoice) =>
    inv.taxTotals.flatMap((t) => t.subtotals.flatMap((s) => s.categories.filter((c) => isVatOf(c, v)).map((c) => ({ s, c }))));
  const withVat = f !== 'S';
  const lineUse = (inv: SemanticInvoice, vatOnly: boolean) => lineCategories(inv).some((c) => is(c, v) && (!vatOnly || isVat(c)));
  const acUse = (inv: SemanticInvoice, test: (a: AllowanceCharge) => boolean, vatOnly: boolean, documentOnly = false) =>
    (documentOnly ? inv.allowanceCharges : everyAllowanceCharge(inv)).some((a) => test(a) && a.taxCategories.some((c) => is(c, v) && (!vatOnly || isVat(c))));

  const presence = whole(id(1), ['BT-118', 'BT-151', 'BT-95', 'BT-102'], (inv) => {
    if (spec.presence === 'count') {
      const used = everyAllowanceCharge(inv).flatMap((a) => a.taxCategories).filter((c) => is(c, v) && (!withVat || isVat(c))).length
        + lineCategories(inv).filter((c) => is(c, v) && (!withVat || isVat(c))).length;
      const inBreakdownLoose = breakdownCategories(inv).filter((c) => is(c, v) && (f !== 'AG' || isVat(c))).length;
      const inBreakdownStrict = breakdownCategories(inv).filter((c) => is(c, v) && (withVat ? isVat(c) : true)).length;
      return (used > 0 && inBreakdownLoose > 0) || (used === 0 && inBreakdownStrict === 0);
    }
    const used = allTaxCategories(inv).some((c) => isVatOf(c, v)) || lineCategories(inv).some((c) => isVatOf(c, v));
    return used ? breakdownCategories(inv).filter((c) => isVatOf(c, v)).length === 1 : true;
  });

  const uses: Array<[number, string[], (inv: SemanticInvoice) => boolean, (inv: SemanticInvoice) => boolean]> = [
    [2, ['BT-151'], (inv) => lineUse(inv, true), (inv) => lineUse(inv, withVat)],
    [3, ['BT-95'], (inv) => acUse(inv, isAllowance, f !== 'G', f === 'O'), (inv) => acUse(inv, isAllowance, true, f === 'O')],
    [4, ['BT-102'], (inv) => acUse(inv, isCharge, f !== 'G', f === 'O'), (inv) => acUse(inv, isCharge, true, f === 'O')],
  ];
  const partyRules = uses.map(([n, bt, usedStrict, usedLoose]) =>
    whole(id(n), [...bt, 'BT-31', 'BT-32', 'BT-63', ...(spec.buyer !== 'none' ? ['BT-48', 'BT-47'] : [])], (inv) => (usedStrict(inv) && partiesHold(spec, inv)) || !usedLoose(inv)),
  );

  const rateRules = [
    forEach(id(5), ['BT-152'], (inv) => inv.lines.flatMap((l) => l.taxCategories.filter((c) => isVatOf(c, v)).map((c) => ({ c, l }))), ({ c }) => rateHolds(spec, c), ({ l }) => l.id?.text),
    forEach(id(6), ['BT-96'], (inv) => everyAllowanceCharge(inv).filter(isAllowance).flatMap((a) => a.taxCategories.filter((c) => isVatOf(c, v))), (c) => rateHolds(spec, c)),
    forEach(id(7), ['BT-103'], (inv) => everyAllowanceCharge(inv).filter(isCharge).flatMap((a) => a.taxCategories.filter((c) => isVatOf(c, v))), (c) => rateHolds(spec, c)),
  ];

  const breakdownRules = [
    forEach(id(8), ['BT-116'], breakdowns, ({ s, c }, inv) => taxableHolds(spec, inv, s.taxableAmount, c)),
    forEach(id(9), ['BT-117'], breakdowns, ({ s, c }) => taxHolds(spec, s.taxableAmount, s.taxAmount, c)),
    forEach(id(10), ['BT-120', 'BT-121'], breakdowns, ({ c }) => {
      const has = present(c.exemptionReason) || present(c.exemptionReasonCode);
      return spec.reason === 'required' ? has : !has;
    }),
  ];
  return [presence, ...partyRules, ...rateRules, ...breakdownRules];
}

const breakdownUses = (inv: SemanticInvoice, v: string) => breakdownCategories(inv).some((c) => isVatOf(c, v));

/** BR-IC-11/12 and BR-O-11…14: what else an intra-community or not-subject invoice must (not) carry. */
const extraRules: Rule[] = [
  whole('BR-IC-11', ['BT-72', 'BG-14'], (inv) => !breakdownUses(inv, 'K') || [...(inv.delivery[0]?.date?.text ?? '')].length > 1 || inv.periods.some((p) => p.hasChildren)),
  whole('BR-IC-12', ['BT-80'], (inv) => !breakdownUses(inv, 'K') || [...(inv.delivery[0]?.address?.country?.text ?? '')].length > 1),
  whole('BR-O-11', ['BT-118'], (inv) => !breakdownUses(inv, 'O') || !breakdownCategories(inv).some((c) => isVat(c) && !is(c, 'O'))),
  whole('BR-O-12', ['BT-151'], (inv) => !breakdownUses(inv, 'O') || !lineCategories(inv).some((c) => isVat(c) && !is(c, 'O'))),
  whole('BR-O-13', ['BT-95'], (inv) => !breakdownUses(inv, 'O') || !everyAllowanceCharge(inv).filter(isAllowance).some((a) => a.taxCategories.some((c) => isVat(c) && !is(c, 'O')))),
  whole('BR-O-14', ['BT-102'], (inv) => !breakdownUses(inv, 'O') || !everyAllowanceCharge(inv).filter(isCharge).some((a) => a.taxCategories.some((c) => isVat(c) && !is(c, 'O')))),
];

/** BR-B: split payment (Italy) — only with Italian addresses, never together with standard rate. */
const exactly = (t: Term | undefined, value: string): boolean => t !== undefined && t.text === value;
const splitPaymentRules: Rule[] = [
  whole('BR-B-01', ['BT-118', 'BT-40'], (inv) => {
    const used = allTaxCategories(inv).some((c) => exactly(c.code, 'B')) || lineCategories(inv).some((c) => exactly(c.code, 'B'));
    return !used || !inv.countryCodes.some((c) => c.text !== 'IT');
  }),
  whole('BR-B-02', ['BT-118'], (inv) => {
    const uses = (value: string) =>
      breakdownCategories(inv).some((c) => exactly(c.code, value)) || inv.allowanceCharges.some((a) => a.taxCategories.some((c) => exactly(c.code, value))) || lineCategories(inv).some((c) => exactly(c.code, value));
    return !uses('B') || !uses('S');
  }),
];

export const vatCategoryRules: Rule[] = [...SPECS.flatMap(familyRules), ...extraRules, ...splitPaymentRules];
export const VAT_CATEGORY_NAMES: Record<string, string> = Object.fromEntries(SPECS.map((s) => [s.code, s.name]));
