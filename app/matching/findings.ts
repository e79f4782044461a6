/** A matching finding: the exception's rule id, what differs in words, and the invoice line it is about. */

export type MatchRule = 'PO-NONE' | 'PO-PRICE' | 'PO-QTY' | 'PO-EXTRA' | 'PO-CURRENCY';

export interface MatchFinding {
  rule: MatchRule;
  detail: string;
  /** The invoice line (1-based) the finding is about; null for the whole invoice. */
  line: number | null;
}
