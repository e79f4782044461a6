/**
 * Turns pdf.js text items into words with boxes in pixels of the rendered page image.
 *
 * pdf.js gives runs of text ("items"), each with a transform from text space to PDF user space and an advance width;
 * it does not give per-glyph positions. A run is split at whitespace and each word gets the share of the run's
 * advance that its characters take, measured with `measure` (a canvas font metric when the caller has one, else
 * character counts). Pure: no pdf.js import, so it is unit-tested with fixed items.
 */
import type { TextLayerWord } from '../../app/model/page.js';
import { multiply, type Matrix } from './affine.js';

/** The fields of a pdf.js TextItem this module reads. */
export interface PdfTextItem {
  str: string;
  /** [a, b, c, d, e, f]: text space → PDF user space, font size included. */
  transform: number[];
  /** Advance of the whole run in user space units. */
  width: number;
  fontName: string;
  hasEOL: boolean;
}

export interface PdfFontStyle {
  /** Fractions of the font size above / below the baseline (descent is negative). */
  ascent?: number;
  descent?: number;
  fontFamily?: string;
}

export interface TextItemsToWordsOptions {
  /** viewport.transform: PDF user space → image pixels (scale, y flip and page rotation). */
  viewportTransform: number[];
  /** viewport.scale: user space units → pixels. */
  scale: number;
  styles: Record<string, PdfFontStyle>;
  /** The font's real name where known (e.g. "Helvetica-Bold"); falls back to the style's family. */
  fontNameOf?: (fontId: string) => string | undefined;
  /** Width of `text` in any unit proportional to how the font draws it. */
  measure?: (text: string, fontFamily: string) => number;
  /** The rendered image's size: words wholly outside it are dropped, words across its edge are clipped to it. */
  clipTo?: { width: number; height: number };
}

const countCharacters = (text: string): number => [...text].length;

/** Words of every item, in pdf.js's stream order. Items without visible text are skipped. */
export function textItemsToWords(items: readonly PdfTextItem[], options: TextItemsToWordsOptions): TextLayerWord[] {
  const measure = options.measure ?? countCharacters;
  const words: TextLayerWord[] = [];
  for (const item of items) {
    if (!item.str || !item.str.trim()) continue;
    const style = options.styles[item.fontName] ?? {};
    const fontFamily = style.fontFamily ?? 'sans-serif';
    const tx = multiply(options.viewportTransform, item.transform);
    // In image pixels the text's "right" axis is (tx[0], tx[1]) and its "up" axis (tx[2], tx[3]) points from the
    // baseline towards the top of the glyphs ((0, -1) for upright text); their lengths are the font's sizes.
    const fontSize = Math.hypot(tx[2], tx[3]);
    const rightLength = Math.hypot(tx[0], tx[1]);
    if (fontSize === 0 || rightLength === 0) continue;
    const right = [tx[0] / rightLength, tx[1] / rightLength];
    const up = [tx[2] / fontSize, tx[3] / fontSize];
    const advance = item.width * options.scale;
    const ascent = style.ascent && style.ascent > 0 ? style.ascent : 0.8;
    const descent = style.descent && style.descent < 0 ? style.descent : -0.2;
    const fontName = cleanFontName(options.fontNameOf?.(item.fontName)) ?? fontFamily;

    const pieces = splitWords(item.str);
    const totalWidth = measure(item.str, fontFamily) || countCharacters(item.str);
    pieces.forEach((piece, index) => {
      const start = (measure(item.str.slice(0, piece.start), fontFamily) / totalWidth) * advance;
      const end = (measure(item.str.slice(0, piece.end), fontFamily) / totalWidth) * advance;
      const corners: Array<[number, number]> = [];
      for (const along of [start, end]) {
        for (const height of [descent * fontSize, ascent * fontSize]) {
          corners.push([tx[4] + right[0] * along + up[0] * height, tx[5] + right[1] * along + up[1] * height]);
        }
      }
      const xs = corners.map((c) => c[0]);
      const ys = corners.map((c) => c[1]);
      let box: [number, number, number, number] = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
      if (options.clipTo) {
        const { width, height } = options.clipTo;
        if (box[2] <= 0 || box[3] <= 0 || box[0] >= width || box[1] >= height) return;
        box = [Math.max(0, box[0]), Math.max(0, box[1]), Math.min(width, box[2]), Math.min(height, box[3])];
      }
      const word: TextLayerWord = {
        text: piece.text,
        box: [round(box[0]), round(box[1]), round(box[2]), round(box[3])],
        fontSize: round(fontSize),
        fontName,
      };
      if (item.hasEOL && index === pieces.length - 1) word.endOfLine = true;
      words.push(word);
    });
  }
  return words;
}

/**
 * Font names as PDFs store them, made printable: some are UTF-16BE with a byte-order mark read as Latin-1
 * ("þÿ\0A\0B…"); control characters are dropped. Undefined when nothing printable is left.
 */
export function cleanFontName(name: string | undefined): string | undefined {
  if (!name) return undefined;
  let text = name;
  if (text.startsWith('\u00fe\u00ff')) {
    const codes: number[] = [];
    for (let i = 2; i + 1 < text.length; i += 2) codes.push((text.charCodeAt(i) << 8) | text.charCodeAt(i + 1));
    text = String.fromCharCode(...codes);
  }
  text = text.replace(/[\p{Cc}\uFFFD]/gu, '').trim();
  return text || undefined;
}

/** Whitespace-separated pieces of `text` with their [start, end) code-unit offsets. */
export function splitWords(text: string): Array<{ text: string; start: number; end: number }> {
  const pieces: Array<{ text: string; start: number; end: number }> = [];
  for (const match of text.matchAll(/\S+/gu)) {
    pieces.push({ text: match[0], start: match.index, end: match.index + match[0].length });
  }
  return pieces;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
