/**
 * The EN 16931 rule engine: one semantic model read from UBL, CII or a page, and every business rule of the
 * official schematron (BR-*, BR-CO-*, BR-DEC-*, the VAT category families, BR-CL-*) checked over it, with the
 * schematron's flags and messages. Pure: text or fields in, a report out.
 */
import type { RuleFailure, RuleSet, ValidationReport } from './model/report.js';
import type { SemanticInvoice } from './model/semanticInvoice.js';
import { readEInvoiceXml, type XmlSource } from './readSemanticInvoice.js';
import { checkSyntaxRules, elementTree } from './syntax/syntaxRules.js';
import { validateSemanticInvoice } from './validate.js';
import { declaredProfile } from './profiles.js';
import { checkXRechnung } from './xrechnung/xrechnungRules.js';
import { checkZugferd1 } from './zugferd1/zugferd1Rules.js';
import { schemaTarget } from './schemaLayer.js';
import { decodeXmlText } from '../einvoice/xmlInput.js';

export type { RuleFailure, RuleFlag, RuleSet, ValidationReport, EInvoiceSyntax, SchemaTarget, SchemaVerdict } from './model/report.js';
export { schemaTarget, withSchemaVerdict, SCHEMA_FINDING_ID, type SchemaFinding } from './schemaLayer.js';
export type { SemanticInvoice, Term } from './model/semanticInvoice.js';
export { EInvoiceError } from '../einvoice/xmlInput.js';
export { readSemanticInvoice } from './readSemanticInvoice.js';
export { validateSemanticInvoice, type ValidateOptions } from './validate.js';
export { UBL_RULES, CII_RULES, RULE_FAMILIES } from './rules/index.js';
export { SCHEMATRON_VERSION } from './rules/schematronText.js';
export { UNSUPPORTED_SYNTAX_RULES, SYNTAX_RULE_COUNTS } from './syntax/syntaxRules.js';
export { ZUGFERD1_RULE_IDS } from './zugferd1/zugferd1Rules.js';
export { XRECHNUNG_RULE_IDS, XRECHNUNG_VERSION } from './xrechnung/xrechnungRules.js';
export { declaredProfile, type DeclaredProfile, type ProfileFamily } from './profiles.js';

/**
 * Which rules `validateEInvoiceXml` applies: by default what the document declares; `en16931` forces EN 16931's;
 * `xrechnung` EN 16931's and XRechnung's (the implemented subset of BR-DE-*, xrechnung/xrechnungRules.ts).
 */
export type RulesChoice = 'declared' | 'en16931' | 'xrechnung';

/**
 * Reads and validates an e-invoice XML — the business rules on its semantic model, the syntax binding rules
 * (UBL-CR/SR/DT, CII-SR/DT) on its element tree; throws EInvoiceError (an Error) when the XML cannot be read.
 * By default the rules are the declared profile's (profiles.ts): a ZUGFeRD 1.0 CrossIndustryDocument predates EN 16931
 * and is judged by its own rules only (zugferd1/); Factur-X MINIMUM and BASIC WL by the EN 16931 rules on the terms
 * they carry; an XRechnung by EN 16931's and XRechnung's. `rules: 'en16931'` applies every EN 16931 business rule
 * whatever the document declares, `rules: 'xrechnung'` those and XRechnung's.
 */
export function validateEInvoiceXml(xml: XmlSource, options: { rules?: RulesChoice } = {}): ValidationReport {
  const { invoice, rootName, root } = readEInvoiceXml(xml);
  const forced = options.rules === 'en16931' || options.rules === 'xrechnung';
  const zugferd1 = rootName === 'CrossIndustryDocument';
  const declared = zugferd1 ? declaredProfile(invoice.specification?.text || 'urn:ferd:CrossIndustryDocument:invoice:1p0') : declaredProfile(invoice.specification?.text || null);
  const named = { profileName: declared.name, schemaTarget: schemaTarget(rootName, declared) };
  if (zugferd1 && !forced) return { ...zugferd1Report(invoice, checkZugferd1(root)), ...named };
  const partial = !forced && !declared.complete && declared.carries;
  const report = validateSemanticInvoice(invoice, { source: 'xml', ...(partial ? { carries: declared.carries } : {}) });
  const incomplete = partial
    ? { incomplete: `${declared.name} is not a complete invoice (no lines${declared.name.endsWith('MINIMUM') ? ', few parties and amounts' : ''}): only the EN 16931 rules on the terms it carries were applied` }
    : {};
  // ZUGFeRD 1.0's element tree is not CII D16B's: the CII syntax binding rules would test paths it does not have.
  if (zugferd1) return { ...report, ...named };
  const xrechnung = options.rules === 'xrechnung' || (options.rules !== 'en16931' && declared.family === 'xrechnung');
  const syntaxFailures = [...checkSyntaxRules(invoice.syntax, elementTree(rootName, root)), ...(xrechnung ? checkXRechnung(invoice.syntax, root, typeof xml === 'string' ? xml : decodeXmlText(xml)) : [])];
  const ruleSets: RuleSet[] = [...report.ruleSets, 'en16931-syntax', ...(xrechnung ? (['xrechnung'] as const) : [])];
  if (syntaxFailures.length === 0) return { ...report, ...named, ...incomplete, ruleSets };
  const failed = [...report.failed, ...syntaxFailures].sort((a, b) => (a.flag === b.flag ? 0 : a.flag === 'fatal' ? -1 : 1));
  return { ...report, ...named, ...incomplete, ruleSets, failed, valid: !failed.some((f) => f.flag === 'fatal') };
}

function zugferd1Report(invoice: SemanticInvoice, failed: RuleFailure[]): ValidationReport {
  return { syntax: 'CII', profile: invoice.specification?.text || null, ruleSets: ['zugferd1'], valid: !failed.some((f) => f.flag === 'fatal'), failed, notApplicable: [] };
}
