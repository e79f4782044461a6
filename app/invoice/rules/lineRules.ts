/**
 * Line arithmetic: quantity × unit price = line amount, within two cents (unit prices are often printed rounded, so
 * 3 × 3.33 = 9.99 may be printed for a 10.00 line). Not an EN 16931 rule (its line amount also carries line-level
 * allowances), but the first thing a clerk checks. One result per line.
 */
import { withinCents, plainFormat, type RuleFormat } from './money.js';
import { isKnown, type RuleInvoice, type RuleResult } from './ruleTypes.js';

/** Rounded unit prices make q × p miss the printed amount by a cent or two; more than that is a misread or a typo. */
export const LINE_ARITHMETIC_TOLERANCE = 0.02;

export function lineArithmetic(invoice: RuleInvoice, format: RuleFormat = plainFormat): RuleResult[] {
  const rule = 'LINE-ARITHMETIC';
  const title = 'Quantity × unit price = line amount';
  if (invoice.lines.length === 0) return [{ rule, title, status: 'not-applicable', message: 'No line items.', fields: [] }];
  return invoice.lines.map((line, i) => {
    const name = `Line ${i + 1}${line.description ? ` (${line.description.length > 40 ? `${line.description.slice(0, 39)}…` : line.description})` : ''}`;
    if (!isKnown(line.quantity) || !isKnown(line.unit_price) || !isKnown(line.amount)) {
      return { rule, title, status: 'not-applicable', message: `${name}: quantity, unit price and amount are not all printed.`, fields: [] };
    }
    const product = line.quantity * line.unit_price;
    const ok = withinCents(product, line.amount, LINE_ARITHMETIC_TOLERANCE);
    return {
      rule,
      title,
      status: ok ? 'pass' : 'fail',
      message: `${name}: ${format.number(line.quantity)} × ${format.amount(line.unit_price)} = ${format.amount(product)} ${ok ? '≈' : '≠'} amount ${format.amount(line.amount)}.`,
      fields: [`lines.${i}.quantity`, `lines.${i}.unit_price`, `lines.${i}.amount`],
    };
  });
}
