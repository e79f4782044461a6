/**
 * How memory finds a confirmed value in a segment's text (to learn where it is printed) and reads one back from a
 * segment (on the next page), per kind of field: identifiers, dates, amounts, names.
 */
import { findAmounts } from '../amounts.js';
import { findDates } from '../dates.js';
import { findRepairedDates } from '../ocrDateRepair.js';
import { labelAt } from '../labelHits.js';
import type { HintedField } from './lessonSchema.js';
import { compactId, compactText, type MemoryPage } from './pageText.js';

export type MemoryKind = 'id' | 'date' | 'money' | 'name';

export const kindOf: Record<HintedField, MemoryKind> = {
  invoice_number: 'id',
  issue_date: 'date',
  due_date: 'date',
  buyer: 'name',
  subtotal: 'money',
  tax: 'money',
  total: 'money',
};

/** Two amounts are one when they agree to the cent. */
const CENT = 0.005;
/** Shortest name memory looks for in a segment: shorter ones match anywhere. */
const MIN_NAME_LENGTH = 3;
/** An identifier's shape names one token only when it is this long and mixes letters and digits or is all digits. */
const MIN_DISTINCT_SHAPE = 8;

/** Where the value starts in the segment's text, and what the printed form says about the format; null: not there. */
export interface FoundValue {
  index: number;
  monthFirst?: boolean | null;
  decimalComma?: boolean | null;
}

/** The shape of an identifier as printed: digits as 9, letters as A ("RE-2018-0042" → "AA-9999-9999"). */
export const shapeOf = (value: string): string => value.replace(/\d/g, '9').replace(/\p{L}/gu, 'A');

export function findValue(kind: MemoryKind, value: string | number, text: string): FoundValue | null {
  if (kind === 'money') {
    const hit = findAmounts(text).find((a) => (a.hasDecimals || a.hasCurrency) && Math.abs(a.value - Number(value)) < CENT);
    if (!hit) return null;
    const decimal = /([.,])\d{1,2}\D*$/.exec(hit.text)?.[1];
    return { index: hit.index, decimalComma: decimal ? decimal === ',' : null };
  }
  if (kind === 'date') {
    const dayFirst = findDates(text, { monthFirst: false }).find((d) => d.iso === value);
    const monthFirst = findDates(text, { monthFirst: true }).find((d) => d.iso === value);
    const hit = dayFirst ?? monthFirst;
    if (!hit) {
      // The confirmed date printed with OCR's slips ("D3/06/3017"): its place is learned all the same; its order is not.
      const repaired = [false, true].map((order) => findRepairedDates(text, { monthFirst: order }).find((d) => d.iso === value)).find((d) => d);
      return repaired ? { index: repaired.index, monthFirst: null } : null;
    }
    // Only a date whose two readings differ says which order the supplier prints.
    return { index: hit.index, monthFirst: dayFirst && monthFirst ? null : Boolean(monthFirst) };
  }
  if (kind === 'id') {
    const want = compactId(String(value));
    if (!want) return null;
    const words = text.split(/\s+/);
    let offset = 0;
    for (let i = 0; i < words.length; i++) {
      let joined = '';
      for (let j = i; j < words.length && joined.length < want.length; j++) joined += compactId(words[j]!);
      if (joined.startsWith(want)) return { index: text.indexOf(words[i]!, offset) };
      offset = text.indexOf(words[i]!, offset) + words[i]!.length;
    }
    return null;
  }
  const want = compactText(String(value));
  if (want.length < MIN_NAME_LENGTH || !compactText(text).includes(want)) return null;
  return { index: 0 };
}

/** A label's mark: label text ends with a colon ("Anschrift:", "Name :"); a value does not. */
const LABEL_MARK = /\s?[:：]$/u;

/**
 * Text that is a label and not a value: it ends with a label's mark, or it is nothing but a label of the extractor's
 * vocabulary (labels.ts). Where memory's place holds such text, the page prints another layout there.
 */
export function isLabelText(text: string): boolean {
  const trimmed = text.trim();
  if (!trimmed) return false;
  if (LABEL_MARK.test(trimmed)) return true;
  const label = labelAt(trimmed);
  return label !== null && label.matched.trim().length >= trimmed.length;
}

/** Reads a value of `kind` from the text after an anchor; null where none is there. */
export function readValue(
  kind: MemoryKind,
  text: string,
  format: { monthFirst: boolean | null; shape: string | null },
): { value: string | number; text: string; repaired?: boolean } | null {
  const trimmed = text.trim();
  if (!trimmed) return null;
  if (kind === 'money') {
    const hit = findAmounts(trimmed).find((a) => a.hasDecimals || a.hasCurrency);
    return hit ? { value: hit.value, text: hit.text } : null;
  }
  if (kind === 'date') {
    const hit = findDates(trimmed, { monthFirst: format.monthFirst ?? false })[0];
    if (hit) return { value: hit.iso, text: hit.text };
    // This page's OCR printed the date with slips: read back (ocrDateRepair.ts), and marked as a repair.
    const repaired = findRepairedDates(trimmed, { monthFirst: format.monthFirst ?? false })[0];
    return repaired ? { value: repaired.iso, text: repaired.text, repaired: true } : null;
  }
  if (kind === 'id') {
    const tokens = trimmed.replace(/^[:#.\s]+/, '').split(/\s+/);
    const count = format.shape ? format.shape.split(/\s+/).length : 1;
    const value = tokens.slice(0, count).join(' ');
    return /\d/.test(value) || (format.shape !== null && !/9/.test(format.shape)) ? { value, text: value } : null;
  }
  return /\p{L}{2}/u.test(trimmed) ? { value: trimmed, text: trimmed } : null;
}

/**
 * The one token on the page printed in `shape` (an identifier's shape, "AA99999999"); null where none or several are.
 * Short or letter-only shapes name nothing (a word, a year).
 */
export function uniqueShaped(page: MemoryPage, shape: string): { text: string; y: number } | null {
  if (shape.length < MIN_DISTINCT_SHAPE || /\s/.test(shape) || !/9/.test(shape)) return null;
  let found: { text: string; y: number } | null = null;
  for (const line of page.lines) {
    for (const token of line.text.split(/\s+/)) {
      const bare = token.replace(/^[^\p{L}\d]+|[^\p{L}\d]+$/gu, '');
      if (bare.length !== shape.length || shapeOf(bare) !== shape) continue;
      if (found && found.text !== bare) return null;
      found = { text: bare, y: line.y };
    }
  }
  return found;
}
