/**
 * The EN 16931 rule engine: one semantic model read from UBL, CII or a page, and every business rule of the
 * official schematron (BR-*, BR-CO-*, BR-DEC-*, the VAT category families, BR-CL-*) checked over it, with the
 * schematron's flags and messages. Pure: text or fields in, a report out.
 */
import type { ValidationReport } from './model/report.js';
import { readEInvoiceXml, type XmlSource } from './readSemanticInvoice.js';
import { checkSyntaxRules, elementTree } from './syntax/syntaxRules.js';
import { validateSemanticInvoice } from './validate.js';

export type { RuleFailure, RuleFlag, ValidationReport, EInvoiceSyntax } from './model/report.js';
export type { SemanticInvoice, Term } from './model/semanticInvoice.js';
export { EInvoiceError } from '../einvoice/xmlInput.js';
export { readSemanticInvoice } from './readSemanticInvoice.js';
export { validateSemanticInvoice, type ValidateOptions } from './validate.js';
export { UBL_RULES, CII_RULES, RULE_FAMILIES } from './rules/index.js';
export { SCHEMATRON_VERSION } from './rules/schematronText.js';
export { UNSUPPORTED_SYNTAX_RULES, SYNTAX_RULE_COUNTS } from './syntax/syntaxRules.js';

/**
 * Reads and validates an e-invoice XML — the business rules on its semantic model, the syntax binding rules
 * (UBL-CR/SR/DT, CII-SR/DT) on its element tree; throws EInvoiceError (an Error) when the XML cannot be read.
 */
export function validateEInvoiceXml(xml: XmlSource): ValidationReport {
  const { invoice, rootName, root } = readEInvoiceXml(xml);
  const report = validateSemanticInvoice(invoice, { source: 'xml' });
  const syntaxFailures = checkSyntaxRules(invoice.syntax, elementTree(rootName, root));
  if (syntaxFailures.length === 0) return report;
  const failed = [...report.failed, ...syntaxFailures].sort((a, b) => (a.flag === b.flag ? 0 : a.flag === 'fatal' ? -1 : 1));
  return { ...report, failed, valid: !failed.some((f) => f.flag === 'fatal') };
}
