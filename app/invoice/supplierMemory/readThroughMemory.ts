/**
 * Reading a recognised supplier's page through its memory: each hinted field is read where the lesson says it is
 * printed and in the format it showed; the seller's confirmed name is carried where the page prints it; the
 * currency the analyst confirmed stands where the page prints no other ISO code. The generic extractor's reading
 * and the EN 16931 totals identity (BT-109 + BT-110 = BT-112) cross-check every value:
 * - memory and page agree, or the totals close with memory's amounts: high;
 * - memory alone: fair; memory against the page: low, and the field needs attention;
 * - memory's place does not hold on this page (it prints a label there, not a value: another layout of the
 *   supplier): memory reads nothing there and defers to the page;
 * - memory against a page reading whose own evidence earns trust (pageTrust.ts: calibrated high, a first-tier label
 *   of the field's vocabulary, or amounts that close the identity where memory's do not): the page's value leads,
 *   low, and the field needs attention;
 * - a supplier whose learned values keep being corrected scales all of it down (its track record);
 * - a date read back through OCR's slips (ocrDateRepair.ts) stays low whatever agrees with it: a repair, not a reading.
 */
import { textAt } from './hintPlaces.js';
import { hintedFieldKeys, type FieldHint, type MemoryField, type SupplierTrackRecord } from './lessonSchema.js';
import type { ConfirmedValues } from './learnLesson.js';
import { compactText, type MemoryPage } from './pageText.js';
import { printedWithinNoise } from './textForms.js';
import { pageLeads, pageTotalsWitnessed, type GenericScores } from './pageTrust.js';
import type { Recognised } from './recogniseSupplier.js';
import { isLabelText, kindOf, readValue, uniqueShaped } from './valueKinds.js';
import { SLIP_REPAIRED_CEILING } from '../ocrDateRepair.js';
import { CASH_STEP } from '../receiptReading.js';

export const MEMORY_AGREES = 0.96;
export const MEMORY_CLOSED_BY_ARITHMETIC = 0.97;
export const MEMORY_ALONE = 0.8;
export const MEMORY_AGAINST_PAGE = 0.5;
export const CARRIED_NAME_PRINTED = 0.96;
/** The confirmed name where the page prints it within OCR noise. */
export const CARRIED_NAME_NEAR = 0.85;
/** Below this share of its fixed lines a page is laid out otherwise than the lesson: the page reading leads. */
export const SAME_LAYOUT = 0.5;
/** An anchor this close to its learned height (share of the page) is in its place: the layout around it held. */
export const SAME_PLACE = 0.05;
const CENT = 0.005;
/** Evidence of a value memory read back through OCR's slips (ocrDateRepair.ts). */
const SLIPS_REPAIRED = 'ocr:slips-repaired';

export interface MemoryValue {
  value: string | number;
  text: string;
  confidence: number;
  evidence: string[];
  /** Where the value came from: memory's hint or carried name, or the generic page reading memory checked. */
  source: 'supplier memory' | 'page';
  /** The height (page coordinates) of the line memory read it on; absent for a carried value. */
  y?: number;
}

export interface MemoryReading {
  supplierId: string;
  supplierName: string;
  /** The page whose correction taught the lesson used. */
  taughtBy: string;
  recognition: string[];
  fields: Partial<Record<MemoryField, MemoryValue>>;
}

const same = (a: string | number | null, b: string | number | null): boolean => {
  if (a === null || b === null) return false;
  if (typeof a === 'number' || typeof b === 'number') return Math.abs(Number(a) - Number(b)) < CENT;
  return compactText(a) === compactText(b);
};

/**
 * The page's reading of the seller is a part of the confirmed name (compacted), at least a word's worth of it:
 * OCR kept some of the name's words.
 */
const namePart = (name: string, read: string | null): boolean => {
  const [whole, part] = [compactText(name), compactText(read ?? '')];
  return part.length >= NAME_PART_MIN && part.length < whole.length && whole.includes(part);
};
/** The fewest letters and digits of a name a page's reading must keep to be a part of it (namePart). */
const NAME_PART_MIN = 4;

/** One name contains the other (compacted): the page's reading of the seller names this supplier its own way. */
const namesOverlap = (a: string, b: string | null): boolean => {
  const [x, y] = [compactText(a), compactText(b ?? '')];
  return y.length > 0 && (x.includes(y) || y.includes(x));
};

/** Scales confidence by how often this supplier's learned values were kept: 1 with no correction yet. */
export function reliability(record: SupplierTrackRecord): number {
  return (record.kept + 1) / (record.kept + record.corrected + 1);
}

/**
 * `scores`: the generic reading's evidence per field (pageTrust.ts); without it memory's value stands against the page.
 * `receipt`: the page is a till receipt (its total is on the smallest coin where the till rounds).
 */
export function readThroughMemory(page: MemoryPage, recognised: Recognised, generic: ConfirmedValues, record: SupplierTrackRecord, scores?: GenericScores, receipt = false): MemoryReading {
  const { lesson } = recognised.lesson;
  const fields: MemoryReading['fields'] = {};
  const memoryValues: Partial<Record<MemoryField, string | number>> = {};
  /** Fields whose anchor memory found where the lesson had it: the layout around them is the supplier's. */
  const inPlace = new Set<MemoryField>();
  for (const field of hintedFieldKeys) {
    const hints = lesson.hints[field] ?? [];
    for (const hint of hints) {
      const at = textAt(page, hint);
      // A label where the lesson had a value: the page is laid out otherwise around this field, the place is lost.
      if (at !== null && at.text.split('\n').some(isLabelText)) continue;
      const read = at === null ? null : readValue(kindOf[field], at.text, { monthFirst: lesson.format.monthFirst, shape: hint.shape });
      // A receipt's total under the smallest coin is no amount paid: the place holds the rounding's 0.00 this time.
      if (receipt && field === 'total' && typeof read?.value === 'number' && Math.abs(read.value) < CASH_STEP) continue;
      if (read) {
        memoryValues[field] = read.value;
        const evidence = [`memory:${hint.relation}${at!.edits > 0 ? '~' : ''}:${hint.anchor}`, ...(read.repaired ? [SLIPS_REPAIRED] : [])];
        fields[field] = { value: read.value, text: read.text, confidence: MEMORY_ALONE, evidence, source: 'supplier memory', y: page.lines[at!.line]!.y };
        if (at!.distance <= SAME_PLACE) inPlace.add(field);
        break;
      }
    }
    // Another layout of the supplier (no anchor printed): its identifier's shape, where one token alone has it.
    const shape = fields[field] ? null : (hints.find((h) => h.shape)?.shape ?? null);
    const shaped = shape ? uniqueShaped(page, shape) : null;
    if (shaped) {
      memoryValues[field] = shaped.text;
      fields[field] = { value: shaped.text, text: shaped.text, confidence: MEMORY_ALONE, evidence: [`memory:shape:${shape}`], source: 'supplier memory', y: shaped.y };
    }
  }
  // The layout around the fields held where the page prints most of the lesson's anchors (through OCR noise), as well
  // as where it prints most of its fixed lines exactly: a scan's noise breaks the lines' hashes, not its labels.
  const hinted = hintedFieldKeys.filter((f) => (lesson.hints[f] ?? []).length > 0);
  const anchored = hinted.filter((f) => fields[f]?.evidence[0]?.startsWith('memory:') && !fields[f]!.evidence[0]!.startsWith('memory:shape')).length;
  const sameLayout = recognised.layout >= SAME_LAYOUT || (hinted.length > 0 && anchored / hinted.length >= SAME_LAYOUT);
  const { subtotal, tax, total } = memoryValues;
  const closes = typeof subtotal === 'number' && typeof tax === 'number' && typeof total === 'number' && Math.abs(subtotal + tax - total) < 2 * CENT + 1e-9;
  const pageCloses = scores !== undefined && pageTotalsWitnessed(generic, scores);
  for (const field of hintedFieldKeys) {
    const mine = fields[field];
    if (!mine) continue;
    const page = generic[field];
    const money = kindOf[field] === 'money';
    const leads = page !== null && !same(mine.value, page) ? pageLeads(field, scores, pageCloses, closes, money, mine.value, page, { receipt, tax: generic.tax }) : null;
    if (money && closes) {
      mine.confidence = MEMORY_CLOSED_BY_ARITHMETIC;
      mine.evidence.push('arithmetic:total=subtotal+tax:holds');
    } else if (same(mine.value, page)) {
      mine.confidence = MEMORY_AGREES;
      mine.evidence.push('memory:page-agrees');
    } else if (page !== null && leads) {
      // The page's own evidence outranks memory's place: its value leads; memory's disagreement asks for a look.
      fields[field] = { value: page, text: String(page), confidence: MEMORY_AGAINST_PAGE, evidence: ['memory:page-disagrees', leads, `memory:proposed=${mine.text}`], source: 'page' };
    } else if (page !== null) {
      mine.evidence.push('memory:page-disagrees');
      mine.confidence = MEMORY_AGAINST_PAGE;
      // On another layout of the supplier a hint may land on a neighbour: the page reading leads there, unless the
      // anchor stands where the lesson had it (the letter text changed, not the layout around the field).
      if (!sameLayout && !inPlace.has(field)) fields[field] = { value: page, text: String(page), confidence: MEMORY_AGAINST_PAGE, evidence: ['memory:page-disagrees', 'memory:other-layout'], source: 'page' };
    }
  }
  // A date memory read back through OCR's slips stays a repair, even where the page's own repair agrees with it.
  for (const field of hintedFieldKeys) {
    const mine = fields[field];
    if (mine?.evidence.includes(SLIPS_REPAIRED)) mine.confidence = Math.min(mine.confidence, SLIP_REPAIRED_CEILING);
  }
  const name = lesson.identity.name;
  if (name && page.compact.includes(compactText(name))) {
    fields.seller = { value: name, text: name, confidence: CARRIED_NAME_PRINTED, evidence: ['memory:carried-name', 'memory:name-printed'], source: 'supplier memory' };
  } else if (name && printedWithinNoise(compactText(name), page.compact)) {
    // A scan prints the name through OCR noise ("TKANO HANDEL" for "IKANO HANDEL"): the confirmed spelling is carried.
    fields.seller = { value: name, text: name, confidence: CARRIED_NAME_NEAR, evidence: ['memory:carried-name', 'memory:name-printed~'], source: 'supplier memory' };
  } else if (name && recognised.evidence.some((e) => e.startsWith('supplier:identifier')) && namePart(name, generic.seller)) {
    // Recognised by its own identifier, the page's reading a part of its confirmed name ("FIVE STAR" of "FIVE STAR
    // CASH & CARRY", the rest printed in a logo OCR read as noise): the name is carried whole, the part agreeing.
    fields.seller = { value: name, text: name, confidence: CARRIED_NAME_NEAR, evidence: ['memory:carried-name', 'memory:recognised-by-identifier', 'memory:name-part-printed'], source: 'supplier memory' };
  } else if (name && recognised.evidence.some((e) => e.startsWith('supplier:identifier')) && !namesOverlap(name, generic.seller)) {
    // Recognised by its own identifier (a GST or telephone number OCR kept) where OCR lost the name: the supplier is
    // known, so is its name; the page's own reading of a seller, which names someone else, is no witness against it.
    fields.seller = { value: name, text: name, confidence: generic.seller === null ? MEMORY_ALONE : MEMORY_AGAINST_PAGE, evidence: ['memory:carried-name', 'memory:recognised-by-identifier'], source: 'supplier memory' };
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
