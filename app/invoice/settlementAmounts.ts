/**
 * The amounts of an invoice's totals block besides subtotal, tax and total (EN 16931 BG-22): the sum of the line
 * amounts (BT-106), document-level allowances (BT-107) and charges (BT-108), the amount paid before (BT-113) and the
 * amount due (BT-115). Each is read from its label (settlementLabels.ts) with the money amount beside it on the line
 * (or, for a header over a value, right under it), then the candidates are chosen by the invoice's own identities:
 *
 *   total without VAT = line total − allowances + charges        (BR-CO-13)
 *   amount due        = total − paid                             (BR-CO-16)
 *
 * Signs are the reason arithmetic decides rather than the print: a deduction is printed "-623,00" on one invoice and
 * "623,00" under "Anzahlung" on the next, and a credit note's allowance is negative. The printed magnitude is kept; its
 * sign is the one the identity accepts (by default: the sign of the amount it is deducted from). An amount paid that no
 * label names is taken from the arithmetic (total − amount due) where that amount is printed on the page.
 */
import type { Word } from '../model/extraction.js';
import { moneyAmounts } from './moneyAmounts.js';
import { printedAmount } from './inferSubtotal.js';
import { labelPatterns } from './labels.js';
import type { Segment, TextLine } from './layout.js';
import { notAllowance, settlementLabelAt, type SettlementField } from './settlementLabels.js';

/** A settlement amount as read: its value with the sign the arithmetic chose, the printed text and words, its label. */
export interface SettlementValue {
  value: number;
  text: string;
  words: Word[];
  label: string | null;
  /** Confidence in [0, 1] from the label's tier and the identities it closes. */
  confidence: number;
}

export interface SettlementAmounts {
  line_total: SettlementValue | null;
  allowances: SettlementValue | null;
  charges: SettlementValue | null;
  prepaid: SettlementValue | null;
  amount_due: SettlementValue | null;
}

export interface SettlementReading {
  amounts: SettlementAmounts;
  /** Allowances or charges were read and BR-CO-13 holds with them. */
  adjustmentsHold: boolean;
}

interface LabelledAmount {
  field: SettlementField;
  tier: number;
  line: number;
  /** Printed value, sign as printed. */
  value: number;
  text: string;
  words: Word[];
  label: string;
}

/** Base confidence by label tier; an identity that holds with the value in it adds ARITHMETIC_BONUS. */
const TIER_CONFIDENCE = [0.7, 0.5];
const ARITHMETIC_BONUS = 0.25;
const PAGE_CEILING = 0.98;
/** Confidence of an amount paid found only by the arithmetic (total − due printed somewhere on the page). */
const DERIVED_CONFIDENCE = 0.6;
/** A value under its label is at most this many label heights below it. */
const BELOW_MAX_GAP = 1.5;

const cents = (value: number): number => Math.round(value * 100);
const same = (a: number, b: number): boolean => Math.abs(cents(a) - cents(b)) <= 1;
const signOf = (value: number | null | undefined): number => (value !== null && value !== undefined && value < 0 ? -1 : 1);


function wordsFor(words: readonly Word[], text: string): Word[] {
  const picked = words.filter((w) => text.includes(w.text) || w.text.includes(text));
  return picked.length > 0 ? picked : [...words];
}

const startsWithAnyLabel = (text: string): boolean =>
  settlementLabelAt(text) !== null || Object.values(labelPatterns).some((tiers) => tiers.some((pattern) => pattern.test(text)));

/** The first money amount after a label: in the rest of its segment, the following segments of the line, or right under it. */
function valueAfter(lines: readonly TextLine[], l: number, s: number, rest: string, restWords: Word[]): { value: number; text: string; words: Word[] } | null {
  const line = lines[l]!;
  const own = moneyAmounts(rest)[0];
  if (own) return { value: own.value, text: own.text, words: wordsFor(restWords, own.text) };
  for (let next = s + 1; next < line.segments.length; next++) {
    const segment = line.segments[next]!;
    if (startsWithAnyLabel(segment.text)) break;
    const amount = moneyAmounts(segment.text)[0];
    if (amount) return { value: amount.value, text: amount.text, words: wordsFor(segment.words, amount.text) };
  }
  // A header over its value ("Balance Due" over "$127.50"): only where the label's line prints no amount at all and
  // the segment under the label is an amount and nothing else.
  if (moneyAmounts(line.text).length > 0) return null;
  const below = lines[l + 1];
  const label = line.segments[s]!;
  if (!below || below.y - (line.y + line.height) > BELOW_MAX_GAP * Math.max(1, line.height)) return null;
  const under = below.segments.find((seg: Segment) => Math.min(seg.x2, label.x2) - Math.max(seg.x1, label.x1) > 0);
  const amounts = under ? moneyAmounts(under.text) : [];
  if (!under || amounts.length !== 1 || amounts[0]!.text.length < under.text.trim().length - 2) return null;
  return { value: amounts[0]!.value, text: amounts[0]!.text, words: wordsFor(under.words, amounts[0]!.text) };
}

/** Every labelled settlement amount of the page, outside the lines in `skip` (item rows and their header). */
export function findSettlementAmounts(lines: readonly TextLine[], skip: ReadonlySet<number> = new Set()): LabelledAmount[] {
  const found: LabelledAmount[] = [];
  lines.forEach((line, l) => {
    if (skip.has(l)) return;
    line.segments.forEach((segment, s) => {
      const label = settlementLabelAt(segment.text);
      if (!label) return;
      if (label.field === 'allowances' && notAllowance.test(line.text)) return;
      const labelWords = label.matched.trim().split(/\s+/).length;
      const value = valueAfter(lines, l, s, segment.text.slice(label.matched.length), segment.words.slice(labelWords));
      if (value) found.push({ field: label.field, tier: label.tier, line: l, ...value, label: label.matched.trim().replace(/[:.]$/, '') });
    });
  });
  return found;
}

/** Hits of a field, best tier first, later lines first within a tier (totals blocks end a page; repeated sums come last). */
function ranked(found: readonly LabelledAmount[], field: SettlementField): LabelledAmount[] {
  return found.filter((f) => f.field === field).sort((a, b) => a.tier - b.tier || b.line - a.line);
}

const asValue = (hit: LabelledAmount, value: number, bonus: number): SettlementValue => ({
  value: value === 0 ? 0 : value, // no "-0,00" from a sign chosen for a zero
  text: hit.text,
  words: hit.words,
  label: hit.label,
  confidence: Math.min(PAGE_CEILING, (TIER_CONFIDENCE[hit.tier] ?? TIER_CONFIDENCE[1]!) + bonus),
});

export interface SettlementContext {
  lines: readonly TextLine[];
  /** Lines not to read (the item table's header and rows). */
  skip?: ReadonlySet<number>;
  subtotal: number | null;
  total: number | null;
  /** Σ of the line items' amounts where every item has one. */
  lineSum: number | null;
}

export function readSettlementAmounts(context: SettlementContext): SettlementReading {
  const { lines, subtotal, total, lineSum } = context;
  const found = findSettlementAmounts(lines, context.skip);
  const lineTotalHit = ranked(found, 'line_total')[0];
  const lineTotal = lineTotalHit ? asValue(lineTotalHit, lineTotalHit.value, 0) : null;

  // Allowances and charges: the signs (or leaving one out: an item-table discount already in the line sum) that make
  // BR-CO-13 hold, where line total and total without VAT are known; else the sign of the amount they change.
  const allowanceHit = ranked(found, 'allowances')[0];
  const chargeHit = ranked(found, 'charges')[0];
  const base = lineTotal?.value ?? lineSum;
  const towards = signOf(subtotal ?? base);
  // A specific label's amount is printed as what it is; only a generic one ("Discount" beside an item) may be left out.
  const options = (hit: LabelledAmount | undefined): (number | null)[] =>
    hit ? [towards * Math.abs(hit.value), -towards * Math.abs(hit.value), ...(hit.tier > 0 ? [null] : [])] : [null];
  let allowance: number | null = allowanceHit ? towards * Math.abs(allowanceHit.value) : null;
  let charge: number | null = chargeHit ? towards * Math.abs(chargeHit.value) : null;
  let adjustmentsHold = false;
  if (base !== null && subtotal !== null && (allowanceHit || chargeHit)) {
    search: for (const a of options(allowanceHit)) {
      for (const c of options(chargeHit)) {
        if (same(base - (a ?? 0) + (c ?? 0), subtotal)) {
          [allowance, charge, adjustmentsHold] = [a, c, true];
          break search;
        }
      }
    }
  }
  // Checked and not closing: a generic label's amount ("Discount" beside one item) is left out, a specific total kept.
  if (base !== null && subtotal !== null && !adjustmentsHold) {
    if (allowanceHit && allowanceHit.tier > 0) allowance = null;
    if (chargeHit && chargeHit.tier > 0) charge = null;
  }
  const bonus = adjustmentsHold ? ARITHMETIC_BONUS : 0;
  const allowances = allowanceHit && allowance !== null ? asValue(allowanceHit, allowance, bonus) : null;
  const charges = chargeHit && charge !== null ? asValue(chargeHit, charge, bonus) : null;
  if (lineTotal && adjustmentsHold) lineTotal.confidence = Math.min(PAGE_CEILING, lineTotal.confidence + ARITHMETIC_BONUS);

  // Paid before (deducted) and brought forward (added): one paid amount, due = total − paid.
  const paidHit = ranked(found, 'prepaid')[0];
  const forwardHit = ranked(found, 'brought_forward')[0];
  const totalSign = signOf(total);
  const printedPaid = (paidHit ? totalSign * Math.abs(paidHit.value) : 0) - (forwardHit ? totalSign * Math.abs(forwardHit.value) : 0);
  const paidSource = paidHit ?? forwardHit;

  // The amount due: the candidate that closes BR-CO-16 with the paid amount (either sign), best label first.
  const dueHits = ranked(found, 'amount_due');
  let due: SettlementValue | null = null;
  let paid: SettlementValue | null = paidSource ? asValue(paidSource, printedPaid, 0) : null;
  if (total !== null) {
    for (const hit of dueHits) {
      const fits = [printedPaid, -printedPaid].find((p) => same(total - p, hit.value));
      if (fits === undefined) continue;
      due = asValue(hit, hit.value, ARITHMETIC_BONUS);
      if (paidSource) paid = asValue(paidSource, fits, ARITHMETIC_BONUS);
      break;
    }
  }
  if (!due && dueHits[0]) {
    const hit = dueHits[0];
    due = asValue(hit, hit.value, 0);
    // Nothing labelled as paid: the difference, where the page prints it ("Payment  11/17/2017  623.00 €").
    if (!paidSource && total !== null && !same(total, hit.value)) {
      const difference = Math.round((total - hit.value) * 100) / 100;
      const printed = printedAmount(lines, difference) ?? printedAmount(lines, -difference);
      if (printed) {
        paid = { value: difference, text: printed.text, words: printed.words, label: null, confidence: DERIVED_CONFIDENCE };
        due = asValue(hit, hit.value, ARITHMETIC_BONUS);
      }
    }
  }
  return { amounts: { line_total: lineTotal, allowances, charges, prepaid: paid, amount_due: due }, adjustmentsHold };
}

/**
 * The total without VAT where the page's "subtotal" is the line total: "Subtotal 100.00 / Shipping 10.00 / Tax 8.00 /
 * Total 118.00" prints no total without VAT, and its subtotal comes before the charges. Where subtotal + tax misses the
 * total but subtotal − allowances + charges + tax meets it, the total without VAT is subtotal − allowances + charges
 * (and the printed subtotal is the line total); null otherwise.
 */
export function untaxedAfterAdjustments(amounts: { subtotal: number | null; tax: number | null; total: number | null; allowances: number | null; charges: number | null }): number | null {
  const { subtotal, tax, total, allowances, charges } = amounts;
  if (subtotal === null || total === null || (allowances === null && charges === null)) return null;
  const taxed = tax ?? 0;
  if (same(subtotal + taxed, total)) return null;
  const untaxed = Math.round((subtotal - (allowances ?? 0) + (charges ?? 0)) * 100) / 100;
  return same(untaxed + taxed, total) ? untaxed : null;
}
