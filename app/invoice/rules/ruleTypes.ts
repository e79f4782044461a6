/**
 * The shapes the invoice rules (EN 16931 business rules and the checks a clerk runs by hand) work on. The rules are
 * pure functions of a `RuleInvoice`: the invoice's values as the analyst currently sees them (engine output with the
 * analyst's corrections applied), whichever reader produced them.
 */

/** Where a value sits in a `RuleInvoice`: `total`, `lines.2.amount`, `tax_breakdown.0.base`, `ibans.1`. */
export type FieldPath = string;

export interface RuleLine {
  description: string;
  quantity: number | null;
  unit_price: number | null;
  /** Line net amount (BT-131). */
  amount: number | null;
}

/** One VAT breakdown row as printed (BG-23): taxable amount (BT-116), rate in percent (BT-119), tax (BT-117). */
export interface RuleTaxRow {
  rate: number | null;
  base: number | null;
  amount: number | null;
}

export interface RuleInvoice {
  /** A credit note's amounts may be negative; the identities hold all the same. */
  document_type?: 'invoice' | 'credit_note';
  invoice_number: string | null;
  issue_date: string | null;
  due_date: string | null;
  seller: string | null;
  buyer: string | null;
  currency: string | null;
  /** Sum of invoice line net amounts (BT-106) where printed apart from the total without VAT. */
  line_total?: number | null;
  /** Document-level allowances (BT-107) and charges (BT-108) where printed. */
  allowances?: number | null;
  charges?: number | null;
  /** Invoice total amount without VAT (BT-109). */
  subtotal: number | null;
  /** Invoice total VAT amount (BT-110). */
  tax: number | null;
  /** Invoice total amount with VAT (BT-112). */
  total: number | null;
  /** Paid amount (BT-113) and rounding amount (BT-114) where printed. */
  prepaid?: number | null;
  rounding?: number | null;
  /** Amount due for payment (BT-115). */
  amount_due?: number | null;
  lines: RuleLine[];
  tax_breakdown?: RuleTaxRow[];
  /** Bank account numbers printed on the page. */
  ibans?: string[];
  /** VAT identifiers printed on the page (seller's or buyer's). */
  vat_ids?: string[];
}

export type RuleStatus = 'pass' | 'fail' | 'not-applicable';

export interface RuleResult {
  /** The rule's name as EN 16931 spells it (BR-CO-10) or a descriptive id for checks outside the norm. */
  rule: string;
  /** What the rule demands, in a few words. */
  title: string;
  status: RuleStatus;
  /** Names the values compared ("sum of line amounts 120.00 ≠ line total 125.00"). */
  message: string;
  /** The values the rule looked at, so the UI can highlight their boxes. */
  fields: FieldPath[];
}

export const isKnown = (value: number | null | undefined): value is number => typeof value === 'number' && Number.isFinite(value);
