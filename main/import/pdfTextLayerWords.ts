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
import { addMark, planAccents, SPACING_ACCENTS, type PlacedWord } from './composeAccents.js';

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

/**
 * Words of every item, in pdf.js's stream order. Items without visible text are skipped. Accents drawn as separate
 * glyphs over a letter are composed with it (composeAccents.ts); every word's text is NFC-normalised.
 */
export function textItemsToWords(items: readonly PdfTextItem[], options: TextItemsToWordsOptions): TextLayerWord[] {
  const measure = options.measure ?? countCharacters;
  const words: TextLayerWord[] = [];
  const placed: PlacedWord[] = [];
  // Whitespace (or a line end) since the last word: decides which pieces an accent may join.
  let spacePending = true;
  for (const item of items) {
    if (!item.str || !item.str.trim()) {
      if (item.str || item.hasEOL) spacePending = true;
      continue;
    }
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

    const pieces = splitAtAccents(splitWords(item.str));
    const totalWidth = measure(item.str, fontFamily) || countCharacters(item.str);
    const offset = (index: number): number => (measure(item.str.slice(0, index), fontFamily) / totalWidth) * advance;
    // Positions along the line and across it (the baseline), for composing accents: projections on the run's axes.
    const originAlong = tx[4] * right[0] + tx[5] * right[1];
    const across = tx[4] * up[0] + tx[5] * up[1];
    pieces.forEach((piece, index) => {
      const start = offset(piece.start);
      const end = offset(piece.end);
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
      const previousEnd = index > 0 ? pieces[index - 1].end : -1;
      placed.push({
        text: piece.text,
        along: [originAlong + start, originAlong + end],
        across,
        fontSize,
        font: item.fontName,
        spaceBefore: index === 0 ? spacePending || piece.start > 0 : piece.start > previousEnd,
        charSpan: (at) => [originAlong + offset(piece.start + at), originAlong + offset(piece.start + at + 1)],
      });
    });
    spacePending = item.hasEOL || /\s$/u.test(item.str);
  }
  return composeAccents(words, placed);
}

/** Applies planAccents: marks onto letters, accent words dropped, the pieces they split joined. */
function composeAccents(words: TextLayerWord[], placed: readonly PlacedWord[]): TextLayerWord[] {
  const { compositions, joinsNext } = planAccents(placed);
  const texts = words.map((word) => word.text);
  const dropped = new Set<number>();
  // Marks go on from the last letter back, so a letter that gains a code unit does not shift the next one's index.
  for (const c of [...compositions].sort((a, b) => b.letterIndex - a.letterIndex)) {
    texts[c.target] = addMark(texts[c.target], c.letterIndex, c.mark);
    dropped.add(c.accent);
  }
  const out: TextLayerWord[] = [];
  let joining = false;
  words.forEach((word, index) => {
    if (dropped.has(index)) return;
    const text = texts[index].normalize('NFC');
    const last = out.at(-1);
    if (joining && last) {
      last.text += text;
      last.box = [Math.min(last.box[0], word.box[0]), Math.min(last.box[1], word.box[1]), Math.max(last.box[2], word.box[2]), Math.max(last.box[3], word.box[3])];
      if (word.endOfLine) last.endOfLine = true;
      else delete last.endOfLine;
    } else out.push({ ...word, text });
    joining = joinsNext.has(index);
  });
  return out;
}

/**
 * Pieces with every spacing accent split off as a piece of its own (so that it gets its own position). Combining marks
 * stay with the letter they follow: the run already composes them.
 */
function splitAtAccents(pieces: Array<{ text: string; start: number; end: number }>): Array<{ text: string; start: number; end: number }> {
  return pieces.flatMap((piece) => {
    if (piece.text.length === 1 || ![...piece.text].some((c) => c in SPACING_ACCENTS)) return [piece];
    const parts: Array<{ text: string; start: number; end: number }> = [];
    let from = 0;
    for (let i = 0; i < piece.text.length; i++) {
      if (!(piece.text[i] in SPACING_ACCENTS)) continue;
      if (i > from) parts.push({ text: piece.text.slice(from, i), start: piece.start + from, end: piece.start + i });
      parts.push({ text: piece.text[i], start: piece.start + i, end: piece.start + i + 1 });
      from = i + 1;
    }
    if (from < piece.text.length) parts.push({ text: piece.text.slice(from), start: piece.start + from, end: piece.end });
    return parts;
  });
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
