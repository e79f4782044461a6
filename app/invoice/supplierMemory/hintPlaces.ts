/**
 * Where a value sits relative to fixed text, both ways: `anchorOf` finds the anchor of a value the analyst confirmed
 * (learning), `textAt` finds the text an anchor points at on another page (reading). The relations
 * (lessonSchema.ts): `inline` after the anchor in its segment, `right` segments to its right, `below` lines under it
 * in its column, and `column-end` the last figure of the column of figures under a header — a table's totals row,
 * wherever the next invoice's row count puts it.
 */
import type { Segment, TextLine } from '../layout.js';
import { MAX_TEXT, type FieldHint } from './lessonSchema.js';
import { anchorForm, relativeY, type MemoryPage } from './pageText.js';
import { editDistance, noiseAllowance, overlaps } from './textForms.js';

/** An anchor needs this many letters: "#" or "/" alone anchors nothing. */
const MIN_ANCHOR_LETTERS = 2;
/** How far an anchor may be: segments to the left, lines above. */
const MAX_RIGHT_STEP = 3;
const MAX_BELOW_STEP = 3;
/** How many lines a column of figures under its header may run (rows, blank lines and a totals row). */
const MAX_COLUMN_LINES = 24;

const letters = (text: string): number => text.match(/\p{L}/gu)?.length ?? 0;
const isAnchor = (form: string): boolean => letters(form) >= MIN_ANCHOR_LETTERS && form.length <= MAX_TEXT;
/** A currency code beside an amount ("1.234,56 EUR") is no word. */
const currencyCode = /(?<!\p{L})\p{Lu}{3}(?!\p{L})/gu;
/** A figure: a segment without words (an amount, a rate, a date), as a table column holds them. */
const isFigure = (segment: Segment): boolean => letters(segment.text.replace(currencyCode, '')) === 0;

/** How often each segment's anchor form is printed on the page: an anchor printed twice tells no place. */
export function anchorCounts(page: MemoryPage): Map<string, number> {
  const counts = new Map<string, number>();
  for (const forms of page.forms) for (const form of forms) counts.set(form, (counts.get(form) ?? 0) + 1);
  return counts;
}

/** The segments under (line, segment) in its column, line by line, up to `limit` lines (a line with none is skipped). */
function* column(page: MemoryPage, lineIndex: number, segment: Segment, limit: number): Generator<{ line: number; segment: Segment }> {
  for (let li = lineIndex + 1; li < page.lines.length && li - lineIndex <= limit; li++) {
    const under = page.lines[li]!.segments.find((s) => overlaps(s, segment));
    if (under) yield { line: li, segment: under };
  }
}

/** The last figure of the unbroken column of figures under a header segment; null where none is under it. */
function columnEnd(page: MemoryPage, lineIndex: number, header: Segment): { line: number; segment: Segment } | null {
  let last: { line: number; segment: Segment } | null = null;
  for (const cell of column(page, lineIndex, header, MAX_COLUMN_LINES)) {
    if (!isFigure(cell.segment)) break;
    last = cell;
  }
  return last;
}

/**
 * The anchor of a value found at (line, segment, index in the segment's text); null where no fixed text is near.
 * `amount`: the value is an amount, which may end a column of figures under a header.
 */
export function anchorOf(page: MemoryPage, counts: ReadonlyMap<string, number>, at: { line: number; segment: number; index: number }, amount: boolean): Omit<FieldHint, 'shape'> | null {
  const line = page.lines[at.line]!;
  const segment = line.segments[at.segment]!;
  const before = anchorForm(segment.text.slice(0, at.index));
  if (isAnchor(before)) return { anchor: before, relation: 'inline', step: 0, anchorY: relativeY(page, line) };
  for (let k = at.segment - 1; k >= Math.max(0, at.segment - MAX_RIGHT_STEP); k--) {
    const form = page.forms[at.line]![k]!;
    if (isAnchor(form)) return { anchor: form, relation: 'right', step: at.segment - k, anchorY: relativeY(page, line) };
  }
  // Above it in its column: the nearest fixed text printed once on the page (a repeated "Nummer" names no place);
  // over a column of figures that the value ends, that column's header.
  let figuresBetween = amount && isFigure(segment);
  for (let d = 1; at.line - d >= 0 && d <= (figuresBetween ? MAX_COLUMN_LINES : MAX_BELOW_STEP); d++) {
    const above: TextLine = page.lines[at.line - d]!;
    const k = above.segments.findIndex((s) => overlaps(s, segment));
    if (k < 0) continue;
    const cell = above.segments[k]!;
    if (isFigure(cell)) continue;
    const form = page.forms[at.line - d]![k]!;
    const once = isAnchor(form) && counts.get(form) === 1;
    if (once && figuresBetween && columnEnd(page, at.line - d, cell)?.line === at.line) return { anchor: form, relation: 'column-end', step: 0, anchorY: relativeY(page, above) };
    if (once && d <= MAX_BELOW_STEP) return { anchor: form, relation: 'below', step: d, anchorY: relativeY(page, above) };
    figuresBetween = false;
  }
  return null;
}

/** Anchors compare without spaces: a PDF's text layer splits words where the letters are kerned ("Br uttosumme"). */
const squash = (form: string): string => form.replace(/ /g, '');

/**
 * How an anchor is printed in a segment: the edits OCR made in it (0: exactly; within textForms.ts's noise allowance,
 * one per six characters: "NETT TOTA!" for "NETT TOTAL", "Tax Invoice na." for "Tax Invoice no.") and, for an
 * inline anchor, how many of the segment's words it takes; null where it is not printed there.
 */
function anchorIn(anchor: string, inline: boolean, form: string, text: string): { edits: number; words?: number } | null {
  const squashed = squash(form);
  if (inline ? squashed.startsWith(anchor) && squashed.length > anchor.length : squashed === anchor) return { edits: 0 };
  const allowed = noiseAllowance(anchor.length);
  if (allowed === 0) return null;
  if (!inline) {
    const edits = editDistance(squashed, anchor, allowed);
    return edits <= allowed ? { edits } : null;
  }
  // Inline through noise: the segment's first words read as the anchor, and a value after them.
  const words = text.split(/\s+/);
  let best: { edits: number; words: number } | null = null;
  for (let k = 1; k < words.length; k++) {
    const prefix = squash(anchorForm(words.slice(0, k).join(' ')));
    if (prefix.length > anchor.length + allowed) break;
    const edits = editDistance(prefix, anchor, allowed);
    if (edits <= allowed && (!best || edits < best.edits)) best = { edits, words: k };
  }
  return best;
}

/**
 * The text a hint points at on this page, with the line it is printed on; null where its anchor is not printed.
 * `edits`: how far the anchor found is from the learned one (a scan's OCR noise): an anchor printed exactly leads, then
 * the one nearest its learned height.
 */
export function textAt(page: MemoryPage, hint: FieldHint): { text: string; line: number; distance: number; edits: number } | null {
  let best: { line: number; segment: number; distance: number; edits: number; words?: number } | null = null;
  const anchor = squash(hint.anchor);
  page.lines.forEach((line, li) =>
    page.forms[li]!.forEach((form, si) => {
      const found = anchorIn(anchor, hint.relation === 'inline', form, line.segments[si]!.text);
      if (!found) return;
      const distance = Math.abs(relativeY(page, line) - hint.anchorY);
      if (!best || found.edits < best.edits || (found.edits === best.edits && distance < best.distance)) best = { line: li, segment: si, distance, ...found };
    }),
  );
  if (!best) return null;
  const { line: li, segment: si, distance, edits, words: anchorWords } = best as { line: number; segment: number; distance: number; edits: number; words?: number };
  const line: TextLine = page.lines[li]!;
  const cell = line.segments[si]!;
  if (hint.relation === 'inline') {
    // The anchor's words, then the value: drop words while what is left still begins with the anchor (through noise:
    // the words that read as the anchor).
    const words = cell.text.split(/\s+/);
    let k = anchorWords ?? 0;
    const prefix = (n: number) => squash(anchorForm(words.slice(0, n).join(' ')));
    if (anchorWords === undefined) while (k < words.length && prefix(k + 1).length <= anchor.length && anchor.startsWith(prefix(k + 1))) k++;
    return { text: words.slice(k).join(' '), line: li, distance, edits };
  }
  if (hint.relation === 'right') {
    const segment = line.segments[si + hint.step];
    return segment ? { text: segment.text, line: li, distance, edits } : null;
  }
  if (hint.relation === 'column-end') {
    const end = columnEnd(page, li, cell);
    return end ? { text: end.segment.text, line: end.line, distance, edits } : null;
  }
  const below = page.lines[li + hint.step];
  const under = below?.segments.find((s) => overlaps(s, cell));
  if (!under) return null;
  // A value printed over several lines (a name and its second line): the lines under it in its column.
  const parts = [under.text];
  for (const next of column(page, li + hint.step, under, (hint.lines ?? 1) - 1)) parts.push(next.segment.text);
  return { text: parts.slice(0, hint.lines ?? 1).join('\n'), line: li + hint.step, distance, edits };
}

/** Whether the `count - 1` lines under (line, segment) in its column print the value's next lines. */
export function continuesBelow(page: MemoryPage, lineIndex: number, segment: Segment, parts: readonly string[], contains: (text: string, part: string) => boolean): boolean {
  let k = 1;
  for (const cell of column(page, lineIndex, segment, parts.length - 1)) {
    if (k >= parts.length || !contains(cell.segment.text, parts[k]!)) break;
    k++;
  }
  return k === parts.length;
}
