/**
 * How far the generic page reading can be trusted against memory, from its own evidence (fieldConfidence.ts).
 *
 * Memory reads a field where its lesson says the field is printed; on a page that moved the field, or one whose
 * lesson was taught from a wrong correction, it reads a neighbour. The generic reading is the independent witness.
 * Where the two disagree, the page's value leads when its evidence earns trust that was measured, not assumed:
 * - its confidence is in the high band, which calibrated page readings reach only with evidence that was right on
 *   every value across seller families, left-one-family-out (confidenceCalibration.ts);
 * - or its amounts close the EN 16931 identity BT-109 + BT-110 = BT-112 with three amounts read independently (no
 *   amount the identity itself supplied, closingTotals.ts) while memory's amounts do not close it;
 * - or it was read under a label of the field's own vocabulary, first tier ("Rechnungsnummer", "Käufer",
 *   "Bruttobetrag"): the page names the field where it prints it, and memory's place is only where an earlier page
 *   printed it. (An amount the identity supplied or chose is no such reading: its label is the identity's.)
 * - or, on a receipt, its total is memory's amount rounded to the smallest coin by the receipt's rounding line (memory
 *   learned the place of a tax summary's total, the amount before rounding), or the page's total is on the smallest
 *   coin and memory's, a coin's fraction from it, is not (the lesson's receipt needed no rounding);
 * - or memory's total is the page's own tax (a total row of several columns read at another column);
 * - or, on a receipt, its total is the till's identity: printed before the cash tendered and equal to tendered − change
 *   (receiptReading.ts), three amounts of this page agreeing — where memory's place holds the tendered amount of a
 *   receipt that was paid exactly ("Accepted total 5.00" beside "Amount 5.00" on the page it learned from).
 * Memory never replaces such a reading: the page's value is shown at memory-against-page confidence (needs attention),
 * with memory's value in its evidence.
 */
import { CLOSED_BY_IDENTITY, CLOSING_TRIPLE, INCLUDED_TAX } from '../closingTotals.js';
import type { InvoiceFields } from '../fieldValues.js';
import { labelTier, scoreInvoiceFields } from '../fieldConfidence.js';
import { labelPatterns, type LabelledField } from '../labels.js';
import { CASH_ROUNDED, CASH_STEP, TILL_IDENTITY } from '../receiptReading.js';
import { onCashStep, sameCents } from '../rules/money.js';
import { memoryFieldKeys, type MemoryField } from './lessonSchema.js';

/** The generic reading's evidence for one field: its calibrated confidence, its label and evidence tags (fieldConfidence.ts). */
export interface GenericScore {
  confidence: number;
  label?: string | null;
  evidence?: readonly string[];
}

export type GenericScores = Partial<Record<MemoryField, GenericScore | null>>;

/** The review screen's high band: page readings reach it only with calibrated evidence (100 % right across families). */
export const TRUSTED_PAGE = 0.85;
/** The evidence tag fieldConfidence.ts gives an amount the identity supplied instead of a printed one. */
const DERIVED = 'derived:';
/** The evidence tag fieldConfidence.ts gives a value read under a first-tier label. */
const SPECIFIC_LABEL = 'label:specific';
/** Labels closingTotals.ts gives amounts it supplied or chose because they close: no independent witness of it. */
const CHOSEN_BY_IDENTITY = [CLOSED_BY_IDENTITY, CLOSING_TRIPLE, INCLUDED_TAX];
/** Amounts close within a cent per operand (rounding on the printed invoice). */
const CENT = 0.01;

export type Amounts = { subtotal: unknown; tax: unknown; total: unknown };

/** BT-109 + BT-110 = BT-112 with all three amounts present. */
export function totalsClose({ subtotal, tax, total }: Amounts): boolean {
  return typeof subtotal === 'number' && typeof tax === 'number' && typeof total === 'number' && Math.abs(subtotal + tax - total) <= 2 * CENT + 1e-9;
}

/** The page read this value itself: not supplied or chosen by the identity (closingTotals.ts). */
const readFromPage = (score: GenericScore): boolean =>
  !(score.evidence ?? []).some((e) => e.startsWith(DERIVED)) && !CHOSEN_BY_IDENTITY.some((tag) => (score.label ?? '').includes(tag));

/**
 * The page's amounts close the identity, each read from the page (none supplied or chosen by the identity itself),
 * with a tax: a zero tax makes it say subtotal = total, which one amount read twice satisfies (a receipt's "Net Total"
 * is taken for the subtotal and the total alike), so it witnesses nothing.
 */
export function pageTotalsWitnessed(values: Amounts, scores: GenericScores): boolean {
  if (values.tax === 0) return false;
  const independent = (['subtotal', 'tax', 'total'] as const).every((key) => {
    const score = scores[key];
    return score ? readFromPage(score) : false;
  });
  return independent && totalsClose(values);
}

/** Read under a first-tier label of the field's own vocabulary (labels.ts), by its evidence or its stored label. */
function specificallyLabelled(field: MemoryField, score: GenericScore | null | undefined): boolean {
  if (!score || !readFromPage(score)) return false;
  if ((score.evidence ?? []).includes(SPECIFIC_LABEL)) return true;
  return field in labelPatterns && labelTier(field as LabelledField, score.label ?? null) === 0;
}

/** What the page says of itself beside its field values: a till receipt (documentType.ts), and the tax it read. */
export interface PageContext {
  receipt?: boolean;
  tax?: unknown;
}

/** Why the page's value leads against memory's for this field, or null where memory's stands. */
export function pageLeads(field: MemoryField, scores: GenericScores | undefined, pageCloses: boolean, memoryCloses: boolean, money: boolean, memoryValue?: unknown, pageValue?: unknown, context: PageContext = {}): string | null {
  if (!scores) return null;
  if ((scores[field]?.confidence ?? 0) >= TRUSTED_PAGE) return 'page:trusted';
  if (money && pageCloses && !memoryCloses) return 'arithmetic:page-totals-close';
  if (specificallyLabelled(field, scores[field])) return 'page:label-specific';
  if (field === 'total' && (scores.total?.label ?? '').includes(TILL_IDENTITY)) return 'arithmetic:cash-minus-change';
  // Memory's place holds the amount before the till's rounding (a tax summary's total) and the page rounded it.
  if (field !== 'total' || typeof memoryValue !== 'number' || typeof pageValue !== 'number') return null;
  const withinACoin = Math.abs(memoryValue - pageValue) < CASH_STEP;
  if ((scores.total?.label ?? '').includes(CASH_ROUNDED) && withinACoin) return 'arithmetic:cash-rounding';
  // The same on a receipt whose till printed the rounded total itself: the page's total is on the smallest coin and
  // memory's, a coin's fraction from it, is not — the lesson's receipt needed no rounding, so its total's label was
  // the amount before rounding ("Total RM Incl. of GST 49.39" over "Rounding Adj 0.01", "Total RM 49.40").
  if (context.receipt && withinACoin && onCashStep(pageValue) && !onCashStep(memoryValue)) return 'arithmetic:cash-rounding';
  // Memory's place holds the page's tax: a total row of several columns ("Total 9.85 0.59 10.44") read at the
  // column the lesson's layout had its total in. A total is never its own tax.
  if (typeof context.tax === 'number' && context.tax > 0 && sameCents(memoryValue, context.tax)) return 'arithmetic:memory-read-the-tax';
  return null;
}

/** The scores of a reading the extractor just made (fieldConfidence.ts over its fields). */
export function genericScores(fields: InvoiceFields, pageText: string): GenericScores {
  const scored = scoreInvoiceFields(fields, pageText);
  const scores: GenericScores = {};
  for (const key of memoryFieldKeys) {
    const score = scored[key];
    if (score) scores[key] = { ...score, label: fields[key]?.label ?? null };
  }
  return scores;
}

/** The scores of a page the engine stored (`fields.invoiceSources`): each field's confidence and label. */
export function storedScores(sources: Record<string, unknown> | null): GenericScores {
  const scores: GenericScores = {};
  for (const key of memoryFieldKeys) {
    const raw = sources?.[key];
    const source = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : null;
    if (!source || typeof source.confidence !== 'number') continue;
    scores[key] = { confidence: source.confidence, label: typeof source.label === 'string' ? source.label : null };
  }
  return scores;
}
