/**
 * How much to trust each field read from a page, from the evidence for it:
 * 1. its label — a specific label ("Rechnungsnummer", "Total TTC") says more than a generic one ("Total", "Datum"),
 *    and an unlabelled reading (a letterhead, the first date on the page) least;
 * 2. the invoice's arithmetic — total = subtotal + tax, lines sum to the subtotal, tax = subtotal × a printed rate,
 *    due date ≥ issue date: a value that closes one of these identities with other values read independently is very
 *    unlikely to be wrong; one that breaks it is suspect;
 * 3. the words themselves — OCR's own confidence where the page was scanned;
 * 4. calibration — kinds of evidence that were right on every value across seller families, measured
 *    leave-one-family-out (confidenceCalibration.ts), are shown high.
 * The result is in [0, 1]; page readings stop short of 1, which is kept for values the issuer's XML declares.
 */
import type { Word } from '../model/extraction.js';
import { labelPatterns, type LabelledField } from './labels.js';
import { invoiceFieldKeys, type InvoiceFieldKey } from './fieldShape.js';
import type { InvoiceFields } from './fieldValues.js';
import { CLOSED_BY_IDENTITY } from './closingTotals.js';
import { calibratedConfidence } from './confidenceCalibration.js';
import { READ_THROUGH_SLIPS, SLIP_REPAIRED_CEILING } from './ocrDateRepair.js';
import { DATE_IN_NUMBER } from './numberDate.js';
import { LARGEST_PRINTED, NO_TOTAL_LINE, POINT_LOST, TILL_IDENTITY } from './receiptReading.js';
import { SUMMARY_ONLY } from './receiptCorroboration.js';

/** The most a last-resort reading shows (a receipt's largest amount as its total): low, the analyst checks it. */
export const LAST_RESORT_CEILING = 0.3;

/** Base confidence by label: the label tier's index (0 = specific) → confidence; unlabelled readings get UNLABELLED. */
const LABEL_TIER_CONFIDENCE = [0.7, 0.5, 0.35];
const UNLABELLED = 0.3;
/** Added when an arithmetic identity holds with this field in it; subtracted (×2) when it is checked and fails. */
const ARITHMETIC_BONUS = 0.25;
/** The most a page reading can reach: certainty is the XML's. */
const PAGE_CEILING = 0.98;
/** Amounts agree within a cent per operand (rounding on the printed invoice). */
const CENT = 0.01;
/** Common VAT/GST rates in percent, accepted as "a printed rate" when the page prints them (tax = subtotal × rate). */
const PERCENT = /(?<![\d.,])(\d{1,2}(?:[.,]\d{1,2})?)\s?%/g;

export interface FieldScore {
  confidence: number;
  evidence: string[];
}

/** The tier of the label text a field was read under (null: no label or none recognised). */
export function labelTier(field: LabelledField, label: string | null): number | null {
  if (!label) return null;
  const tier = labelPatterns[field].findIndex((pattern) => pattern.test(label));
  return tier < 0 ? null : tier;
}

const close = (a: number, b: number, operands: number): boolean => Math.abs(a - b) <= CENT * operands + 1e-9;

function meanWordConfidence(words: readonly Word[]): number | null {
  const known = words.map((w) => w.confidence).filter((c): c is number => typeof c === 'number');
  return known.length ? known.reduce((a, b) => a + b, 0) / known.length : null;
}

/** Rates printed anywhere on the page, as fractions (19 % → 0.19). */
export function printedRates(text: string): number[] {
  return [...text.matchAll(PERCENT)].map((m) => Number(m[1]!.replace(',', '.')) / 100).filter((r) => r > 0 && r < 0.5);
}

/** `calibrated: false` gives the evidence's own confidence, before calibration (how the calibration is measured). */
export function scoreInvoiceFields(fields: InvoiceFields, pageText: string, options: { calibrated?: boolean } = {}): Record<InvoiceFieldKey, FieldScore | null> {
  const scores = {} as Record<InvoiceFieldKey, FieldScore | null>;
  for (const key of invoiceFieldKeys) {
    const field = fields[key];
    if (!field) {
      scores[key] = null;
      continue;
    }
    const tier = key === 'currency' ? null : labelTier(key as LabelledField, field.label);
    const evidence = [tier === null ? (field.label ? 'label:layout' : 'label:none') : tier === 0 ? 'label:specific' : 'label:generic'];
    let confidence = tier === null ? (field.label ? LABEL_TIER_CONFIDENCE[1]! : UNLABELLED) : (LABEL_TIER_CONFIDENCE[tier] ?? UNLABELLED);
    // A currency is read from codes and symbols printed by the amounts: strong where an ISO code is printed.
    if (key === 'currency') {
      const iso = /^[A-Z]{3}$/.test(field.text);
      confidence = iso ? 0.8 : 0.6;
      evidence[0] = iso ? 'iso-code' : 'symbol';
    }
    scores[key] = { confidence, evidence };
  }
  const adjust = (key: InvoiceFieldKey, ok: boolean, tag: string): void => {
    const score = scores[key];
    if (!score) return;
    // A value the identity itself supplied (closingTotals.ts) is no witness of that identity.
    if (tag === 'total=subtotal+tax' && fields[key]?.label?.includes(CLOSED_BY_IDENTITY)) {
      score.evidence.push('derived:total=subtotal+tax');
      return;
    }
    score.confidence += ok ? ARITHMETIC_BONUS : -2 * ARITHMETIC_BONUS;
    score.evidence.push(`arithmetic:${tag}:${ok ? 'holds' : 'fails'}`);
  };
  const { subtotal, tax, total } = fields;
  if (subtotal && tax && total) {
    const ok = close(subtotal.value + tax.value, total.value, 2);
    for (const key of ['subtotal', 'tax', 'total'] as const) adjust(key, ok, 'total=subtotal+tax');
  } else if (subtotal && total && !tax && close(subtotal.value, total.value, 1)) {
    adjust('total', true, 'total=subtotal');
  }
  const amounts = fields.lines.map((l) => l.amount);
  if (subtotal && amounts.length > 0 && amounts.every((a): a is number => a !== null)) {
    const sum = amounts.reduce((a, b) => a + b, 0);
    adjust('subtotal', close(sum, subtotal.value, amounts.length), 'lines=subtotal');
  }
  if (subtotal && tax && tax.value !== 0) {
    const rates = printedRates(pageText);
    if (rates.some((rate) => close(subtotal.value * rate, tax.value, 2))) adjust('tax', true, 'tax=subtotal×rate');
  }
  // BR-CO-14: a printed VAT breakdown whose rows add up to the VAT total vouches for it (and one that does not casts doubt).
  // Only a breakdown printed apart from the VAT total counts: the totals line "MwSt. 19 % 19,00" read as both is no
  // second witness.
  const rows = fields.tax_breakdown ?? [];
  const rowTaxes = rows.map((row) => row.amount);
  const apart = tax !== null && rows.every((row) => !row.words.some((w) => tax.words.includes(w)));
  if (tax && apart && rowTaxes.length > 0 && rowTaxes.every((a): a is number => a !== null)) {
    adjust('tax', close(rowTaxes.reduce((a, b) => a + b, 0), tax.value, rowTaxes.length), 'tax=Σbreakdown');
  }
  if (fields.issue_date && fields.due_date) {
    const ok = fields.due_date.value >= fields.issue_date.value;
    adjust('due_date', ok, 'due>=issue');
    adjust('issue_date', ok, 'due>=issue');
  }
  for (const key of invoiceFieldKeys) {
    const score = scores[key];
    const field = fields[key];
    if (!score || !field) continue;
    const ocr = meanWordConfidence(field.words);
    if (ocr !== null && ocr < 0.95) {
      score.confidence *= ocr;
      score.evidence.push('ocr:uncertain');
    }
    score.confidence = Math.round(Math.min(PAGE_CEILING, Math.max(0.05, score.confidence)) * 100) / 100;
    // Evidence that proved right on every value of its kind across seller families (confidenceCalibration.ts).
    const calibrated = options.calibrated === false ? null : calibratedConfidence(key, score.evidence);
    if (calibrated !== null && calibrated > score.confidence) {
      score.confidence = calibrated;
      score.evidence.push('calibrated');
    }
    // A value read through OCR's slips (ocrDateRepair.ts) is a repair, not a reading: the analyst checks it.
    if (field.label?.includes(READ_THROUGH_SLIPS)) {
      score.confidence = Math.min(score.confidence, SLIP_REPAIRED_CEILING);
      score.evidence.push('ocr:slips-repaired');
    }
    // A total read from bare digits, its decimal point restored (receiptReading.ts), is a repair too, unless cash −
    // change gives the same amount.
    if (field.label?.includes(POINT_LOST) && !field.label.includes(TILL_IDENTITY)) {
      score.confidence = Math.min(score.confidence, SLIP_REPAIRED_CEILING);
      score.evidence.push('ocr:slips-repaired');
    }
    // A receipt's total that no line named, its largest amount or cash − change taken (receiptReading.ts): a last
    // resort, never sure.
    if (field.label?.includes(LARGEST_PRINTED) || field.label?.includes(NO_TOTAL_LINE) || field.label?.includes(SUMMARY_ONLY)) {
      score.confidence = Math.min(score.confidence, LAST_RESORT_CEILING);
      score.evidence.push(field.label.includes(NO_TOTAL_LINE) ? 'guess:cash-minus-change' : field.label.includes(SUMMARY_ONLY) ? 'guess:tax-summary' : 'guess:largest-amount');
    }
    // A receipt's date read from a receipt number's digits (numberDate.ts): a last resort as well.
    if (field.label?.includes(DATE_IN_NUMBER)) {
      score.confidence = Math.min(score.confidence, LAST_RESORT_CEILING);
      score.evidence.push('guess:date-in-number');
    }
  }
  return scores;
}
