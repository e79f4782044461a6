/** BR-DEC-*: at most two decimals in each amount the standard counts in cents (as written: `substring-after(x, '.')`). */
import { atMostTwoDecimals } from '../decimal.js';
import type { AllowanceCharge, DocumentTotals, Opt, SemanticInvoice, Term } from '../model/semanticInvoice.js';
import { forEach, isAllowance, isCharge, type Rule } from './rule.js';

const first = (terms: readonly Term[]): Opt => terms[0];

function onAllowanceCharges(id: string, bt: string, level: 'document' | 'line', kind: 'allowance' | 'charge', amount: (a: AllowanceCharge) => Opt): Rule {
  const matches = kind === 'allowance' ? isAllowance : isCharge;
  if (level === 'document') return forEach(id, [bt], (inv) => inv.allowanceCharges.filter(matches), (a) => atMostTwoDecimals(amount(a)));
  return forEach(id, [bt], (inv: SemanticInvoice) => inv.lines.flatMap((l) => l.allowances.filter(matches).map((a) => ({ a, l }))), ({ a }) => atMostTwoDecimals(amount(a)), ({ l }) => l.id?.text);
}

const onTotals = (id: string, bt: string, amount: (t: DocumentTotals) => Term[]): Rule => forEach(id, [bt], (inv) => inv.totals, (t) => atMostTwoDecimals(first(amount(t))));

const amountOf = (a: AllowanceCharge): Opt => first(a.amounts);
const baseOf = (a: AllowanceCharge): Opt => a.baseAmount;

export const decimalRules: Rule[] = [
  onAllowanceCharges('BR-DEC-01', 'BT-92', 'document', 'allowance', amountOf),
  onAllowanceCharges('BR-DEC-02', 'BT-93', 'document', 'allowance', baseOf),
  onAllowanceCharges('BR-DEC-05', 'BT-99', 'document', 'charge', amountOf),
  onAllowanceCharges('BR-DEC-06', 'BT-100', 'document', 'charge', baseOf),
  onTotals('BR-DEC-09', 'BT-106', (t) => t.lineExtension),
  onTotals('BR-DEC-10', 'BT-107', (t) => t.allowanceTotal),
  onTotals('BR-DEC-11', 'BT-108', (t) => t.chargeTotal),
  onTotals('BR-DEC-12', 'BT-109', (t) => t.taxExclusive),
  // BR-DEC-13 / 15: in the UBL schematron the predicate `[@currencyID = cbc:DocumentCurrencyCode]` is evaluated relative
  // to the TaxAmount element (which has no such child), so it selects nothing and the rule always holds. CII: see cii.ts.
  forEach('BR-DEC-13', ['BT-110'], () => [], () => true, undefined, 'ubl'),
  onTotals('BR-DEC-14', 'BT-112', (t) => t.taxInclusive),
  forEach('BR-DEC-15', ['BT-111'], () => [], () => true, undefined, 'ubl'),
  onTotals('BR-DEC-16', 'BT-113', (t) => t.prepaid),
  onTotals('BR-DEC-17', 'BT-114', (t) => t.rounding),
  onTotals('BR-DEC-18', 'BT-115', (t) => t.payable),
  forEach('BR-DEC-19', ['BT-116'], (inv) => inv.taxTotals.flatMap((t) => t.subtotals), (s) => atMostTwoDecimals(s.taxableAmount)),
  forEach('BR-DEC-20', ['BT-117'], (inv) => inv.taxTotals.flatMap((t) => t.subtotals), (s) => atMostTwoDecimals(s.taxAmount)),
  forEach('BR-DEC-23', ['BT-131'], (inv) => inv.lines, (l) => atMostTwoDecimals(first(l.netAmount)), (l) => l.id?.text),
  onAllowanceCharges('BR-DEC-24', 'BT-136', 'line', 'allowance', amountOf),
  onAllowanceCharges('BR-DEC-25', 'BT-137', 'line', 'allowance', baseOf),
  onAllowanceCharges('BR-DEC-27', 'BT-141', 'line', 'charge', amountOf),
  onAllowanceCharges('BR-DEC-28', 'BT-142', 'line', 'charge', baseOf),
];
