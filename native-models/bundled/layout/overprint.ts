/**
 * Text drawn twice on the same spot (a PDF's "fake bold": the same line painted again a fraction of a point to the
 * side) reads as every word twice. A word whose text equals an earlier word's and whose box covers nearly the same
 * area is that second painting and is dropped.
 */
import type { LayoutWord } from './layoutTypes.js';

/** Two boxes are one spot when their intersection is at least this share of the smaller box. */
const SAME_SPOT = 0.8;

export function dropOverprintedWords(words: readonly LayoutWord[]): LayoutWord[] {
  const seen = new Map<string, LayoutWord[]>();
  const kept: LayoutWord[] = [];
  for (const word of words) {
    const earlier = seen.get(word.text) ?? [];
    if (earlier.some((other) => sameSpot(other.box, word.box))) continue;
    earlier.push(word);
    seen.set(word.text, earlier);
    kept.push(word);
  }
  return kept;
}

function sameSpot(a: LayoutWord['box'], b: LayoutWord['box']): boolean {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  if (w <= 0 || h <= 0) return false;
  const area = (box: LayoutWord['box']): number => Math.max(1e-6, (box[2] - box[0]) * (box[3] - box[1]));
  return w * h >= SAME_SPOT * Math.min(area(a), area(b));
}
