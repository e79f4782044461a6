/**
 * The identifier checks a clerk runs by hand, one result per identifier printed: an IBAN's length for its country and
 * its ISO 7064 mod-97 check digits; a VAT identifier's country prefix (BR-CO-9: ISO 3166-1 alpha-2, Greece as EL) and
 * its national format. What makes an identifier valid is defined once, in `../identifiers.ts`.
 */
import { compactId, ibanProblem, vatIdProblem } from '../identifiers.js';
import type { RuleInvoice, RuleResult } from './ruleTypes.js';

const IBAN_RULE = { rule: 'IBAN', title: 'IBAN check digits (mod-97) and length' } as const;
const VAT_RULE = { rule: 'BR-CO-9', title: 'VAT identifier: country prefix and shape' } as const;

export function checkIban(printed: string, index: number): RuleResult {
  const fields = [`ibans.${index}`];
  const problem = ibanProblem(printed);
  return problem === null
    ? { ...IBAN_RULE, status: 'pass', message: `IBAN ${printed}: check digits valid.`, fields }
    : { ...IBAN_RULE, status: 'fail', message: `IBAN ${printed}: ${problem}.`, fields };
}

export function checkVatId(printed: string, index: number): RuleResult {
  const fields = [`vat_ids.${index}`];
  const problem = vatIdProblem(printed);
  return problem === null
    ? { ...VAT_RULE, status: 'pass', message: `VAT ID ${printed}: prefix ${compactId(printed).slice(0, 2)}, shape valid.`, fields }
    : { ...VAT_RULE, status: 'fail', message: `VAT ID ${printed}: ${problem}.`, fields };
}

export function identifierRules(invoice: RuleInvoice): RuleResult[] {
  const ibans = (invoice.ibans ?? []).map(checkIban);
  const vatIds = (invoice.vat_ids ?? []).map(checkVatId);
  return [
    ...(ibans.length ? ibans : [{ ...IBAN_RULE, status: 'not-applicable' as const, message: 'No IBAN printed.', fields: [] }]),
    ...(vatIds.length ? vatIds : [{ ...VAT_RULE, status: 'not-applicable' as const, message: 'No VAT identifier printed.', fields: [] }]),
  ];
}
