/**
 * The VAT category families as the CII schematron tests them. Same ten assertions per family as UBL (./vatCategories.ts)
 * but other forms: -01 counts line, allowance and breakdown categories without the VAT filter; the seller and buyer
 * identifiers are tax registrations by scheme (VA = VAT identifier, FC = tax registration); -08 rounds each sum to
 * cents and compares as xs:double, -09 of S multiplies by the untyped rate; BR-AF-09 and BR-AG-09 are `true()`.
 */
import Big from 'big.js';
import { dec, round2, sum, xsDouble } from '../decimal.js';
import type { AllowanceCharge, Party, SemanticInvoice, TaxCategory, Term } from '../model/semanticInvoice.js';
import { CII_TAX_REGISTRATION_SCHEME, CII_VAT_SCHEME, forEach, isAllowance, isCharge, isVat, present, whole, type Rule } from './rule.js';

type Family = 'S' | 'Z' | 'E' | 'AE' | 'IC' | 'G' | 'O' | 'AF' | 'AG';
interface Spec {
  family: Family;
  code: string;
  presence: 'pair' | 'one' | 'atMostOne';
  parties: 'vaFc' | 'vaFcBuyerVaOrLegal' | 'vaBuyerVa' | 'va' | 'noVa';
  rate: 'zero' | 'positive' | 'nonNegative' | 'absent';
  taxable: 'perRate' | 'tolerance' | 'exact';
  tax: 'zero' | 'product' | 'none';
  reason: 'required' | 'forbidden';
  /** Whether the breakdown context filters on the VAT scheme (S and Z do not). */
  vatContext: boolean;
}

const SPECS: Spec[] = [
  { family: 'S', code: 'S', presence: 'pair', parties: 'vaFc', rate: 'positive', taxable: 'perRate', tax: 'product', reason: 'forbidden', vatContext: false },
  { family: 'Z', code: 'Z', presence: 'one', parties: 'vaFc', rate: 'zero', taxable: 'tolerance', tax: 'zero', reason: 'forbidden', vatContext: false },
  { family: 'E', code: 'E', presence: 'one', parties: 'vaFc', rate: 'zero', taxable: 'tolerance', tax: 'zero', reason: 'required', vatContext: true },
  { family: 'AE', code: 'AE', presence: 'one', parties: 'vaFcBuyerVaOrLegal', rate: 'zero', taxable: 'tolerance', tax: 'zero', reason: 'required', vatContext: true },
  { family: 'IC', code: 'K', presence: 'one', parties: 'vaBuyerVa', rate: 'zero', taxable: 'tolerance', tax: 'zero', reason: 'required', vatContext: true },
  { family: 'G', code: 'G', presence: 'one', parties: 'va', rate: 'zero', taxable: 'tolerance', tax: 'zero', reason: 'required', vatContext: true },
  { family: 'O', code: 'O', presence: 'atMostOne', parties: 'noVa', rate: 'absent', taxable: 'exact', tax: 'zero', reason: 'required', vatContext: true },
  { family: 'AF', code: 'L', presence: 'pair', parties: 'vaFc', rate: 'positive', taxable: 'perRate', tax: 'none', reason: 'forbidden', vatContext: true },
  { family: 'AG', code: 'M', presence: 'pair', parties: 'vaFc', rate: 'nonNegative', taxable: 'perRate', tax: 'none', reason: 'forbidden', vatContext: true },
];

/** `ram:CategoryCode = 'X'`: an untyped string comparison, exact. */
const is = (c: TaxCategory, value: string): boolean => c.code !== undefined && c.code.text === value;
const header = (inv: SemanticInvoice): TaxCategory[] => inv.taxTotals.flatMap((t) => t.subtotals.flatMap((s) => s.categories));
const lineCats = (inv: SemanticInvoice): TaxCategory[] => inv.lines.flatMap((l) => l.taxCategories);
const everyAc = (inv: SemanticInvoice): AllowanceCharge[] => [...inv.allowanceCharges, ...inv.lines.flatMap((l) => l.allowances)];
const acCats = (inv: SemanticInvoice): TaxCategory[] => everyAc(inv).flatMap((a) => a.taxCategories);

const hasScheme = (p: Party | undefined, schemes: string[]): boolean => (p?.taxIds ?? []).some((t) => t.scheme !== undefined && schemes.includes(t.scheme.text) && present(t.id));

function partiesHold(spec: Spec, inv: SemanticInvoice): boolean {
  const sellerVa = hasScheme(inv.seller, [CII_VAT_SCHEME]) || hasScheme(inv.taxRepresentative, [CII_VAT_SCHEME]);
  const sellerVaFc = hasScheme(inv.seller, [CII_VAT_SCHEME, CII_TAX_REGISTRATION_SCHEME]) || hasScheme(inv.taxRepresentative, [CII_VAT_SCHEME]);
  const buyerVa = hasScheme(inv.buyer, [CII_VAT_SCHEME]);
  switch (spec.parties) {
    case 'vaFc':
      return sellerVaFc;
    case 'vaFcBuyerVaOrLegal':
      return sellerVaFc && (buyerVa || inv.buyer.legalIds.length > 0);
    case 'vaBuyerVa':
      return sellerVa && buyerVa;
    case 'va':
      return sellerVa;
    case 'noVa':
      return !sellerVa && !buyerVa;
  }
}

function rateHolds(spec: Spec, c: TaxCategory): boolean {
  if (spec.rate === 'absent') return c.rate === undefined;
  const rate = c.rate ? xsDouble(c.rate.text) : null;
  if (rate === null) return false;
  return spec.rate === 'zero' ? rate === 0 : spec.rate === 'positive' ? rate > 0 : rate >= 0;
}

/** round2(Σ lines) + round2(Σ charges) − round2(Σ allowances) of the category (at one rate, or any). */
function categoryBase(inv: SemanticInvoice, value: string, rate: Big | null): Big | null {
  const atRate = (cats: TaxCategory[]): boolean => rate === null || cats.some((c) => dec(c.rate)?.eq(rate) ?? false);
  const lines = inv.lines.filter((l) => l.taxCategories.some((c) => is(c, value)) && atRate(l.taxCategories));
  const acs = (test: (a: AllowanceCharge) => boolean) => inv.allowanceCharges.filter((a) => test(a) && a.taxCategories.some((c) => is(c, value)) && atRate(a.taxCategories));
  const l = sum(lines.flatMap((x) => x.netAmount));
  const c = sum(acs(isCharge).map((a) => a.amounts[0]).filter((t): t is Term => t !== undefined));
  const a = sum(acs(isAllowance).map((x) => x.amounts[0]).filter((t): t is Term => t !== undefined));
  if (l === null || c === null || a === null) return null;
  return round2(l).plus(round2(c)).minus(round2(a));
}

function taxableHolds(spec: Spec, inv: SemanticInvoice, taxable: Term | undefined, c: TaxCategory): boolean {
  const basis = taxable ? xsDouble(taxable.text) : null;
  if (spec.taxable === 'perRate') {
    if (c.rate === undefined) return true;
    const rate = dec(c.rate);
    const base = rate === null ? null : categoryBase(inv, spec.code, rate);
    return basis !== null && base !== null && basis === Number(base.toString());
  }
  const base = categoryBase(inv, spec.code, null);
  if (basis === null || base === null) return false;
  const expected = Number(base.toString());
  return spec.taxable === 'exact' ? basis === expected : basis - 1 < expected && basis + 1 > expected;
}

function taxHolds(spec: Spec, taxable: Term | undefined, tax: Term | undefined, c: TaxCategory): boolean {
  if (spec.tax === 'none') return true;
  if (spec.tax === 'zero') {
    const amount = tax ? xsDouble(tax.text) : null;
    return amount === 0;
  }
  const amount = dec(tax);
  const base = dec(taxable);
  const rate = c.rate ? xsDouble(c.rate.text) : null;
  if (amount === null || base === null || rate === null) return false;
  const expected = Math.floor(Math.abs(Number(base.toString())) * rate + 0.5) / 100;
  const abs = Number(amount.abs().toString());
  return abs - 1 < expected && abs + 1 > expected;
}

function familyRules(spec: Spec): Rule[] {
  const v = spec.code;
  const id = (n: number) => `BR-${spec.family}-${String(n).padStart(2, '0')}`;
  const contexts = (inv: SemanticInvoice) =>
    inv.taxTotals.flatMap((t) => t.subtotals.flatMap((s) => s.categories.filter((c) => is(c, v) && (!spec.vatContext || isVat(c))).map((c) => ({ s, c }))));
  const vatOf = (cats: TaxCategory[]) => cats.filter((c) => is(c, v) && isVat(c));

  const presence = whole(id(1), ['BT-118', 'BT-151', 'BT-95', 'BT-102'], (inv) => {
    const h = header(inv).filter((c) => is(c, v)).length;
    const l = lineCats(inv).filter((c) => is(c, v)).length;
    const a = acCats(inv).filter((c) => is(c, v)).length;
    if (spec.presence === 'pair') return (l + h >= 2 || l === 0) && (a + h >= 2 || a === 0);
    if (spec.presence === 'one') return (h === 0 && l === 0 && a === 0) || (h === 1 && (l > 0 || a > 0));
    return h === 0 || (h === 1 && (l > 0 || a > 0));
  });
  const partyRule = (n: number, bt: string, used: (inv: SemanticInvoice) => boolean) => whole(id(n), [bt, 'BT-31', 'BT-32', 'BT-63'], (inv) => !used(inv) || partiesHold(spec, inv));
  return [
    presence,
    partyRule(2, 'BT-151', (inv) => vatOf(lineCats(inv)).length > 0),
    partyRule(3, 'BT-95', (inv) => vatOf(everyAc(inv).filter(isAllowance).flatMap((a) => a.taxCategories)).length > 0),
    partyRule(4, 'BT-102', (inv) => vatOf(everyAc(inv).filter(isCharge).flatMap((a) => a.taxCategories)).length > 0),
    forEach(id(5), ['BT-152'], (inv) => inv.lines.flatMap((l) => vatOf(l.taxCategories).map((c) => ({ c, l }))), ({ c }) => rateHolds(spec, c), ({ l }) => l.id?.text),
    forEach(id(6), ['BT-96'], (inv) => vatOf(everyAc(inv).filter(isAllowance).flatMap((a) => a.taxCategories)), (c) => rateHolds(spec, c)),
    forEach(id(7), ['BT-103'], (inv) => vatOf(everyAc(inv).filter(isCharge).flatMap((a) => a.taxCategories)), (c) => rateHolds(spec, c)),
    forEach(id(8), ['BT-116'], contexts, ({ s, c }, inv) => taxableHolds(spec, inv, s.taxableAmount, c)),
    forEach(id(9), ['BT-117'], contexts, ({ s, c }) => taxHolds(spec, s.taxableAmount, s.taxAmount, c)),
    forEach(id(10), ['BT-120', 'BT-121'], contexts, ({ c }) => {
      const has = present(c.exemptionReason) || present(c.exemptionReasonCode);
      return spec.reason === 'required' ? has : !has;
    }),
  ];
}

const headerOf = (inv: SemanticInvoice, v: string) => header(inv).filter((c) => is(c, v) && isVat(c));
const notO = (c: TaxCategory): boolean => c.code !== undefined && c.code.text !== 'O';

const extraRules: Rule[] = [
  forEach('BR-IC-11', ['BT-72', 'BG-14'], (inv) => headerOf(inv, 'K'), (_, inv) => present(inv.delivery[0]?.date) || inv.periods.some((p) => present(p.start) || present(p.end))),
  forEach('BR-IC-12', ['BT-80'], (inv) => headerOf(inv, 'K'), (_, inv) => present(inv.delivery[0]?.address?.country)),
  forEach('BR-O-11', ['BT-118'], (inv) => headerOf(inv, 'O'), (_, inv) => ![...header(inv), ...lineCats(inv)].some(notO)),
  forEach('BR-O-12', ['BT-151'], (inv) => headerOf(inv, 'O'), (_, inv) => ![...header(inv), ...lineCats(inv)].some(notO)),
  forEach('BR-O-13', ['BT-95'], (inv) => headerOf(inv, 'O'), (_, inv) => !acCats(inv).some(notO)),
  forEach('BR-O-14', ['BT-102'], (inv) => headerOf(inv, 'O'), (_, inv) => !acCats(inv).some(notO)),
];

export const ciiVatCategoryRules: Rule[] = [...SPECS.flatMap(familyRules), ...extraRules];
