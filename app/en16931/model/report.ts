/** What validation returns: the rules that fired, in the schematron's words, and the rules a page could not feed. */
export type RuleFlag = 'fatal' | 'warning';

export interface RuleFailure {
  id: string;
  flag: RuleFlag;
  message: string;
  /** The business terms / groups the rule concerns (BT-…, BG-…). */
  bt: string[];
  /** The invoice line's BT-126 identifier, for rules evaluated per line. */
  line?: string;
}

export type EInvoiceSyntax = 'UBL-Invoice' | 'UBL-CreditNote' | 'CII';

export interface ValidationReport {
  syntax: EInvoiceSyntax;
  /** BT-24, the specification identifier (e.g. urn:cen.eu:en16931:2017). */
  profile: string | null;
  /** True when no fatal rule fired. */
  valid: boolean;
  failed: RuleFailure[];
  /** Ids of rules whose inputs the source does not carry (page-read invoices); never counted as failed. */
  notApplicable: string[];
}
