/** Invoice rules after EN 16931 (BR-CO-9 … 17, required fields), line arithmetic, date order and identifier checks. */
export * from './ruleTypes.js';
export { round2, sameCents, toCents, money, plainFormat, type RuleFormat } from './money.js';
export { evaluateInvoiceRules, failedRules } from './evaluateRules.js';
export { brCo10, brCo13, brCo15, brCo16 } from './totalsRules.js';
export { brCo14, brCo17 } from './taxRules.js';
export { lineArithmetic, LINE_ARITHMETIC_TOLERANCE } from './lineRules.js';
export { requiredFields, dueAfterIssue } from './requiredRules.js';
export { checkIban, checkVatId, identifierRules } from './identifierRules.js';
export { findIdentifiers, type PrintedIdentifiers } from './findIdentifiers.js';
