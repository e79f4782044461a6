/** The table of every EN 16931 business rule the engine checks, per syntax. */
import type { Syntax } from '../model/semanticInvoice.js';
import { codeListRules } from './codeLists.js';
import { coreRules } from './core.js';
import { ciiOverrides } from './cii.js';
import { decimalRules } from './decimals.js';
import type { Rule } from './rule.js';
import { totalsRules } from './totals.js';
import { vatCategoryRules } from './vatCategories.js';

export const UBL_RULES: readonly Rule[] = [...coreRules, ...totalsRules, ...decimalRules, ...vatCategoryRules, ...codeListRules].filter((r) => r.only !== 'cii');

/** The CII schematron words many tests differently; where it does, ./cii.ts holds the CII form of the rule. */
export const CII_RULES: readonly Rule[] = [...coreRules, ...totalsRules, ...decimalRules, ...vatCategoryRules, ...codeListRules]
  .filter((r) => r.only !== 'ubl' || ciiOverrides.has(r.id))
  .map((r) => ciiOverrides.get(r.id) ?? r);

export function rulesFor(syntax: Syntax): readonly Rule[] {
  return syntax === 'cii' ? CII_RULES : UBL_RULES;
}

export const RULE_FAMILIES: Record<string, readonly Rule[]> = {
  core: coreRules,
  consistency: totalsRules,
  decimals: decimalRules,
  vatCategories: vatCategoryRules,
  codeLists: codeListRules,
};
