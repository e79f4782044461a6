/**
 * Decides whether a page's PDF text layer can be used as is, or the page must be read by OCR.
 * v1 looks only at how much text there is and how much of it is unreadable; issue "Bundled CPU engine" adds
 * partial layers, invisible OCR layers and scrambled encodings.
 */
import type { TextLayer } from '../../app/model/page.js';

/** Fewer visible characters than this (a stamped page number on a scan) is not a text layer worth trusting. */
const MIN_CHARACTERS = 20;
/** More than this share of replacement, private-use or control characters means a broken font encoding. */
const MAX_GARBAGE_SHARE = 0.1;

export interface TextLayerVerdict {
  usable: boolean;
  reason: string;
}

export function judgeTextLayer(textLayer: TextLayer | null): TextLayerVerdict {
  if (!textLayer || textLayer.words.length === 0) return { usable: false, reason: 'no text layer' };
  let characters = 0;
  let garbage = 0;
  for (const word of textLayer.words) {
    for (const char of word.text) {
      characters++;
      // U+FFFD replacement, C0/C1 controls, the private use area (unmapped glyphs).
      if (/[\uFFFD\p{Cc}\p{Co}]/u.test(char)) garbage++;
    }
  }
  if (characters < MIN_CHARACTERS) return { usable: false, reason: `text layer has only ${characters} characters` };
  if (garbage / characters > MAX_GARBAGE_SHARE) {
    return { usable: false, reason: `${Math.round((100 * garbage) / characters)}% of the text layer is unreadable` };
  }
  return { usable: true, reason: 'text layer' };
}
