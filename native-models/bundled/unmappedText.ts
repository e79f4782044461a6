/**
 * Text-layer quality judged per region: a page whose text layer is good can still draw some of its text in a font
 * without a usable ToUnicode map — a chart's axis and legend exported from a spreadsheet, a logo set in a subset
 * font. pdf.js then reports glyph codes as characters (`%#"`, `&'()*+,"`: codes counted up from `!`), or replacement
 * and private-use characters. The whole-page check (textLayerQuality.ts) lets such a page through when the garbage is
 * a small share of it; this module finds those words, so the engine can drop them and OCR just the regions they are
 * drawn in (their glyphs are on the page image, only their mapping to Unicode is lost).
 */
import type { Box } from '../../app/model/extraction.js';
import type { LayoutWord } from './layout/layoutTypes.js';

/** Replacement, private-use and control characters: glyphs without any Unicode mapping. */
const UNMAPPED_CHARACTER = /[\uFFFD\p{Co}\p{Cc}]/u;
/** A word of at least this many characters with no letter and no digit is glyph codes read as punctuation (`%#"`). */
const MIN_SOUP_CHARACTERS = 2;
/**
 * A font whose words are at least this share glyph soup has no usable mapping: all its words are unmapped (its
 * `01"` is a glyph code too). Real text in one font has few such words (a `--` or `...` here and there).
 */
const UNMAPPED_FONT_SOUP_SHARE = 0.5;
/** … and at least this many soup words: one odd `(*)` in a font is punctuation, not a lost mapping. */
const UNMAPPED_FONT_MIN_SOUP_WORDS = 2;
/** Unmapped words closer than this many font sizes (either way) are one region (a chart's axis, its legend). */
const REGION_JOIN_FONT_SIZES = 3;
/** A region is read with this many font sizes of margin round its words (ascent/descent and width are estimates). */
const REGION_MARGIN_FONT_SIZES = 0.5;

/** What this module needs of a word: text-layer words and layout words both have it. */
type PlacedWord = Pick<LayoutWord, 'text' | 'box' | 'fontSize' | 'fontName'>;

export interface UnmappedText<W extends PlacedWord> {
  /** The words that keep their text-layer reading. */
  mapped: W[];
  /** The words whose glyphs do not map to Unicode. */
  unmapped: W[];
}

/** A word that is not text: unmapped glyphs, or glyph codes that came out as a run of punctuation. */
export function isGlyphSoup(text: string): boolean {
  if (UNMAPPED_CHARACTER.test(text)) return true;
  return [...text].length >= MIN_SOUP_CHARACTERS && !/[\p{L}\p{N}]/u.test(text);
}

/** Splits the text layer's words into mapped and unmapped (judged font by font, and word by word). */
export function findUnmappedText<W extends PlacedWord>(words: readonly W[]): UnmappedText<W> {
  const byFont = new Map<string, { words: number; soup: number }>();
  for (const word of words) {
    const tally = byFont.get(word.fontName ?? '') ?? { words: 0, soup: 0 };
    tally.words++;
    if (isGlyphSoup(word.text)) tally.soup++;
    byFont.set(word.fontName ?? '', tally);
  }
  const unmappedFont = (name: string | undefined): boolean => {
    const tally = byFont.get(name ?? '');
    return !!name && !!tally && tally.soup >= UNMAPPED_FONT_MIN_SOUP_WORDS && tally.soup / tally.words >= UNMAPPED_FONT_SOUP_SHARE;
  };
  const mapped: W[] = [];
  const unmapped: W[] = [];
  for (const word of words) (unmappedFont(word.fontName) || UNMAPPED_CHARACTER.test(word.text) ? unmapped : mapped).push(word);
  return { mapped, unmapped };
}

/**
 * The boxes to read unmapped words from by OCR (page pixels, clipped to the page): clusters of nearby words (single
 * link), each as its bounding box with a margin.
 */
export function unmappedRegions(words: readonly PlacedWord[], page: { width: number; height: number }): Box[] {
  const clusters: { box: Box; size: number }[] = [];
  for (const word of words) {
    const size = Math.max(1, word.fontSize);
    let joined: { box: Box; size: number } = { box: [...word.box] as Box, size };
    // A word can bridge clusters made earlier: merge every cluster it is near.
    for (let i = clusters.length - 1; i >= 0; i--) {
      const cluster = clusters[i]!;
      const reach = REGION_JOIN_FONT_SIZES * Math.max(cluster.size, joined.size);
      if (gapBetween(cluster.box, joined.box) <= reach) {
        joined = { box: union(cluster.box, joined.box), size: Math.max(cluster.size, joined.size) };
        clusters.splice(i, 1);
      }
    }
    clusters.push(joined);
  }
  return clusters.map(({ box, size }) => {
    const margin = REGION_MARGIN_FONT_SIZES * size;
    return [Math.max(0, box[0] - margin), Math.max(0, box[1] - margin), Math.min(page.width, box[2] + margin), Math.min(page.height, box[3] + margin)];
  });
}

const union = (a: Box, b: Box): Box => [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];

/** The larger of the horizontal and vertical gaps between two boxes (0 when they overlap). */
function gapBetween(a: Box, b: Box): number {
  const dx = Math.max(0, a[0] - b[2], b[0] - a[2]);
  const dy = Math.max(0, a[1] - b[3], b[1] - a[3]);
  return Math.max(dx, dy);
}
