/**
 * The VAT breakdown of EN 16931 where the page prints one (a row per rate: taxable amount, rate, tax):
 * BR-CO-14 (VAT total = Σ category tax amounts) and BR-CO-17 (category tax = taxable amount × rate, rounded to two
 * decimals). Without a printed breakdown both are not applicable.
 */
import { round2, sameCents, sumCents, withinCents, plainFormat, type RuleFormat } from './money.js';
import { isKnown, type RuleInvoice, type RuleResult } from './ruleTypes.js';

/** BR-CO-14: invoice total VAT amount (BT-110) = Σ VAT category tax amounts (BT-117). */
export function brCo14(invoice: RuleInvoice, format: RuleFormat = plainFormat): RuleResult {
  const rule = 'BR-CO-14';
  const title = 'VAT total = sum of VAT category amounts';
  const rows = invoice.tax_breakdown ?? [];
  const base = { rule, title, fields: [] as string[] };
  if (rows.length === 0) return { ...base, status: 'not-applicable', message: 'No VAT breakdown printed.' };
  if (!isKnown(invoice.tax)) return { ...base, status: 'not-applicable', message: 'No VAT total printed.' };
  const missing = rows.findIndex((row) => !isKnown(row.amount));
  if (missing >= 0) return { ...base, status: 'not-applicable', message: `VAT breakdown row ${missing + 1} has no tax amount.` };
  const amounts = rows.map((row) => row.amount!);
  const sum = sumCents(amounts) / 100;
  const ok = sameCents(sum, invoice.tax);
  return {
    rule,
    title,
    status: ok ? 'pass' : 'fail',
    message: `Sum of VAT category amounts ${format.amount(sum)} (${amounts.map(format.amount).join(' + ')}) ${ok ? '=' : '≠'} VAT total ${format.amount(invoice.tax)}.`,
    fields: [...rows.map((_, i) => `tax_breakdown.${i}.amount`), 'tax'],
  };
}

/**
 * How far a receipt's printed category tax may stand from base × rate: a till rounds each item line's tax, so their
 * sum drifts from the category's product. One cent; the official schematron allows under one currency unit, which on
 * a page would hide a misread base (at 6 %, any base within 16 units), so invoices stay exact to the cent.
 */
const PER_LINE_ROUNDING = 0.01;

/** BR-CO-17: VAT category tax amount (BT-117) = taxable amount (BT-116) × rate (BT-119) / 100, rounded to 2 decimals. One result per row. */
export function brCo17(invoice: RuleInvoice, format: RuleFormat = plainFormat): RuleResult[] {
  const rule = 'BR-CO-17';
  const title = 'VAT amount = taxable amount × rate';
  const rows = invoice.tax_breakdown ?? [];
  if (rows.length === 0) return [{ rule, title, status: 'not-applicable', message: 'No VAT breakdown printed.', fields: [] }];
  return rows.map((row, i) => {
    const where = rows.length > 1 ? `VAT row ${i + 1}: ` : '';
    if (!isKnown(row.base) || !isKnown(row.rate) || !isKnown(row.amount)) {
      return { rule, title, status: 'not-applicable', message: `${where}taxable amount, rate and tax are not all printed.`, fields: [] };
    }
    const expected = round2((row.base * row.rate) / 100);
    const ok = sameCents(expected, row.amount);
    // A till computes the tax per item line and prints their sum: a cent apart from the base × rate on a receipt.
    const perLine = !ok && invoice.document_type === 'receipt' && withinCents(expected, row.amount, PER_LINE_ROUNDING);
    return {
      rule,
      title,
      status: ok || perLine ? 'pass' : 'fail',
      message: perLine
        ? `${where}${format.amount(row.base)} × ${format.number(row.rate)} % = ${format.amount(expected)}, VAT amount ${format.amount(row.amount)}: the till's tax rounded per item line.`
        : `${where}${format.amount(row.base)} × ${format.number(row.rate)} % = ${format.amount(expected)} ${ok ? '=' : '≠'} VAT amount ${format.amount(row.amount)}.`,
      fields: [`tax_breakdown.${i}.base`, `tax_breakdown.${i}.rate`, `tax_breakdown.${i}.amount`],
    };
  });
}
