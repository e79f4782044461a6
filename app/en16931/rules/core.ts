/** BR-01 … BR-65: the core business rules — mandatory terms, groups that need their parts, dates in order. */
import { someDouble } from '../decimal.js';
import type { AllowanceCharge, InvoiceLine, Party, SemanticInvoice } from '../model/semanticInvoice.js';
import { code, filled, forEach, isAllowance, isCharge, isVat, present, whole, type Rule } from './rule.js';

const lineId = (l: InvoiceLine): string | undefined => l.id?.text;
const documentAllowances = (inv: SemanticInvoice): AllowanceCharge[] => inv.allowanceCharges.filter(isAllowance);
const documentCharges = (inv: SemanticInvoice): AllowanceCharge[] => inv.allowanceCharges.filter(isCharge);
const lineAllowances = (inv: SemanticInvoice) => inv.lines.flatMap((l) => l.allowances.filter(isAllowance).map((a) => ({ a, l })));
const lineCharges = (inv: SemanticInvoice) => inv.lines.flatMap((l) => l.allowances.filter(isCharge).map((a) => ({ a, l })));
const hasVatCategory = (a: AllowanceCharge): boolean => a.taxCategories.some((c) => isVat(c) && present(c.code));
const hasReason = (a: AllowanceCharge): boolean => a.reasons.length > 0 || a.reasonCodes.length > 0;
/** `(x) <= 10` after normalize-space, counted in characters. */
const NORMALIZED_CARD_DIGITS = 10;

/** Dates compared as xs:date (UBL) — "YYYY-MM-DD" strings order like dates; a malformed date never satisfies. */
function datesInOrder(start: string, end: string): boolean {
  const date = /^-?\d{4,}-\d{2}-\d{2}(Z|[+-]\d{2}:\d{2})?$/;
  if (!date.test(start) || !date.test(end)) return false;
  return end.slice(0, 10) >= start.slice(0, 10);
}

const partyNamesDiffer = (payee: Party, seller: Party): boolean =>
  !payee.tradingNames.some((p) => seller.tradingNames.some((s) => s.text === p.text)) && !payee.ids.some((p) => seller.ids.some((s) => s.text === p.text));

export const coreRules: Rule[] = [
  whole('BR-01', ['BT-24'], (inv) => filled(inv.specification)),
  whole('BR-02', ['BT-1'], (inv) => filled(inv.number)),
  whole('BR-03', ['BT-2'], (inv) => filled(inv.issueDate)),
  whole('BR-04', ['BT-3'], (inv) => filled(inv.typeCode)),
  whole('BR-05', ['BT-5'], (inv) => filled(inv.currencies[0])),
  whole('BR-06', ['BT-27'], (inv) => filled(inv.seller.name)),
  whole('BR-07', ['BT-44'], (inv) => filled(inv.buyer.name)),
  whole('BR-08', ['BG-5'], (inv) => inv.seller.hasAddress),
  forEach('BR-09', ['BT-40'], (inv) => (inv.seller.hasAddress ? [inv.seller] : []), (p) => filled(p.address?.country)),
  whole('BR-10', ['BG-8'], (inv) => inv.buyer.hasAddress),
  forEach('BR-11', ['BT-55'], (inv) => (inv.buyer.hasAddress ? [inv.buyer] : []), (p) => filled(p.address?.country)),
  forEach('BR-12', ['BT-106'], (inv) => inv.totals, (t) => t.lineExtension.length > 0),
  forEach('BR-13', ['BT-109'], (inv) => inv.totals, (t) => t.taxExclusive.length > 0),
  forEach('BR-14', ['BT-112'], (inv) => inv.totals, (t) => t.taxInclusive.length > 0),
  forEach('BR-15', ['BT-115'], (inv) => inv.totals, (t) => t.payable.length > 0),
  whole('BR-16', ['BG-25'], (inv) => inv.lines.length > 0),
  forEach('BR-17', ['BT-59', 'BG-10'], (inv) => (inv.payee ? [inv.payee] : []), (p, inv) => p.tradingNames.length > 0 && partyNamesDiffer(p, inv.seller)),
  forEach('BR-18', ['BT-62'], (inv) => (inv.taxRepresentative ? [inv.taxRepresentative] : []), (p) => filled(p.name)),
  forEach('BR-19', ['BG-12'], (inv) => (inv.taxRepresentative ? [inv.taxRepresentative] : []), (p) => p.hasAddress),
  forEach('BR-20', ['BT-69'], (inv) => (inv.taxRepresentative?.hasAddress ? [inv.taxRepresentative] : []), (p) => filled(p.address?.country)),
  forEach('BR-21', ['BT-126'], (inv) => inv.lines, (l) => filled(l.id), lineId),
  forEach('BR-22', ['BT-129'], (inv) => inv.lines, (l) => present(l.quantity), lineId),
  forEach('BR-23', ['BT-130'], (inv) => inv.lines, (l) => l.quantity !== undefined && 'unitCode' in l.quantity.attrs, lineId),
  forEach('BR-24', ['BT-131'], (inv) => inv.lines, (l) => l.netAmount.length > 0, lineId),
  forEach('BR-25', ['BT-153'], (inv) => inv.lines, (l) => filled(l.itemName), lineId),
  forEach('BR-26', ['BT-146'], (inv) => inv.lines, (l) => l.netPrice.length > 0, lineId),
  forEach('BR-27', ['BT-146'], (inv) => inv.lines, (l) => someDouble(l.netPrice, (n) => n >= 0), lineId),
  forEach('BR-28', ['BT-148'], (inv) => inv.lines, (l) => l.grossPrice.length === 0 || someDouble(l.grossPrice, (n) => n >= 0), lineId),
  forEach('BR-29', ['BT-73', 'BT-74'], (inv) => inv.periods, (p) => !p.start || !p.end || datesInOrder(p.start.text, p.end.text)),
  forEach('BR-30', ['BT-134', 'BT-135'], (inv) => inv.lines.flatMap((l) => l.periods.map((p) => ({ p, l }))), ({ p }) => !p.start || !p.end || datesInOrder(p.start.text, p.end.text), ({ l }) => lineId(l)),
  forEach('BR-31', ['BT-92'], documentAllowances, (a) => a.amounts.length > 0),
  forEach('BR-32', ['BT-95'], documentAllowances, hasVatCategory),
  forEach('BR-33', ['BT-97', 'BT-98'], documentAllowances, hasReason),
  forEach('BR-36', ['BT-99'], documentCharges, (a) => a.amounts.length > 0),
  forEach('BR-37', ['BT-102'], documentCharges, hasVatCategory),
  forEach('BR-38', ['BT-104', 'BT-105'], documentCharges, hasReason),
  forEach('BR-41', ['BT-136'], lineAllowances, ({ a }) => a.amounts.length > 0, ({ l }) => lineId(l)),
  forEach('BR-42', ['BT-139', 'BT-140'], lineAllowances, ({ a }) => hasReason(a), ({ l }) => lineId(l)),
  forEach('BR-43', ['BT-141'], lineCharges, ({ a }) => a.amounts.length > 0, ({ l }) => lineId(l)),
  forEach('BR-44', ['BT-144', 'BT-145'], lineCharges, ({ a }) => hasReason(a), ({ l }) => lineId(l)),
  forEach('BR-45', ['BT-116'], (inv) => inv.taxTotals.flatMap((t) => t.subtotals), (s) => present(s.taxableAmount)),
  forEach('BR-46', ['BT-117'], (inv) => inv.taxTotals.flatMap((t) => t.subtotals), (s) => present(s.taxAmount)),
  forEach('BR-47', ['BT-118'], (inv) => inv.taxTotals.flatMap((t) => t.subtotals), (s) => s.categories.some((c) => isVat(c) && present(c.code))),
  forEach('BR-48', ['BT-119'], (inv) => inv.taxTotals.flatMap((t) => t.subtotals), (s) => s.categories.some((c) => isVat(c) && (present(c.rate) || code(c.code) === 'O'))),
  forEach('BR-49', ['BT-81'], (inv) => inv.paymentMeans, (p) => present(p.code)),
  forEach('BR-50', ['BT-84'], (inv) => inv.paymentMeans.filter((p) => ['30', '58'].includes(p.code?.text ?? '')).flatMap((p) => p.accounts), (a) => filled(a.id)),
  forEach('BR-51', ['BT-87'], (inv) => inv.paymentMeans.flatMap((p) => p.cards), (c) => [...code(c)].length <= NORMALIZED_CARD_DIGITS),
  forEach('BR-52', ['BT-122'], (inv) => inv.documents.filter((d) => d.additional), (d) => filled(d.id)),
  whole('BR-53', ['BT-6', 'BT-111'], (inv) => inv.taxCurrencies.every((c) => inv.taxTotals.some((t) => t.taxAmounts.some((a) => a.attrs.currencyID === c.text)))),
  forEach('BR-54', ['BT-160', 'BT-161'], (inv) => inv.lines.flatMap((l) => l.properties.map((p) => ({ p, l }))), ({ p }) => present(p.name) && present(p.value), ({ l }) => lineId(l)),
  forEach('BR-55', ['BT-25'], (inv) => inv.precedingInvoices, (p) => present(p.id)),
  forEach('BR-56', ['BT-63'], (inv) => (inv.taxRepresentative ? [inv.taxRepresentative] : []), (p) => p.taxIds.some((t) => t.scheme !== undefined && code(t.scheme).toUpperCase() === 'VAT' && present(t.id))),
  forEach('BR-57', ['BT-80'], (inv) => inv.delivery.filter((d) => d.hasAddress), (d) => present(d.address?.country)),
  forEach('BR-61', ['BT-84'], (inv) => inv.paymentMeans, (p) => (['30', '58'].includes(code(p.code)) ? p.accounts.some((a) => present(a.id)) : true)),
  forEach('BR-62', ['BT-34'], (inv) => inv.seller.endpoints, (e) => 'schemeID' in e.attrs),
  forEach('BR-63', ['BT-49'], (inv) => inv.buyer.endpoints, (e) => 'schemeID' in e.attrs),
  forEach('BR-64', ['BT-157'], (inv) => inv.lines.flatMap((l) => l.standardIds.map((s) => ({ s, l }))), ({ s }) => 'schemeID' in s.attrs, ({ l }) => lineId(l)),
  forEach('BR-65', ['BT-158'], (inv) => inv.lines.flatMap((l) => l.classifications.map((c) => ({ c, l }))), ({ c }) => 'listID' in c.attrs, ({ l }) => lineId(l)),
];
