/**
 * The shapes the invoice rules (EN 16931 business rules and the checks a clerk runs by hand) work on. The rules are
 * pure functions of a `RuleInvoice`: the invoice's values as the analyst currently sees them (engine output with the
 * analyst's corrections applied), whichever reader produced them.
 */
import type { CoreValues, PlainLine, PlainTaxRow, SettlementValues } from '../fieldCatalogue.js';

/** Where a value sits in a `RuleInvoice`: `total`, `lines.2.amount`, `tax_breakdown.0.base`, `ibans.1`. */
export type FieldPath = string;

/** An invoice line as the rules see it; its amount is the line net amount (BT-131). */
export type RuleLine = PlainLine;

/** One VAT breakdown row as printed (BG-23): taxable amount (BT-116), rate in percent (BT-119), tax (BT-117). */
export type RuleTaxRow = PlainTaxRow;

/**
 * The catalogue's fields (fieldCatalogue.ts: the key fields always, the settlement amounts BT-106, BT-107, BT-108,
 * BT-113, BT-115 where printed) and what only the rules look at.
 */
export interface RuleInvoice extends CoreValues, Partial<SettlementValues> {
  /** A credit note's amounts may be negative; the identities hold all the same. A receipt owes no invoice-only field (documentType.ts). */
  document_type?: 'invoice' | 'credit_note' | 'receipt';
  /** Rounding amount (BT-114) where printed. */
  rounding?: number | null;
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
