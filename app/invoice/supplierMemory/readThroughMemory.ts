/**
 * Reading a recognised supplier's page through its memory: each hinted field is read where the lesson says it is
 * printed and in the format it showed; the seller's confirmed name is carried where the page prints it; the
 * currency the analyst confirmed stands where the page prints no other ISO code. The generic extractor's reading
 * and the EN 16931 totals identity (BT-109 + BT-110 = BT-112) cross-check every value:
 * - memory and page agree, or the totals close with memory's amounts: high;
 * - memory alone: fair; memory against the page: low, and the field needs attention;
 * - a supplier whose learned values keep being corrected scales all of it down (its track record).
 */
import type { TextLine } from '../layout.js';
import { hintedFieldKeys, type FieldHint, type MemoryField, type SupplierTrackRecord } from './lessonSchema.js';
import type { ConfirmedValues } from './learnLesson.js';
import { anchorForm, compactText, relativeY, type MemoryPage } from './pageText.js';
import type { Recognised } from './recogniseSupplier.js';
import { kindOf, readValue } from './valueKinds.js';

export const MEMORY_AGREES = 0.96;
export const MEMORY_CLOSED_BY_ARITHMETIC = 0.97;
export const MEMORY_ALONE = 0.8;
export const MEMORY_AGAINST_PAGE = 0.5;
export const CARRIED_NAME_PRINTED = 0.96;
/** Below this share of its fixed lines a page is laid out otherwise than the lesson: the page reading leads. */
export const SAME_LAYOUT = 0.5;
const CENT = 0.005;

export interface MemoryValue {
  value: string | number;
  text: string;
  confidence: number;
  evidence: string[];
  /** Where the value came from: memory's hint or carried name, or the generic page reading memory checked. */
  source: 'supplier memory' | 'page';
}

export interface MemoryReading {
  supplierId: string;
  supplierName: string;
  /** The page whose correction taught the lesson used. */
  taughtBy: string;
  recognition: string[];
  fields: Partial<Record<MemoryField, MemoryValue>>;
}

function anchorMatches(hint: FieldHint, form: string): boolean {
  return hint.relation === 'inline' ? form.startsWith(hint.anchor) && form.length > hint.anchor.length : form === hint.anchor;
}

/** The text a hint points at on this page, null where its anchor is not printed. */
function textAt(page: MemoryPage, hint: FieldHint): string | null {
  let best: { line: number; segment: number; distance: number } | null = null;
  page.lines.forEach((line, li) =>
    line.segments.forEach((_, si) => {
      if (!anchorMatches(hint, page.forms[li]![si]!)) return;
      const distance = Math.abs(relativeY(page, line) - hint.anchorY);
      if (!best || distance < best.distance) best = { line: li, segment: si, distance };
    }),
  );
  if (!best) return null;
  const { line: li, segment: si } = best as { line: number; segment: number };
  const line: TextLine = page.lines[li]!;
  const anchor = line.segments[si]!;
  if (hint.relation === 'inline') {
    // The anchor's words, then the value: drop words while what is left still begins with the anchor.
    const words = anchor.text.split(/\s+/);
    let k = 0;
    while (k < words.length && anchorForm(words.slice(0, k + 1).join(' ')).length <= hint.anchor.length && hint.anchor.startsWith(anchorForm(words.slice(0, k + 1).join(' ')))) k++;
    return words.slice(k).join(' ');
  }
  if (hint.relation === 'right') return line.segments[si + hint.step]?.text ?? null;
  const below = page.lines[li + hint.step];
  const under = below?.segments.find((s) => Math.min(s.x2, anchor.x2) - Math.max(s.x1, anchor.x1) > 0);
  return under?.text ?? null;
}

const same = (a: string | number | null, b: string | number | null): boolean => {
  if (a === null || b === null) return false;
  if (typeof a === 'number' || typeof b === 'number') return Math.abs(Number(a) - Number(b)) < CENT;
  return compactText(a) === compactText(b);
};

/** Scales confidence by how often this supplier's learned values were kept: 1 with no correction yet. */
export function reliability(record: SupplierTrackRecord): number {
  return (record.kept + 1) / (record.kept + record.corrected + 1);
}

export function readThroughMemory(page: MemoryPage, recognised: Recognised, generic: ConfirmedValues, record: SupplierTrackRecord): MemoryReading {
  const { lesson } = recognised.lesson;
  const sameLayout = recognised.layout >= SAME_LAYOUT;
  const fields: MemoryReading['fields'] = {};
  const memoryValues: Partial<Record<MemoryField, string | number>> = {};
  for (const field of hintedFieldKeys) {
    for (const hint of lesson.hints[field] ?? []) {
      const text = textAt(page, hint);
      const read = text === null ? null : readValue(kindOf[field], text, { monthFirst: lesson.format.monthFirst, shape: hint.shape });
      if (read) {
        memoryValues[field] = read.value;
        fields[field] = { value: read.value, text: read.text, confidence: MEMORY_ALONE, evidence: [`memory:${hint.relation}:${hint.anchor}`], source: 'supplier memory' };
        break;
      }
    }
  }
  const { subtotal, tax, total } = memoryValues;
  const closes = typeof subtotal === 'number' && typeof tax === 'number' && typeof total === 'number' && Math.abs(subtotal + tax - total) < 2 * CENT + 1e-9;
  for (const field of hintedFieldKeys) {
    const mine = fields[field];
    if (!mine) continue;
    const page = generic[field];
    const money = kindOf[field] === 'money';
    if (money && closes) {
      mine.confidence = MEMORY_CLOSED_BY_ARITHMETIC;
      mine.evidence.push('arithmetic:total=subtotal+tax:holds');
    } else if (same(mine.value, page)) {
      mine.confidence = MEMORY_AGREES;
      mine.evidence.push('memory:page-agrees');
    } else if (page !== null) {
      mine.evidence.push('memory:page-disagrees');
      mine.confidence = MEMORY_AGAINST_PAGE;
      // On another layout of the supplier a hint may land on a neighbour: the page reading leads there.
      if (!sameLayout) fields[field] = { value: page, text: String(page), confidence: MEMORY_AGAINST_PAGE, evidence: ['memory:page-disagrees', 'memory:other-layout'], source: 'page' };
    }
  }
  const name = lesson.identity.name;
  if (name && page.compact.includes(compactText(name))) {
    fields.seller = { value: name, text: name, confidence: CARRIED_NAME_PRINTED, evidence: ['memory:carried-name', 'memory:name-printed'], source: 'supplier memory' };
  }
  const currency = lesson.format.currency;
  if (currency) {
    const printedOther = generic.currency !== null && generic.currency !== currency;
    fields.currency = printedOther
      ? { value: generic.currency!, text: generic.currency!, confidence: MEMORY_AGAINST_PAGE, evidence: ['memory:currency-differs'], source: 'page' }
      : { value: currency, text: currency, confidence: generic.currency === currency ? MEMORY_AGREES : MEMORY_ALONE, evidence: ['memory:currency'], source: 'supplier memory' };
  }
  const factor = reliability(record);
  if (factor < 1) {
    for (const value of Object.values(fields)) {
      value.confidence = Math.round(value.confidence * factor * 100) / 100;
      value.evidence.push(`memory:track-record=${record.kept}/${record.kept + record.corrected}`);
    }
  }
  return { supplierId: recognised.supplierId, supplierName: recognised.supplierName, taughtBy: recognised.lesson.pageId, recognition: recognised.evidence, fields };
}
