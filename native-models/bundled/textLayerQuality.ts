/**
 * Decides whether a page's PDF text layer can be used as is, or the page must be read by OCR:
 *  - missing or too little text (a stamped page number on a scan);
 *  - unmapped glyphs (U+FFFD, private-use, control characters): a broken font encoding;
 *  - scrambled encodings: glyphs mapped to the wrong characters give symbol soup or words without vowels
 *    ("Ãëêï", "Xqzkt Bpvlr");
 *  - partial layers (a text header over a scanned body) are judged with the page image: `judgePartialTextLayer`.
 */
import type { TextLayer } from '../../app/model/page.js';
import type { Box } from '../../app/model/extraction.js';
import { findUnmappedText } from './unmappedText.js';

/** Fewer visible characters than this is not a text layer worth trusting. */
const MIN_CHARACTERS = 20;
/** More than this share of replacement, private-use or control characters means a broken font encoding. */
const MAX_GARBAGE_SHARE = 0.1;
/** More than this share of characters outside letters, digits, spaces and common punctuation is symbol soup. */
const MAX_SYMBOL_SHARE = 0.3;
/** Latin words of ≥ 4 letters: fewer than this share with a vowel means shifted or scrambled glyph codes. */
const MIN_VOWEL_WORD_SHARE = 0.6;
/** Only judged on this many such words or more. */
const MIN_LATIN_WORDS = 15;
/**
 * More than this share of the words drawn in fonts without a Unicode map (glyph codes read as `%#"`): the page is
 * read by OCR. Below it the layer is used and only the unmapped words' regions are OCR'd (unmappedText.ts).
 */
const MAX_UNMAPPED_WORD_SHARE = 0.5;

export interface TextLayerVerdict {
  usable: boolean;
  reason: string;
}

const COMMON = /[\p{L}\p{N}\p{M}\s.,;:!?'"’‘“”()[\]{}\-–—/%&@#*+=<>$€£¥§°|_~^`\\…•·]/u;

export function judgeTextLayer(textLayer: TextLayer | null): TextLayerVerdict {
  if (!textLayer || textLayer.words.length === 0) return { usable: false, reason: 'no text layer' };
  let characters = 0;
  let garbage = 0;
  let symbols = 0;
  let latinWords = 0;
  let vowelWords = 0;
  for (const word of textLayer.words) {
    for (const char of word.text) {
      characters++;
      // U+FFFD replacement, C0/C1 controls, the private use area (unmapped glyphs).
      if (/[\uFFFD\p{Cc}\p{Co}]/u.test(char)) garbage++;
      else if (!COMMON.test(char)) symbols++;
    }
    const letters = word.text.replace(/[^\p{L}]/gu, '');
    if (letters.length >= 4 && /^[A-Za-z\u00C0-\u024F]+$/u.test(letters)) {
      latinWords++;
      if (/[aeiouyAEIOUY\u00C0-\u00C6\u00C8-\u00CF\u00D2-\u00D6\u00D8-\u00DD\u00E0-\u00E6\u00E8-\u00EF\u00F2-\u00F6\u00F8-\u00FD]/u.test(letters)) vowelWords++;
    }
  }
  if (characters < MIN_CHARACTERS) return { usable: false, reason: `text layer has only ${characters} characters` };
  if (garbage / characters > MAX_GARBAGE_SHARE) {
    return { usable: false, reason: `${Math.round((100 * garbage) / characters)}% of the text layer is unreadable` };
  }
  if (symbols / characters > MAX_SYMBOL_SHARE) {
    return { usable: false, reason: `${Math.round((100 * symbols) / characters)}% of the text layer is symbols: a scrambled font encoding` };
  }
  if (latinWords >= MIN_LATIN_WORDS && vowelWords / latinWords < MIN_VOWEL_WORD_SHARE) {
    return { usable: false, reason: `only ${Math.round((100 * vowelWords) / latinWords)}% of the text layer's words have a vowel: a scrambled font encoding` };
  }
  const unmapped = findUnmappedText(textLayer.words).unmapped.length / textLayer.words.length;
  if (unmapped > MAX_UNMAPPED_WORD_SHARE) {
    return { usable: false, reason: `${Math.round(100 * unmapped)}% of the text layer's words are in fonts without a Unicode map` };
  }
  return { usable: true, reason: 'text layer' };
}

/**
 * Text layers with more characters than this are not checked for a partial layer: a typed header or stamp is short;
 * a title page with logos (little text, much graphic ink) must keep its text layer, and ink alone cannot tell a
 * scanned body from graphics (a scanned invoice is 2–3% dark pixels, a logo-heavy title page 9%).
 */
export const PARTIAL_CHECK_MAX_CHARACTERS = 150;
/** Ink outside the text layer's words covering more than this share of the page means the body is an image. */
const MAX_UNTEXTED_INK_SHARE = 0.015;
/**
 * Only ink in pieces no larger than this share of the page's width counts: a scanned body is glyphs and words; a
 * frame round a coupon, a border or a background drawn as an image is one large piece, and must not send a page whose
 * text layer is good to OCR (its images are read region by region instead, imageRegions.ts).
 */
const MAX_GLYPH_PIECE_SHARE = 0.1;

/**
 * A partial text layer: little text, and much ink where the text layer has no words (the body of a scan under a
 * typed header). `ink` is a downscaled greyscale page (`width` × `height`, one byte a pixel, 0 = black) and
 * `scale` maps page pixels to it. Pure: the caller renders the thumbnail.
 */
export function judgePartialTextLayer(
  textLayer: TextLayer,
  ink: { data: Uint8Array; width: number; height: number; scale: number },
): TextLayerVerdict {
  const characters = textLayer.words.reduce((sum, word) => sum + word.text.length, 0);
  if (characters > PARTIAL_CHECK_MAX_CHARACTERS) return { usable: true, reason: 'text layer' };
  const covered = new Uint8Array(ink.width * ink.height);
  const mark = (box: Box): void => {
    const pad = 2;
    const [x1, y1, x2, y2] = [box[0], box[1], box[2], box[3]].map((v) => Math.round(v * ink.scale));
    for (let y = Math.max(0, y1 - pad); y <= Math.min(ink.height - 1, y2 + pad); y++)
      for (let x = Math.max(0, x1 - pad); x <= Math.min(ink.width - 1, x2 + pad); x++) covered[y * ink.width + x] = 1;
  };
  textLayer.words.forEach((word) => mark(word.box));
  // Ruling lines the PDF draws (a frame round a coupon, table rules) are ink known not to be text.
  textLayer.rulings?.forEach(mark);
  const untexted = glyphSizedInk(ink, covered);
  const share = untexted / (ink.width * ink.height);
  if (share > MAX_UNTEXTED_INK_SHARE) {
    return { usable: false, reason: `the text layer covers only part of the page (${Math.round(share * 100)}% of the page is ink without text)` };
  }
  return { usable: true, reason: 'text layer' };
}

/**
 * Dark pixels (< 128) not `covered`, counted only in connected pieces (8-neighbour) whose bounding box fits in
 * MAX_GLYPH_PIECE_SHARE of the image's width each way: ink the size of letters and words.
 */
function glyphSizedInk(ink: { data: Uint8Array; width: number; height: number }, covered: Uint8Array): number {
  const { data, width, height } = ink;
  const maxSide = Math.max(1, MAX_GLYPH_PIECE_SHARE * width);
  const seen = new Uint8Array(width * height);
  const stack = new Int32Array(width * height);
  let total = 0;
  for (let start = 0; start < data.length; start++) {
    if (seen[start] || data[start]! >= 128 || covered[start]) continue;
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    let [left, right, upper, lower, pixels] = [width, 0, height, 0, 0];
    while (top > 0) {
      const at = stack[--top]!;
      const [x, y] = [at % width, Math.floor(at / width)];
      pixels++;
      left = Math.min(left, x);
      right = Math.max(right, x);
      upper = Math.min(upper, y);
      lower = Math.max(lower, y);
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const next = ny * width + nx;
          if (seen[next] || data[next]! >= 128 || covered[next]) continue;
          seen[next] = 1;
          stack[top++] = next;
        }
      }
    }
    if (right - left + 1 <= maxSide && lower - upper + 1 <= maxSide) total += pixels;
  }
  return total;
}
