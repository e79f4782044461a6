/** Runs the rule table over a semantic invoice and words the result as the official validator does. */
import type { RuleFailure, ValidationReport } from './model/report.js';
import type { SemanticInvoice } from './model/semanticInvoice.js';
import { rulesFor } from './rules/index.js';
import { CII_TEXT, UBL_TEXT } from './rules/schematronText.js';

export interface ValidateOptions {
  /** 'page': the invoice was built from a page's fields; rules reading terms the page lacks are not applicable. */
  source?: 'xml' | 'page';
  /**
   * The terms the document's profile carries (Factur-X MINIMUM, BASIC WL: profiles.ts); a rule reading a term outside
   * them is not applicable, as for a page.
   */
  carries?: (term: string) => boolean;
}

export function validateSemanticInvoice(inv: SemanticInvoice, options: ValidateOptions = {}): ValidationReport {
  const failed: RuleFailure[] = [];
  const notApplicable: string[] = [];
  const available = options.source === 'page' ? (inv.pageTerms ?? new Set<string>()) : null;
  for (const rule of rulesFor(inv.syntax)) {
    const needs = rule.needs ?? rule.bt;
    if ((available && !needs.every((bt) => available.has(bt))) || (options.carries && !needs.every(options.carries))) {
      notApplicable.push(rule.id);
      continue;
    }
    const violations = rule.check(inv);
    if (violations.length === 0) continue;
    const text = (inv.syntax === 'cii' ? CII_TEXT[rule.id] : undefined) ?? UBL_TEXT[rule.id];
    const flag = text?.flag ?? 'fatal';
    const message = text?.message ?? rule.id;
    const seen = new Set<string>();
    for (const v of violations) {
      const key = v.line ?? '';
      if (seen.has(key)) continue;
      seen.add(key);
      failed.push({ id: rule.id, flag, message, bt: rule.bt, ...(v.line !== undefined ? { line: v.line } : {}) });
    }
  }
  failed.sort((a, b) => (a.flag === b.flag ? 0 : a.flag === 'fatal' ? -1 : 1));
  return {
    syntax: inv.syntax === 'cii' ? 'CII' : inv.creditNote ? 'UBL-CreditNote' : 'UBL-Invoice',
    profile: inv.specification?.text || null,
    ruleSets: ['en16931'],
    valid: !failed.some((f) => f.flag === 'fatal'),
    failed,
    notApplicable,
  };
}
