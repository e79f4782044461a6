/** The shape of one EN 16931 business rule: its id, the terms it concerns, and a check over the semantic model. */
import type { SemanticInvoice, Syntax, TaxCategory, Opt, Party } from '../model/semanticInvoice.js';

/** One place where a rule does not hold; `line` is the BT-126 of the line for rules evaluated per line. */
export interface Violation {
  line?: string;
}

export interface Rule {
  id: string;
  /** Business terms and groups the rule concerns. */
  bt: string[];
  /**
   * The terms a page must give for the rule to apply to a page-read invoice (default: all of `bt`). Optional terms the
   * rule reads only when present (allowance and charge totals, paid amount, rounding) are left out.
   */
  needs?: string[];
  /** Only in this syntax's schematron (the two bindings test some things differently or not at all). */
  only?: Syntax;
  /** The violations; empty when the rule holds. */
  check(inv: SemanticInvoice): Violation[];
}

export const HOLDS: Violation[] = [];
export const FIRES: Violation[] = [{}];

/** A document-level assertion: fires once when `holds` is false. */
export function whole(id: string, bt: string[], holds: (inv: SemanticInvoice) => boolean, only?: Syntax): Rule {
  return { id, bt, only, check: (inv) => (holds(inv) ? HOLDS : FIRES) };
}

/** An assertion evaluated on each item of a collection (like a schematron rule context): one violation per failing item. */
export function forEach<T>(id: string, bt: string[], items: (inv: SemanticInvoice) => readonly T[], holds: (item: T, inv: SemanticInvoice) => boolean, lineOf?: (item: T) => string | undefined, only?: Syntax): Rule {
  return {
    id,
    bt,
    only,
    check: (inv) => {
      const out: Violation[] = [];
      for (const item of items(inv)) if (!holds(item, inv)) out.push(lineOf ? { line: lineOf(item) } : {});
      return out;
    },
  };
}

export const present = (t: Opt): boolean => t !== undefined;
/** `normalize-space(x) != ''`. */
export const filled = (t: Opt): boolean => t !== undefined && t.text.trim() !== '';
export const code = (t: Opt): string => (t ? t.text.trim().replace(/\s+/g, ' ') : '');

/** The category's scheme is VAT (`TaxScheme/normalize-space(upper-case(cbc:ID)) = 'VAT'`). */
export const isVat = (c: TaxCategory): boolean => c.scheme !== undefined && code(c.scheme).toUpperCase() === 'VAT';

export const vatIds = (p: Party | undefined) => (p ? p.taxIds.filter((t) => t.scheme !== undefined && code(t.scheme).toUpperCase() === 'VAT' && t.id !== undefined) : []);
export const anyTaxIds = (p: Party | undefined) => (p ? p.taxIds.filter((t) => t.id !== undefined) : []);

/** `ChargeIndicator = false()`: the untyped indicator cast to xs:boolean ("false"/"0"); absent or other text matches neither. */
export const isAllowance = (a: { indicator: string }): boolean => a.indicator === 'false' || a.indicator === '0';
export const isCharge = (a: { indicator: string }): boolean => a.indicator === 'true' || a.indicator === '1';

/** The rule with the terms it needs on a page narrowed to `needs`. */
export const needing = (rule: Rule, needs: string[]): Rule => ({ ...rule, needs });

/** CII tax registration schemes (UNTDID 1153): `VA` a VAT identifier (BT-31/48/63), `FC` a tax registration (BT-32). */
export const CII_VAT_SCHEME = 'VA';
export const CII_TAX_REGISTRATION_SCHEME = 'FC';
