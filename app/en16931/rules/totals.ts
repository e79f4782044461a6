/** BR-CO-*: the consistency rules — document totals against their parts, VAT arithmetic, mutually exclusive terms. */
import { dec, round2, same, sum, xround } from '../decimal.js';
import { vatPrefix } from '../codeLists/lists.js';
import type { AllowanceCharge, DocumentTotals, SemanticInvoice, Term } from '../model/semanticInvoice.js';
import { code, forEach, isAllowance, needing, isCharge, isVat, present, whole, type Rule } from './rule.js';

const first = (terms: readonly Term[]) => terms[0];
const amountsOf = (acs: readonly AllowanceCharge[]) => acs.map((a) => first(a.amounts));
const hasReason = (a: AllowanceCharge): boolean => a.reasons.length > 0 || a.reasonCodes.length > 0;
/** The code list as the schematron writes it: BR-CO-09 tests `contains(list, prefix)`, a substring test. */
const VAT_PREFIX_TEXT = ` ${[...vatPrefix].join(' ')} `;

/** BR-CO-10…16 read the monetary total of the document; the UBL schematron evaluates each LegalMonetaryTotal. */
const totalsRule = (id: string, bt: string[], holds: (t: DocumentTotals, inv: SemanticInvoice) => boolean): Rule => forEach(id, bt, (inv) => inv.totals, holds);

function allowanceTotalHolds(total: Term[], acs: readonly AllowanceCharge[]): boolean {
  if (total.length === 0 && acs.length === 0) return true;
  const s = sum(amountsOf(acs).flatMap((a) => (a ? [a] : [])));
  return same(dec(first(total)), s === null ? null : round2(s));
}

function taxExclusiveHolds(t: DocumentTotals): boolean {
  const exclusive = dec(first(t.taxExclusive));
  const lines = dec(first(t.lineExtension));
  const charges = dec(first(t.chargeTotal));
  const allowances = dec(first(t.allowanceTotal));
  const hasCharges = t.chargeTotal.length > 0;
  const hasAllowances = t.allowanceTotal.length > 0;
  if (exclusive === null || lines === null) return false;
  if (hasCharges && hasAllowances) return charges !== null && allowances !== null && exclusive.eq(round2(lines.plus(charges).minus(allowances)));
  if (hasAllowances) return allowances !== null && exclusive.eq(round2(lines.minus(allowances)));
  if (hasCharges) return charges !== null && exclusive.eq(round2(lines.plus(charges)));
  return exclusive.eq(lines);
}

function payableHolds(t: DocumentTotals): boolean {
  const payable = dec(first(t.payable));
  const inclusive = dec(first(t.taxInclusive));
  const prepaid = dec(first(t.prepaid));
  const rounding = dec(first(t.rounding));
  const hasPrepaid = t.prepaid.length > 0;
  const hasRounding = t.rounding.length > 0;
  if (payable === null || inclusive === null) return false;
  if (hasPrepaid && !hasRounding) return prepaid !== null && payable.eq(round2(inclusive.minus(prepaid)));
  if (!hasPrepaid && !hasRounding) return payable.eq(inclusive);
  if (rounding === null) return false;
  const lhs = round2(payable.minus(rounding));
  return hasPrepaid ? prepaid !== null && lhs.eq(round2(inclusive.minus(prepaid))) : lhs.eq(inclusive);
}

/** BR-CO-17 on one VAT breakdown (UBL form: strict bounds ±1 around the rounded product). */
function breakdownVatHolds(taxable: Term | undefined, tax: Term | undefined, rateTerm: Term | undefined, inclusive: boolean): boolean {
  const amount = dec(tax);
  const rate = dec(rateTerm);
  if (rate === null) return rateTerm === undefined && amount !== null && xround(amount).eq(0);
  if (amount === null) return false;
  if (xround(rate).eq(0)) return xround(amount).eq(0);
  const base = dec(taxable);
  if (base === null) return false;
  const expected = round2(base.abs().times(rate.times('0.01')));
  const lo = amount.abs().minus(1);
  const hi = amount.abs().plus(1);
  return inclusive ? lo.cmp(expected) <= 0 && hi.cmp(expected) >= 0 : lo.lt(expected) && hi.gt(expected);
}

export { breakdownVatHolds };

export const totalsRules: Rule[] = [
  whole('BR-CO-03', ['BT-7', 'BT-8'], (inv) => !(present(inv.taxPointDate) && (inv.periods.some((p) => present(p.descriptionCode)) || inv.dueDateTypeCodes.length > 0))),
  forEach('BR-CO-04', ['BT-151'], (inv) => inv.lines, (l) => l.taxCategories.some((c) => isVat(c) && present(c.code)), (l) => l.id?.text),
  forEach('BR-CO-05', ['BT-97', 'BT-98'], (inv) => inv.allowanceCharges.filter(isAllowance), () => true),
  forEach('BR-CO-06', ['BT-104', 'BT-105'], (inv) => inv.allowanceCharges.filter(isCharge), () => true),
  forEach('BR-CO-07', ['BT-139', 'BT-140'], (inv) => inv.lines.flatMap((l) => l.allowances.filter(isAllowance)), () => true),
  forEach('BR-CO-08', ['BT-144', 'BT-145'], (inv) => inv.lines.flatMap((l) => l.allowances.filter(isCharge)), () => true),
  forEach('BR-CO-09', ['BT-31', 'BT-48', 'BT-63'], (inv) => [inv.seller, inv.buyer, inv.payee, inv.taxRepresentative].flatMap((p) => p?.taxIds.filter((t) => t.scheme && code(t.scheme).toUpperCase() === 'VAT') ?? []), (t) => VAT_PREFIX_TEXT.includes((t.id?.text ?? '').slice(0, 2))),
  needing(totalsRule('BR-CO-10', ['BT-106', 'BT-131'], (t, inv) => {
    const s = sum(inv.lines.flatMap((l) => l.netAmount));
    return same(dec(first(t.lineExtension)), s === null ? null : round2(s));
  }), ['BT-106', 'BT-131', 'BG-25']),
  totalsRule('BR-CO-11', ['BT-107', 'BT-92'], (t, inv) => allowanceTotalHolds(t.allowanceTotal, inv.allowanceCharges.filter(isAllowance))),
  totalsRule('BR-CO-12', ['BT-108', 'BT-99'], (t, inv) => allowanceTotalHolds(t.chargeTotal, inv.allowanceCharges.filter(isCharge))),
  needing(totalsRule('BR-CO-13', ['BT-109', 'BT-106', 'BT-107', 'BT-108'], taxExclusiveHolds), ['BT-109', 'BT-106']),
  forEach('BR-CO-14', ['BT-110', 'BT-117'], (inv) => inv.taxTotals, (t) => {
    if (t.subtotals.length === 0) return true;
    const s = sum(t.subtotals.map((x) => x.taxAmount).filter((x): x is Term => x !== undefined));
    return same(dec(first(t.taxAmounts)), s === null ? null : round2(s));
  }),
  whole('BR-CO-15', ['BT-112', 'BT-109', 'BT-110'], (inv) =>
    inv.currencies.every((currency) => {
      const inCurrency = inv.taxTotals.flatMap((t) => t.taxAmounts.filter((a) => a.attrs.currencyID === currency.text));
      if (inCurrency.length !== 1) return false;
      const totals = inv.totals[0];
      const inclusive = dec(totals && first(totals.taxInclusive));
      const exclusive = dec(totals && first(totals.taxExclusive));
      const tax = dec(inCurrency[0]);
      return inclusive !== null && exclusive !== null && tax !== null && inclusive.eq(round2(exclusive.plus(tax)));
    }),
  ),
  needing(totalsRule('BR-CO-16', ['BT-115', 'BT-112', 'BT-113', 'BT-114'], payableHolds), ['BT-115', 'BT-112']),
  forEach('BR-CO-17', ['BT-117', 'BT-116', 'BT-119'], (inv) => inv.taxTotals.flatMap((t) => t.subtotals), (s) => {
    const vat = s.categories.find(isVat);
    return breakdownVatHolds(s.taxableAmount, s.taxAmount, vat?.rate, false);
  }),
  whole('BR-CO-18', ['BG-23'], (inv) => inv.taxTotals.some((t) => t.subtotals.length > 0)),
  forEach('BR-CO-19', ['BG-14'], (inv) => inv.periods, (p) => present(p.start) || present(p.end) || present(p.descriptionCode)),
  forEach('BR-CO-20', ['BG-26'], (inv) => inv.lines.flatMap((l) => l.periods.map((p) => ({ p, l }))), ({ p }) => present(p.start) || present(p.end), ({ l }) => l.id?.text),
  forEach('BR-CO-21', ['BT-97', 'BT-98'], (inv) => inv.allowanceCharges.filter(isAllowance), hasReason),
  forEach('BR-CO-22', ['BT-104', 'BT-105'], (inv) => inv.allowanceCharges.filter(isCharge), hasReason),
  forEach('BR-CO-23', ['BT-139', 'BT-140'], (inv) => inv.lines.flatMap((l) => l.allowances.filter(isAllowance).map((a) => ({ a, l }))), ({ a }) => hasReason(a), ({ l }) => l.id?.text),
  forEach('BR-CO-24', ['BT-144', 'BT-145'], (inv) => inv.lines.flatMap((l) => l.allowances.filter(isCharge).map((a) => ({ a, l }))), ({ a }) => hasReason(a), ({ l }) => l.id?.text),
  forEach('BR-CO-26', ['BT-29', 'BT-30', 'BT-31'], (inv) => (inv.hasSeller ? [inv.seller] : []), (p) =>
    p.taxIds.some((t) => t.scheme && code(t.scheme).toUpperCase() === 'VAT' && present(t.id)) || p.ids.some((i) => i.attrs.schemeID !== 'SEPA') || p.legalIds.length > 0 || p.globalIds.length > 0,
  ),
];
