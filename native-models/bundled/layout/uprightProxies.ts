/**
 * Rotated words (column headings set at 45° or 90° in narrow columns) have upright boxes far wider or taller than
 * their text: their box crosses the gutters between columns and the rows above. For table geometry such a word
 * stands where its text starts, a one-em box at the foot of its box (rotated headings read upwards from the
 * column they head); the table keeps the real words.
 */
import { toSegment } from './buildSegments.js';
import { boxHeight, unionBox, type LayoutWord, type Segment, type TableLayout } from './layoutTypes.js';

/** A word whose box is more than this many font sizes tall is set rotated. */
const ROTATED_HEIGHT = 2;

export function isRotated(word: LayoutWord): boolean {
  return word.fontSize > 0 && boxHeight(word.box) > ROTATED_HEIGHT * word.fontSize && word.text.length > 1;
}

export interface UprightProxies {
  segments: Segment[];
  /** The segment with the real words back (itself when it had no rotated word). */
  restore(segment: Segment): Segment;
  restoreTable(table: TableLayout): TableLayout;
}

export function uprightProxies(segments: readonly Segment[]): UprightProxies {
  const original = new Map<LayoutWord, LayoutWord>();
  const proxied = segments.map((segment) => {
    if (!segment.words.some(isRotated)) return segment;
    const words = segment.words.map((word) => {
      if (!isRotated(word)) return word;
      const size = word.fontSize;
      const proxy: LayoutWord = { ...word, box: [word.box[0], word.box[3] - size, Math.min(word.box[2], word.box[0] + size), word.box[3]] };
      original.set(proxy, word);
      return proxy;
    });
    return toSegment(words);
  });
  const restore = (segment: Segment): Segment =>
    segment.words.some((word) => original.has(word)) ? toSegment(segment.words.map((word) => original.get(word) ?? word)) : segment;
  const restoreTable = (table: TableLayout): TableLayout => {
    if (original.size === 0) return table;
    const cells = table.cells.map((cell) => {
      const restored = cell.segments.map(restore);
      const changed = restored.some((s, i) => s !== cell.segments[i]);
      // Cells found from alignment are as big as their words; ruled cells keep their ruled box.
      return changed && table.evidence === 'alignment' ? { ...cell, segments: restored, box: unionBox(restored.map((s) => s.box)) } : { ...cell, segments: restored };
    });
    return { ...table, cells, segments: table.segments.map(restore), box: unionBox([table.box, ...cells.map((cell) => cell.box)]) };
  };
  return { segments: proxied, restore, restoreTable };
}
