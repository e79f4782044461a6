/**
 * The glyphs formula finding works on (mathLayout.ts): one per word of the text layer, with its type size, its math
 * strength and the extent its geometry is judged by, plus the fractions built from them; and the index that finds a
 * glyph's neighbours without scanning the page.
 */
import type { Box } from '../../../app/model/extraction.js';
import { median, type LayoutWord } from './layoutTypes.js';
import { bigOperatorOf, BINARY_TEXT, fontFamily, fontTraits, mathStrength, mathText, type MathStrength } from './mathSymbols.js';

export interface Glyph {
  /** Index of the word; -1 for a fraction. */
  index: number;
  word?: LayoutWord;
  box: Box;
  /** The extent used for geometry: extension-font glyphs hang far below the box pdf.js gives them. */
  vbox: Box;
  size: number;
  strength: MathStrength;
  text: string;
  bigOperator?: string;
  delimiter: boolean;
  fraction?: { numerator: Glyph[]; denominator: Glyph[]; ruling: number; axis: number };
  host?: Glyph;
  satellites: Glyph[];
  /** Part of a fraction. */
  consumed: boolean;
  /** The last GlyphIndex query that returned it (to return each glyph once). */
  stamp?: number;
  /** Its font's family (fontFamily), and whether it can carry a script (canHost): asked often, computed once. */
  family: string;
  hostable: boolean;
}

/** A smaller word is a script or limit when at most this share of its host's size. */
export const SCRIPT_RATIO = 0.88;
/** How far an extension-font glyph (a big operator, a tall delimiter) hangs below its box's top, in type sizes. */
const BIG_OPERATOR_DEPTH = 1.2;
const DELIMITER_DEPTH = 2.2;
/** The index's cell is this many median type sizes (at least MIN_CELL_SIZE px, FALLBACK_SIZE where no size is known). */
const CELL_SIZES = 2;
const MIN_CELL_SIZE = 4;
const FALLBACK_SIZE = 12;

export function toGlyph(word: LayoutWord, index: number): Glyph {
  const traits = fontTraits(word.fontName);
  const text = mathText(word);
  const bigOperator = bigOperatorOf(word);
  const size = word.fontSize > 0 ? word.fontSize : word.box[3] - word.box[1];
  let vbox = word.box;
  if (traits.extension) vbox = [word.box[0], word.box[1], word.box[2], Math.max(word.box[3], word.box[1] + (bigOperator ? BIG_OPERATOR_DEPTH : DELIMITER_DEPTH) * size)];
  const glyph: Glyph = {
    index,
    word,
    box: word.box,
    vbox,
    size,
    strength: mathStrength(word),
    text,
    bigOperator,
    delimiter: traits.extension && !bigOperator,
    satellites: [],
    consumed: false,
    family: fontFamily(word.fontName),
    hostable: false,
  };
  glyph.hostable = glyph.strength !== 'prose' && canHost(glyph);
  return glyph;
}

/** Glyphs bucketed by place on the page, to find a glyph's neighbours without scanning the page. */
export class GlyphIndex {
  private readonly buckets = new Map<number, Glyph[]>();
  private readonly cell: number;
  private query = 0;

  constructor(glyphs: readonly Glyph[]) {
    this.cell = CELL_SIZES * Math.max(MIN_CELL_SIZE, median(glyphs.map((g) => g.size)) || FALLBACK_SIZE);
    for (const g of glyphs) this.add(g);
  }

  private key(column: number, row: number): number {
    return row * 65536 + column;
  }

  add(glyph: Glyph): void {
    for (let row = Math.floor(glyph.vbox[1] / this.cell); row <= Math.floor(glyph.vbox[3] / this.cell); row++) {
      for (let column = Math.floor(glyph.vbox[0] / this.cell); column <= Math.floor(glyph.vbox[2] / this.cell); column++) {
        const bucket = this.buckets.get(this.key(column, row));
        if (bucket) bucket.push(glyph);
        else this.buckets.set(this.key(column, row), [glyph]);
      }
    }
  }

  /** Glyphs whose extent meets the band [top, bottom] (and [left, right] when given). */
  near(top: number, bottom: number, left = 0, right = 65535 * this.cell): Glyph[] {
    const query = ++this.query;
    const found: Glyph[] = [];
    const [firstColumn, lastColumn] = [Math.floor(Math.max(0, left) / this.cell), Math.min(65535, Math.floor(right / this.cell))];
    for (let row = Math.floor(top / this.cell); row <= Math.floor(bottom / this.cell); row++) {
      for (let column = firstColumn; column <= lastColumn; column++) {
        for (const g of this.buckets.get(this.key(column, row)) ?? []) {
          if (g.stamp === query || g.vbox[3] < top || g.vbox[1] > bottom || g.vbox[2] < left || g.vbox[0] > right) continue;
          g.stamp = query;
          found.push(g);
        }
      }
    }
    return found;
  }
}

export const isMath = (g: Glyph): boolean => g.strength !== 'prose';
export const centreY = (b: Box): number => (b[1] + b[3]) / 2;
export const height = (b: Box): number => b[3] - b[1];
export const width = (b: Box): number => b[2] - b[0];


/** The share of a font's box below its baseline. */
const DESCENT_SHARE = 0.25;

/**
 * Where a glyph's baseline lies, estimated from its box: fonts' boxes run from their ascent to their descent, and the
 * descent is about a quarter of the box.
 */
export const baselineOf = (g: Glyph): number => g.box[3] - DESCENT_SHARE * height(g.box);

/** A word that can carry a script: a variable, number, closing bracket, symbol, operator with limits or fraction. */
export function canHost(g: Glyph): boolean {
  if (g.fraction || g.bigOperator || g.delimiter) return true;
  const last = [...g.text].at(-1) ?? '';
  if (BINARY_TEXT.test(g.text) || /[([{,.;:]$/u.test(last)) return false;
  return /[\p{L}\p{N})\]}|′'!*∗†‡∞∇∂]/u.test(last);
}

export function subtree(g: Glyph): Glyph[] {
  return [g, ...g.satellites.flatMap(subtree)];
}
