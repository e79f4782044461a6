/**
 * Synthetic words for the layout tests: a line of text set in a fixed-pitch model font, so a test can place lines,
 * columns and cells by coordinates alone (no PDF, no OCR).
 */
import type { LayoutWord } from '../native-models/bundled/layout/layoutTypes.js';

/** Words of `text` from (x, baseline y), `size` px, 0.5 em per character, 0.3 em spaces; `extra` on every word. */
export function line(text: string, x: number, y: number, size = 20, extra: Partial<LayoutWord> = {}): LayoutWord[] {
  const words: LayoutWord[] = [];
  let cursor = x;
  for (const piece of text.split(' ')) {
    const width = piece.length * size * 0.5;
    words.push({ text: piece, box: [cursor, y - size * 0.8, cursor + width, y + size * 0.2], confidence: 1, fontSize: size, ...extra });
    cursor += width + size * 0.3;
  }
  return words;
}
