/**
 * Every invoice rule over one invoice, in the order an analyst reads them: required fields, line arithmetic, totals,
 * VAT breakdown, dates, identifiers. Pure and fast (no parsing): run on every field edit.
 */
import { identifierRules } from './identifierRules.js';
import { lineArithmetic } from './lineRules.js';
import { dueAfterIssue, requiredFields } from './requiredRules.js';
import type { RuleInvoice, RuleResult } from './ruleTypes.js';
import { brCo14, brCo17 } from './taxRules.js';
import { brCo10, brCo13, brCo15, brCo16 } from './totalsRules.js';

export function evaluateInvoiceRules(invoice: RuleInvoice): RuleResult[] {
  return [
    ...requiredFields(invoice),
    ...lineArithmetic(invoice),
    brCo10(invoice),
    brCo13(invoice),
    brCo15(invoice),
    brCo16(invoice),
    brCo14(invoice),
    ...brCo17(invoice),
    dueAfterIssue(invoice),
    ...identifierRules(invoice),
  ];
}

export const failedRules = (results: readonly RuleResult[]): RuleResult[] => results.filter((result) => result.status === 'fail');
