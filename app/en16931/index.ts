/**
 * The EN 16931 rule engine: one semantic model read from UBL, CII or a page, and every business rule of the
 * official schematron (BR-*, BR-CO-*, BR-DEC-*, the VAT category families, BR-CL-*) checked over it, with the
 * schematron's flags and messages. Pure: text or fields in, a report out.
 */
import type { ValidationReport } from './model/report.js';
import { readSemanticInvoice } from './readSemanticInvoice.js';
import { validateSemanticInvoice } from './validate.js';

export type { RuleFailure, RuleFlag, ValidationReport, EInvoiceSyntax } from './model/report.js';
export type { SemanticInvoice, Term } from './model/semanticInvoice.js';
export { EInvoiceError } from '../einvoice/xmlInput.js';
export { readSemanticInvoice } from './readSemanticInvoice.js';
export { validateSemanticInvoice, type ValidateOptions } from './validate.js';
export { UBL_RULES, CII_RULES, RULE_FAMILIES } from './rules/index.js';
export { SCHEMATRON_VERSION } from './rules/schematronText.js';

/** Reads and validates an e-invoice XML; throws EInvoiceError (an Error) when the XML cannot be read. */
export function validateEInvoiceXml(xml: string): ValidationReport {
  return validateSemanticInvoice(readSemanticInvoice(xml), { source: 'xml' });
}
