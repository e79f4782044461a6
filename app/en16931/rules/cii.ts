/**
 * The CII schematron's forms of the rules where its test differs in substance from the UBL one: other contexts (a rule
 * evaluated on the document rather than on the group, so it also fires when the group is absent), `normalize-space`
 * instead of presence, untyped values compared as xs:double, inclusive bounds, different identifier schemes.
 * Rules not listed here are evaluated as in UBL. The VAT category families of CII are in ./ciiVatCategories.ts.
 */
import Big from 'big.js';
import { dec, round2, same, xround, xsDouble } from '../decimal.js';
import { vatPrefixCii, countryCii, icd, objectIdScheme } from '../codeLists/lists.js';
import type { DocumentTotals, Party, SemanticInvoice, Term } from '../model/semanticInvoice.js';
import { breakdownVatHolds } from './totals.js';
import { ciiVatCategoryRules } from './ciiVatCategories.js';
import { CII_VAT_SCHEME, code, filled, forEach, isAllowance, isCharge, isVat, present, whole, type Rule } from './rule.js';

const first = (terms: readonly Term[]): Term | undefined => terms[0];
const hasVatId = (p: Party | undefined): boolean => (p?.taxIds ?? []).some((t) => t.scheme?.text === CII_VAT_SCHEME && present(t.id));
const VAT_PREFIX_TEXT = ` ${[...vatPrefixCii].join(' ')} `;

/** XPath `sum()` over untyped values: xs:double. Null when one is not a number (the XSLT would stop with an error). */
function doubleSum(terms: readonly (Term | undefined)[]): number | null {
  let total = 0;
  for (const t of terms) {
    if (!t) continue;
    const n = xsDouble(t.text);
    if (n === null) return null;
    total += n;
  }
  return total;
}

/** xs:decimal of a double (its shortest decimal form), for `xs:decimal(sum(...))`. */
function decimalOfDouble(n: number): Big | null {
  if (!Number.isFinite(n)) return null;
  return Big(n);
}

/** `round(x * 10 * 10) div 100` in xs:double. */
const doubleRound2 = (x: number): number => Math.floor(x * 100 + 0.5) / 100;

function ciiDatesInOrder(start: Term | undefined, end: Term | undefined): boolean {
  if (!start || !end) return true;
  const s = start.attrs.format === '102' ? start.text : null;
  const e = end.attrs.format === '102' ? end.text : null;
  return s !== null && e !== null && e >= s;
}

function allowanceTotalHolds(total: Term[], amounts: (Term | undefined)[], anyAllowances: boolean): boolean {
  if (!anyAllowances && total.length === 0) return true;
  const s = doubleSum(amounts);
  const t = total[0] ? xsDouble(total[0].text) : null;
  return s !== null && t !== null && total.some((x) => xsDouble(x.text) === doubleRound2(s));
}

function taxBasisHolds(t: DocumentTotals): boolean {
  const basis = dec(first(t.taxExclusive));
  const lines = dec(first(t.lineExtension));
  const allowances = dec(first(t.allowanceTotal));
  const charges = dec(first(t.chargeTotal));
  if (basis === null || lines === null) return false;
  const noCharges = t.chargeTotal.length === 0;
  const noAllowances = t.allowanceTotal.length === 0;
  return (allowances !== null && charges !== null && basis.eq(round2(lines.minus(allowances).plus(charges))))
    || (allowances !== null && noCharges && basis.eq(round2(lines.minus(allowances))))
    || (charges !== null && noAllowances && basis.eq(round2(lines.plus(charges))))
    || (noCharges && noAllowances && basis.eq(round2(lines)));
}

function payableHolds(t: DocumentTotals): boolean {
  const due = dec(first(t.payable));
  const grand = dec(first(t.taxInclusive));
  const prepaid = dec(first(t.prepaid));
  const rounding = dec(first(t.rounding));
  if (due === null || grand === null) return false;
  const noPrepaid = t.prepaid.length === 0;
  const noRounding = t.rounding.length === 0;
  return (prepaid !== null && rounding !== null && due.eq(grand.minus(prepaid).plus(rounding)))
    || (rounding !== null && noPrepaid && due.eq(grand.plus(rounding)))
    || (prepaid !== null && noRounding && due.eq(grand.minus(prepaid)))
    || (noPrepaid && noRounding && due.eq(grand));
}

const breakdowns = (inv: SemanticInvoice) => inv.taxTotals.flatMap((t) => t.subtotals);

const rules: Rule[] = [
  whole('BR-09', ['BT-40'], (inv) => filled(inv.seller.address?.country)),
  whole('BR-11', ['BT-55'], (inv) => filled(inv.buyer.address?.country)),
  forEach('BR-17', ['BT-59', 'BG-10'], (inv) => (inv.payee ? [inv.payee] : []), (p, inv) =>
    present(p.name)
    && !(p.name && inv.seller.name && p.name.text === inv.seller.name.text)
    && !p.ids.some((i) => inv.seller.ids.some((s) => s.text === i.text))
    && !p.legalIds.some((i) => inv.seller.legalIds.some((s) => s.text === i.text)),
  ),
  forEach('BR-20', ['BT-69'], (inv) => (inv.taxRepresentative ? [inv.taxRepresentative] : []), (p) => filled(p.address?.country)),
  forEach('BR-29', ['BT-73', 'BT-74'], (inv) => inv.periods, (p) => ciiDatesInOrder(p.start, p.end)),
  forEach('BR-30', ['BT-134', 'BT-135'], (inv) => inv.lines.flatMap((l) => l.periods.map((p) => ({ p, l }))), ({ p }) => ciiDatesInOrder(p.start, p.end), ({ l }) => l.id?.text),
  forEach('BR-50', ['BT-84'], (inv) => inv.paymentMeans.filter((p) => ['30', '58'].includes(p.code?.text ?? '')).flatMap((p) => p.accounts), (a) => filled(a.iban) || filled(a.proprietary)),
  forEach('BR-61', ['BT-84'], (inv) => inv.paymentMeans.filter((p) => ['30', '58'].includes(p.code?.text ?? '')).flatMap((p) => p.accounts), (a) => present(a.iban) || present(a.proprietary)),
  forEach('BR-53', ['BT-6', 'BT-111'], (inv) => inv.totals, (t, inv) => {
    const taxCurrency = inv.taxCurrencies;
    if (taxCurrency.length === 0) return true;
    return t.taxTotal.some((a) => taxCurrency.some((c) => a.attrs.currencyID === c.text)) && !taxCurrency.some((c) => inv.currencies.some((d) => d.text === c.text));
  }),
  forEach('BR-55', ['BT-25'], (inv) => inv.precedingInvoices, (p) => filled(p.id)),
  forEach('BR-56', ['BT-63'], (inv) => (inv.taxRepresentative ? [inv.taxRepresentative] : []), (p) => p.taxIds.some((t) => t.scheme?.text === CII_VAT_SCHEME && filled(t.id))),
  forEach('BR-57', ['BT-80'], (inv) => inv.delivery.filter((d) => d.hasAddress), (d) => filled(d.address?.country)),
  whole('BR-62', ['BT-34'], (inv) => inv.seller.endpoints.length === 0 || filled({ text: inv.seller.endpoints[0]!.attrs.schemeID ?? '', attrs: {} })),
  whole('BR-63', ['BT-49'], (inv) => inv.buyer.endpoints.length === 0 || filled({ text: inv.buyer.endpoints[0]!.attrs.schemeID ?? '', attrs: {} })),
  forEach('BR-64', ['BT-157'], (inv) => inv.lines, (l) => l.standardIds.length === 0 || (l.standardIds[0]!.attrs.schemeID ?? '').trim() !== '', (l) => l.id?.text),
  forEach('BR-65', ['BT-158'], (inv) => inv.lines.flatMap((l) => l.classifications.map((c) => ({ c, l }))), ({ c }) => (c.attrs.listID ?? '').trim() !== '', ({ l }) => l.id?.text),

  forEach('BR-CO-03', ['BT-7', 'BT-8'], breakdowns, (_, inv) => !(present(inv.taxPointDate) && inv.dueDateTypeCodes.length > 0)),
  forEach('BR-CO-09', ['BT-31', 'BT-48', 'BT-63'], (inv) => [inv.seller, inv.buyer, inv.payee, inv.taxRepresentative].flatMap((p) => p?.taxIds.filter((t) => t.scheme?.text === CII_VAT_SCHEME && t.id) ?? []), (t) =>
    VAT_PREFIX_TEXT.includes(` ${(t.id?.text ?? '').slice(0, 2)} `),
  ),
  forEach('BR-CO-10', ['BT-106', 'BT-131'], (inv) => inv.totals, (t, inv) => {
    const s = doubleSum(inv.lines.flatMap((l) => l.netAmount));
    const d = s === null ? null : decimalOfDouble(s);
    return same(dec(first(t.lineExtension)), d === null ? null : xround(d.times(100)).times('0.01'));
  }),
  forEach('BR-CO-11', ['BT-107', 'BT-92'], (inv) => inv.totals, (t, inv) => {
    const acs = inv.allowanceCharges.filter(isAllowance);
    return allowanceTotalHolds(t.allowanceTotal, acs.map((a) => first(a.amounts)), acs.length > 0);
  }),
  forEach('BR-CO-12', ['BT-108', 'BT-99'], (inv) => inv.totals, (t, inv) => {
    const acs = inv.allowanceCharges.filter(isCharge);
    return allowanceTotalHolds(t.chargeTotal, acs.map((a) => first(a.amounts)), acs.length > 0);
  }),
  forEach('BR-CO-13', ['BT-109', 'BT-106', 'BT-107', 'BT-108'], (inv) => inv.totals, taxBasisHolds),
  forEach('BR-CO-14', ['BT-110', 'BT-117'], (inv) => inv.totals.flatMap((t) => t.taxTotal.filter((a) => inv.currencies.some((c) => c.text === a.attrs.currencyID))), (a, inv) => {
    const s = doubleSum(breakdowns(inv).map((b) => b.taxAmount));
    const v = xsDouble(a.text);
    return s !== null && v !== null && v === doubleRound2(s);
  }),
  whole('BR-CO-15', ['BT-112', 'BT-109', 'BT-110'], (inv) => {
    // Absolute paths in the CII test: the first grand total and basis of all summations, the tax totals of all.
    const grand = dec(first(inv.totals.flatMap((t) => t.taxInclusive)));
    const basis = dec(first(inv.totals.flatMap((t) => t.taxExclusive)));
    return inv.currencies.every((currency) => {
      const inCurrency = inv.totals.flatMap((t) => t.taxTotal).filter((a) => a.attrs.currencyID === currency.text);
      const tax = dec(inCurrency[0]);
      const sumHolds = inCurrency.length === 1 && grand !== null && basis !== null && tax !== null && grand.eq(xround(basis.plus(tax).times(100)).times('0.01'));
      return sumHolds || same(grand, basis);
    });
  }),
  forEach('BR-CO-16', ['BT-115', 'BT-112', 'BT-113', 'BT-114'], (inv) => inv.totals, payableHolds),
  forEach('BR-CO-17', ['BT-117', 'BT-116', 'BT-119'], breakdowns, (s) => {
    const category = s.categories[0];
    const rate = category && isVat(category) ? category.rate : undefined;
    return breakdownVatHolds(s.taxableAmount, s.taxAmount, rate, true);
  }),
  forEach('BR-CO-18', ['BG-23'], (inv) => inv.lines, (_, inv) => breakdowns(inv).length > 0, (l) => l.id?.text),
  forEach('BR-CO-19', ['BG-14'], (inv) => inv.periods, (p) => present(p.start) || present(p.end)),
  forEach('BR-CO-26', ['BT-29', 'BT-30', 'BT-31'], (inv) => (inv.hasSeller ? [inv.seller] : []), (p) => p.ids.length > 0 || p.globalIds.length > 0 || p.legalIds.length > 0 || hasVatId(p)),

  forEach('BR-DEC-13', ['BT-110'], (inv) => inv.totals.filter((t) => t.taxTotal.length > 0), (t, inv) =>
    t.taxTotal.some((a) => {
      const inCurrency = inv.currencies.some((c) => c.text === a.attrs.currencyID);
      const v = xsDouble(a.text);
      return !inCurrency || (v !== null && v === Math.floor(v * 100 + 0.5) / 100);
    }),
  ),
  forEach('BR-DEC-15', ['BT-111'], (inv) => inv.totals.filter((t) => t.taxTotal.length > 0), (t, inv) =>
    inv.taxCurrencies.length === 0 || t.taxTotal.some((a) => {
      const v = xsDouble(a.text);
      return inv.taxCurrencies.some((c) => c.text === a.attrs.currencyID) && v !== null && v === Math.floor(v * 100 + 0.5) / 100;
    }),
  ),

  forEach('BR-CL-07', ['BT-18-1'], (inv) => inv.referenceTypeCodes, (t) => !/\s/.test(code(t)) && objectIdScheme.has(code(t))),
  forEach('BR-CL-10', ['BT-29', 'BT-46', 'BT-60'], (inv) => [inv.seller, inv.buyer, inv.payee, inv.taxRepresentative].flatMap((p) => p?.globalIds.filter((g) => 'schemeID' in g.attrs) ?? []), (t) => icd.has((t.attrs.schemeID ?? '').trim())),
  forEach('BR-CL-11', ['BT-30', 'BT-47', 'BT-61'], (inv) => [inv.seller, inv.buyer, inv.payee, inv.taxRepresentative].flatMap((p) => [...(p?.ids ?? []), ...(p?.legalIds ?? [])].filter((g) => 'schemeID' in g.attrs)), (t) => icd.has((t.attrs.schemeID ?? '').trim())),
  forEach('BR-CL-14', ['BT-40', 'BT-55', 'BT-69', 'BT-80'], (inv) => inv.countryCodes, (t) => !/\s/.test(code(t)) && countryCii.has(code(t))),
  forEach('BR-CL-17', ['BT-95', 'BT-102'], (inv) => [...inv.allowanceCharges, ...inv.lines.flatMap((l) => l.allowances)].flatMap((a) => a.taxCategories.map((c) => c.code)).filter(present), (t) => /^(AE|L|M|E|S|Z|G|O|K|B)$/.test(code(t))),
  forEach('BR-CL-18', ['BT-118', 'BT-151'], (inv) => [...breakdowns(inv).flatMap((b) => b.categories), ...inv.lines.flatMap((l) => l.taxCategories)].map((c) => c.code).filter(present), (t) => /^(AE|L|M|E|S|Z|G|O|K|B)$/.test(code(t))),
  ...ciiVatCategoryRules,
];

export const ciiOverrides = new Map<string, Rule>(rules.map((r) => [r.id, r]));
