/**
 * A supplier's letterhead as OCR reads it again: the fixed lines a merchant prints first — its name, its address, its
 * registration and telephone lines. A scan's fixed lines rarely come back exactly (the fingerprint's hashes miss them:
 * "Taman Subang Perdana" read "Taman Siban Perdana"), so the lesson keeps these lines' text in anchor form (digits
 * masked: no receipt or invoice number is kept) and a page is compared with them through OCR noise (one edit per six
 * characters, textForms.ts). A letterhead line supports recognition as the layout does; it names nobody alone
 * (recogniseSupplier.ts), and one that two suppliers' lessons hold counts for neither.
 */
import type { TextLine } from '../layout.js';
import { anchorForm } from './pageText.js';
import { isBuyerHeading } from './partyIdentifiers.js';
import { compactText, editDistance, noiseAllowance } from './textForms.js';
import { MAX_TEXT } from './lessonSchema.js';

/** Where a letterhead is printed: the page's first lines. */
export const LETTERHEAD_LINES = 8;
/** A page's letterhead is looked for a few lines further down: OCR may read specks above it as lines. */
const PAGE_HEAD_LINES = LETTERHEAD_LINES + 4;
/** A line with fewer letters says too little to tell one merchant's from another's. */
const MIN_LETTERS = 8;
export const MAX_LETTERHEAD = LETTERHEAD_LINES;

/**
 * A line as a letterhead compares it: anchor form (lowercase, digits masked) of its letters and digits only — OCR
 * turns a comma into a dot and drops or adds spaces and dashes at will ("Sek, LZ," read "Sek.l3,").
 */
export const letterheadForm = (text: string): string => anchorForm(text).replace(/[^\p{L}#]+/gu, '').slice(0, MAX_TEXT);

const letters = (form: string): number => form.match(/\p{L}/gu)?.length ?? 0;

/** A date or an amount: the letterhead has ended, the document's own values begin (a postcode or a phone is neither). */
const documentValue = /\b\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}\b|\d[.,]\d{2}(?!\d)/;

/** Below this mean word confidence (letters weighing), a line is what OCR made of specks or a logo, not print. */
const NOISE_CONFIDENCE = 0.5;

/**
 * A line OCR read as noise ("RIE EHeRy" at confidence 0 over a logo): no other scan of the letterhead reads it the
 * same way, so kept it only dilutes the share of the letterhead a page prints. A page read without confidences
 * (a text layer: every word 1) keeps all its lines.
 */
function readAsNoise(line: TextLine): boolean {
  let weight = 0;
  let sum = 0;
  for (const word of line.words) {
    const n = letters(word.text);
    weight += n;
    sum += n * (word.confidence ?? 1);
  }
  return weight > 0 && sum / weight < NOISE_CONFIDENCE;
}

/**
 * The letterhead lines of a page the analyst confirmed: its first lines with enough letters, up to the first line
 * printing a date or an amount, a buyer heading or the confirmed buyer's name (an invoice may print the buyer's block
 * at its top).
 */
export function letterheadOf(lines: readonly TextLine[], buyer: string | null): string[] {
  const buyerParts = (buyer ?? '').split('\n').map(compactText).filter((p) => p.length >= 4);
  const out: string[] = [];
  for (const line of lines.slice(0, LETTERHEAD_LINES)) {
    if (documentValue.test(line.text) || line.segments.some((s) => isBuyerHeading(s.text)) || buyerParts.some((p) => compactText(line.text).includes(p))) break;
    const form = letterheadForm(line.text);
    if (letters(form) >= MIN_LETTERS && !out.includes(form) && !readAsNoise(line)) out.push(form);
  }
  return out.slice(0, MAX_LETTERHEAD);
}

/** The forms of a page's first lines, where a learned letterhead is looked for. */
export const pageHeadForms = (lines: readonly TextLine[]): string[] => lines.slice(0, PAGE_HEAD_LINES).map((l) => letterheadForm(l.text));

/** Whether a learned letterhead line is one of the page's head lines, through OCR noise. */
function printedNear(learned: string, head: readonly string[]): boolean {
  const allowed = noiseAllowance(learned.length);
  return head.some((form) => editDistance(form, learned, allowed) <= allowed);
}

/** Share of the learned letterhead lines the page's head prints, 0–1 (0 without any learned). */
export function letterheadShare(learned: readonly string[], head: readonly string[]): number {
  if (learned.length === 0) return 0;
  return learned.filter((line) => printedNear(line, head)).length / learned.length;
}
