/**
 * Every invoice rule over one invoice, in the order an analyst reads them: required fields, line arithmetic, totals,
 * VAT breakdown, dates, identifiers. Pure and fast (no parsing): run on every field edit.
 */
import { identifierRules } from './identifierRules.js';
import { lineArithmetic } from './lineRules.js';
import { dueAfterIssue, requiredFields } from './requiredRules.js';
import { plainFormat, type RuleFormat } from './money.js';
import type { RuleInvoice, RuleResult } from './ruleTypes.js';
import { brCo14, brCo17 } from './taxRules.js';
import { brCo10, brCo13, brCo15, brCo16 } from './totalsRules.js';

/** `format`: how messages print amounts and numbers (the document's own format in the review; dot decimals by default). */
export function evaluateInvoiceRules(invoice: RuleInvoice, format: RuleFormat = plainFormat): RuleResult[] {
  return [
    ...requiredFields(invoice, format),
    ...lineArithmetic(invoice, format),
    brCo10(invoice, format),
    brCo13(invoice, format),
    brCo15(invoice, format),
    brCo16(invoice, format),
    brCo14(invoice, format),
    ...brCo17(invoice, format),
    dueAfterIssue(invoice),
    ...identifierRules(invoice),
  ];
}

export const failedRules = (results: readonly RuleResult[]): RuleResult[] => results.filter((result) => result.status === 'fail');
