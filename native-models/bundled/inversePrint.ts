/**
 * Whether a page may hold print light on dark (a heading on a black bar, a table's dark header row, a negative stamp,
 * a photo's dark background): only then is tesseract's inverted re-reading of weak lines (`tessedit_do_invert`)
 * worth its time. Tesseract reads every line a second time inverted when it read it with low confidence, in case it
 * was white on black; on faded receipts most lines are weak, so that second LSTM pass ran over most of the page and
 * never won (CPU and CER on the receipts: docs/benchmarks.md). Light print needs a dark panel around it, and a panel
 * has rows that are dark across a word's width: above and below the print in it, and between its letters' strokes.
 * Text has no such rows (its dark runs end at every letter's edge); a rule is a few rows thin; a thick bar or a solid
 * logo may pass, which only keeps the re-reading on.
 */
import { medianGlyphHeight } from './glyphHeight.js';
import type { GreyImage } from './ocrImage.js';

/** Grey below this is ink (the thumbnail is contrast-stretched, as in glyphHeight.ts). */
const INK_LEVEL = 128;
/** A panel's dark rows run at least this many typical glyph heights across (a short word in capitals)… */
const PANEL_MIN_WIDTH_GLYPHS = 4;
/** …in at least this many glyph heights of consecutive rows (the margin above the print, or below it)… */
const PANEL_MIN_HEIGHT_GLYPHS = 0.5;
/** …and never fewer rows than this: a ruling drawn 1–2 px thick on the thumbnail is not a panel. */
const PANEL_MIN_ROWS = 3;

/**
 * True where the image (the page thumbnail, contrast-stretched) has a dark panel that light print could sit on, or
 * where its print cannot be sized (too few glyphs): then tesseract keeps its inverted re-reading. `glyph`: the image's
 * median glyph height (glyphHeight.ts) where the caller measured it already.
 */
export function mayHoldInversePrint(image: GreyImage, glyph = medianGlyphHeight(image)): boolean {
  return glyph === null || hasDarkPanel(image, glyph);
}

/** Whether some column crosses a dark run of the panel's width in the panel's height of consecutive rows. */
export function hasDarkPanel(image: GreyImage, glyphHeight: number): boolean {
  const { data, width, height } = image;
  const minRun = Math.max(PANEL_MIN_ROWS, Math.round(PANEL_MIN_WIDTH_GLYPHS * glyphHeight));
  const minRows = Math.max(PANEL_MIN_ROWS, Math.ceil(PANEL_MIN_HEIGHT_GLYPHS * glyphHeight));
  const rows = new Uint16Array(width); // per column: consecutive rows so far in which it lies in a long dark run
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let x = 0;
    while (x < width) {
      if (data[row + x]! >= INK_LEVEL) {
        rows[x++] = 0;
        continue;
      }
      let end = x;
      while (end < width && data[row + end]! < INK_LEVEL) end++;
      const long = end - x >= minRun;
      for (; x < end; x++) {
        rows[x] = long ? rows[x]! + 1 : 0;
        if (rows[x]! >= minRows) return true;
      }
    }
  }
  return false;
}
