/**
 * The document totals of EN 16931 (business rules BR-CO-10, -13, -15, -16): the identities between line amounts,
 * total without VAT, VAT total, total with VAT and amount due. A rule whose values are not all on the page is
 * not applicable rather than failed: the analyst cannot be asked to fix what is not printed.
 */
import { CASH_STEP, sameCents, sumCents, toCashStep, withinCents, plainFormat, type RuleFormat } from './money.js';
import { isKnown, type FieldPath, type RuleInvoice, type RuleResult } from './ruleTypes.js';

const notApplicable = (rule: string, title: string, message: string): RuleResult => ({ rule, title, status: 'not-applicable', message, fields: [] });

const result = (rule: string, title: string, ok: boolean, message: string, fields: FieldPath[]): RuleResult => ({
  rule,
  title,
  status: ok ? 'pass' : 'fail',
  message,
  fields,
});

const hasAdjustments = (invoice: RuleInvoice): boolean => isKnown(invoice.allowances) || isKnown(invoice.charges);

/** Line arithmetic tolerance (as lineRules.ts): unit prices printed rounded to the cent. */
const LINE_TOLERANCE = 0.02;

/**
 * The line on which a wrong sum most likely sits: the one line whose own arithmetic (quantity × unit price)
 * disagrees with its amount. Any line could otherwise be the culprit, so none is named.
 */
function suspectLine(invoice: RuleInvoice): number | null {
  const disagreeing = invoice.lines.flatMap((line, i) =>
    isKnown(line.quantity) && isKnown(line.unit_price) && isKnown(line.amount) && !withinCents(line.quantity * line.unit_price, line.amount, LINE_TOLERANCE) ? [i] : [],
  );
  return disagreeing.length === 1 ? disagreeing[0]! : null;
}

/** BR-CO-10: sum of invoice line net amounts (BT-106) = Σ line net amounts (BT-131). */
export function brCo10(invoice: RuleInvoice, format: RuleFormat = plainFormat): RuleResult {
  const title = 'Sum of line net amounts = line total';
  const rule = 'BR-CO-10';
  if (invoice.lines.length === 0) return notApplicable(rule, title, 'No line items.');
  const missing = invoice.lines.findIndex((line) => !isKnown(line.amount));
  if (missing >= 0) return notApplicable(rule, title, `Line ${missing + 1} has no amount.`);
  // Without a printed line total, the total without VAT stands in for it when there are no document-level
  // allowances or charges between them (BR-CO-13 makes them equal then).
  const explicit = isKnown(invoice.line_total);
  const stated = explicit ? invoice.line_total! : !hasAdjustments(invoice) && isKnown(invoice.subtotal) ? invoice.subtotal : null;
  if (stated === null) return notApplicable(rule, title, 'No line total (or total without VAT) printed.');
  const statedField = explicit ? 'line_total' : 'subtotal';
  const statedName = explicit ? 'line total' : 'total without VAT';
  const amounts = invoice.lines.map((line) => line.amount!);
  const sum = sumCents(amounts);
  const fields = [...invoice.lines.map((_, i) => `lines.${i}.amount`), statedField];
  const terms = amounts.map(format.amount).join(' + ');
  if (sameCents(sum / 100, stated)) {
    return result(rule, title, true, `Sum of ${amounts.length} line amounts ${format.amount(sum / 100)} = ${statedName} ${format.amount(stated)}.`, fields);
  }
  // Prices that include the VAT (a till's receipt, a consumer's invoice): the items are gross, so they add up to the
  // total with VAT, while the total without VAT and the VAT close on it. The figures agree; only the convention differs.
  if (!explicit && isKnown(invoice.tax) && invoice.tax !== 0 && isKnown(invoice.total) && sameCents(sum / 100, invoice.total) && sameCents(stated + invoice.tax, invoice.total)) {
    return result(
      rule,
      title,
      true,
      `Sum of ${amounts.length} line amounts ${format.amount(sum / 100)} = total with VAT ${format.amount(invoice.total)} = ${format.amount(stated)} + VAT ${format.amount(invoice.tax)}: the prices include the VAT.`,
      [...fields, 'tax', 'total'],
    );
  }
  const suspect = suspectLine(invoice);
  const hint = suspect !== null ? ` Line ${suspect + 1} (${invoice.lines[suspect]!.description || 'no description'}): amount ${format.amount(amounts[suspect]!)} ≠ quantity × unit price ${format.amount(invoice.lines[suspect]!.quantity! * invoice.lines[suspect]!.unit_price!)}.` : '';
  return result(
    rule,
    title,
    false,
    `Sum of ${amounts.length} line amounts ${format.amount(sum / 100)} (${terms}) ≠ ${statedName} ${format.amount(stated)}, off by ${format.amount(stated - sum / 100)}.${hint}`,
    suspect !== null ? [`lines.${suspect}.amount`, ...fields.filter((f) => f !== `lines.${suspect}.amount`)] : fields,
  );
}

/** BR-CO-13: total without VAT (BT-109) = line total (BT-106) − allowances (BT-107) + charges (BT-108). */
export function brCo13(invoice: RuleInvoice, format: RuleFormat = plainFormat): RuleResult {
  const rule = 'BR-CO-13';
  const title = 'Total without VAT = line total − allowances + charges';
  if (!isKnown(invoice.subtotal)) return notApplicable(rule, title, 'No total without VAT printed.');
  // With neither a separate line total nor allowances/charges this is BR-CO-10 again: left to that rule.
  if (!isKnown(invoice.line_total) && !hasAdjustments(invoice)) return notApplicable(rule, title, 'No line total, allowances or charges printed apart from the total without VAT.');
  let lineTotal: number;
  let lineFields: FieldPath[];
  if (isKnown(invoice.line_total)) {
    lineTotal = invoice.line_total;
    lineFields = ['line_total'];
  } else {
    if (invoice.lines.length === 0 || !invoice.lines.every((line) => isKnown(line.amount))) return notApplicable(rule, title, 'No line total and not every line has an amount.');
    lineTotal = sumCents(invoice.lines.map((line) => line.amount!)) / 100;
    lineFields = invoice.lines.map((_, i) => `lines.${i}.amount`);
  }
  const allowances = invoice.allowances ?? 0;
  const charges = invoice.charges ?? 0;
  const expected = lineTotal - allowances + charges;
  const fields = [...lineFields, ...(isKnown(invoice.allowances) ? ['allowances'] : []), ...(isKnown(invoice.charges) ? ['charges'] : []), 'subtotal'];
  const ok = sameCents(expected, invoice.subtotal);
  return result(
    rule,
    title,
    ok,
    `Line total ${format.amount(lineTotal)} − allowances ${format.amount(allowances)} + charges ${format.amount(charges)} = ${format.amount(expected)} ${ok ? '=' : '≠'} total without VAT ${format.amount(invoice.subtotal)}.`,
    fields,
  );
}

/** BR-CO-15: total with VAT (BT-112) = total without VAT (BT-109) + VAT total (BT-110). */
export function brCo15(invoice: RuleInvoice, format: RuleFormat = plainFormat): RuleResult {
  const rule = 'BR-CO-15';
  const title = 'Total with VAT = total without VAT + VAT';
  const { subtotal, tax, total } = invoice;
  if (!isKnown(total)) return notApplicable(rule, title, 'No total with VAT printed.');
  if (!isKnown(subtotal) || !isKnown(tax)) return notApplicable(rule, title, `No ${!isKnown(subtotal) ? 'total without VAT' : 'VAT total'} printed.`);
  const expected = subtotal + tax;
  const ok = sameCents(expected, total);
  // A receipt's total is what was paid: in cash, net + VAT rounded to the smallest coin ("61.72" paid as 61.70).
  const cashRounded = !ok && invoice.document_type === 'receipt' && sameCents(toCashStep(expected), total);
  const statement = `Total without VAT ${format.amount(subtotal)} + VAT ${format.amount(tax)} = ${format.amount(expected)}`;
  if (cashRounded) return result(rule, title, true, `${statement}, paid ${format.amount(total)}: rounded to the smallest coin (${format.amount(CASH_STEP)}).`, ['subtotal', 'tax', 'total']);
  return result(
    rule,
    title,
    ok,
    `${statement} ${ok ? '=' : '≠'} total ${format.amount(total)}${ok ? '' : `, off by ${format.amount(total - expected)}`}.`,
    ['subtotal', 'tax', 'total'],
  );
}

/** BR-CO-16: amount due (BT-115) = total with VAT (BT-112) − paid amount (BT-113) + rounding amount (BT-114). */
export function brCo16(invoice: RuleInvoice, format: RuleFormat = plainFormat): RuleResult {
  const rule = 'BR-CO-16';
  const title = 'Amount due = total − paid + rounding';
  if (!isKnown(invoice.amount_due)) return notApplicable(rule, title, 'No amount due printed.');
  if (!isKnown(invoice.total)) return notApplicable(rule, title, 'No total with VAT printed.');
  const prepaid = invoice.prepaid ?? 0;
  const rounding = invoice.rounding ?? 0;
  const expected = invoice.total - prepaid + rounding;
  const ok = sameCents(expected, invoice.amount_due);
  const fields = ['total', ...(isKnown(invoice.prepaid) ? ['prepaid'] : []), ...(isKnown(invoice.rounding) ? ['rounding'] : []), 'amount_due'];
  return result(
    rule,
    title,
    ok,
    `Total ${format.amount(invoice.total)} − paid ${format.amount(prepaid)} + rounding ${format.amount(rounding)} = ${format.amount(expected)} ${ok ? '=' : '≠'} amount due ${format.amount(invoice.amount_due)}.`,
    fields,
  );
}
