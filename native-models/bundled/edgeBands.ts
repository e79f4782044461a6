/**
 * A scanner's grey edge, or a lid's shadow along one side: the paper's brightness steps down across a strip at the
 * page's left or right edge, and the print that runs into the strip goes with it. Tesseract separates print from
 * paper by one threshold for the page (Otsu's), so the strip's paper turns black with its print and the first letters
 * of every line are lost ("OPAC MARKETING" for a VIVOPAC printed half on such a band). The local threshold of
 * recognizePage.ts is only tried on pages not read surely, and such a page is read surely everywhere else.
 *
 * So the strip is evened out before anything reads the page: each column's paper level is measured (a high percentile
 * of its grey: a column of a page is mostly paper) and the columns of a strip that reaches the edge, with paper darker
 * than the page's, are brightened by their ratio to the paper next to the strip, through the soft edge where the shade
 * fades — the strip's paper becomes that paper and its print stays print. Not a panel: a strip much darker than the paper (a dark ground, which darkSurround.ts paints, or a dark
 * design bar), a strip holding light print (white on grey would be lost), or one wider than a third of the page
 * (light uneven across the page, not a band) is left as it is.
 */
import type { GreyImage } from './greyLevels.js';

/** A column's paper level: this percentile of its grey (a column is mostly paper, its print well under a fifth). */
const PAPER_PERCENTILE = 0.8;
/** A column whose paper level is under this share of the page's is in a band. */
const BAND_SHARE = 0.85;
/** Under this share of the page's paper level a strip is a dark ground or a panel, not shaded paper. */
const PANEL_SHARE = 0.4;
/** A band is at least this share of the page's width (a few columns are the scan's own edge)… */
const MIN_BAND = 0.01;
/** …and at most this share: wider, the light is uneven over the page, no band at its edge. */
const MAX_BAND = 1 / 3;
/** Rows sampled per column at most. */
const ROW_SAMPLES = 1200;
/** Share of a band's pixels lighter than halfway between its paper and the page's paper above which it holds light print. */
const LIGHT_PRINT_SHARE = 0.02;

/** Each column's paper level (PAPER_PERCENTILE of its grey over sampled rows). */
export function columnPaperLevels(image: GreyImage): Uint8Array {
  const { width, height, data } = image;
  const step = Math.max(1, Math.floor(height / ROW_SAMPLES));
  const rows = Math.ceil(height / step);
  const rank = Math.min(rows - 1, Math.floor(rows * PAPER_PERCENTILE));
  const levels = new Uint8Array(width);
  const histogram = new Uint32Array(256);
  for (let x = 0; x < width; x++) {
    histogram.fill(0);
    for (let y = 0; y < height; y += step) histogram[data[y * width + x]!]!++;
    let seen = 0;
    let v = 0;
    for (; v < 255; v++) {
      seen += histogram[v]!;
      if (seen > rank) break;
    }
    levels[x] = v;
  }
  return levels;
}

/** The median of `values`. */
function median(values: ArrayLike<number>): number {
  const sorted = Array.from(values).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Columns next to a band whose paper level is the one the band is evened to: the paper the band's print runs into. */
const INNER_SHARE = 0.03;
/** The band goes on through its soft edge while a column's paper is under this share of the paper next to it. */
const EDGE_SHARE = 0.97;

/**
 * The band of shaded paper at one edge, if any: its columns from the edge inward, through the soft edge where the
 * shade fades, and the paper level next to it that they are evened to.
 */
function bandFrom(levels: Uint8Array, paper: number, fromLeft: boolean): { columns: number[]; inner: number } | null {
  const width = levels.length;
  const at = (k: number): number => levels[fromLeft ? k : width - 1 - k]!;
  let k = 0;
  for (; k < width && at(k) < BAND_SHARE * paper; k++) if (at(k) < PANEL_SHARE * paper) return null;
  if (k < Math.max(3, MIN_BAND * width) || k > MAX_BAND * width) return null;
  // The paper next to the band: the median level of the columns after column `from`.
  const paperAfter = (from: number): number => median(Array.from({ length: Math.max(5, Math.round(INNER_SHARE * width)) }, (_, j) => at(Math.min(width - 1, from + j))));
  let inner = paperAfter(k);
  // The soft edge: the shade fades over a few columns, where a line's first letters often stand.
  while (k < width && at(k) < EDGE_SHARE * inner) k++;
  inner = Math.max(inner, paperAfter(k));
  const columns = Array.from({ length: k }, (_, j) => (fromLeft ? j : width - 1 - j));
  return { columns, inner };
}

/** Whether a band's columns hold light print: pixels well above their column's paper level. */
function holdsLightPrint(image: GreyImage, columns: readonly number[], levels: Uint8Array, paper: number): boolean {
  const { width, height, data } = image;
  const step = Math.max(1, Math.floor(height / ROW_SAMPLES));
  let light = 0;
  let all = 0;
  for (const x of columns) {
    const bar = (levels[x]! + paper) / 2;
    for (let y = 0; y < height; y += step) {
      all++;
      if (data[y * width + x]! > bar) light++;
    }
  }
  return all > 0 && light / all > LIGHT_PRINT_SHARE;
}

/**
 * `image` with a band of shaded paper at its left or right edge brightened to the page's paper level, column by
 * column, and how many columns were; the same image where there is none.
 */
export function edgeBandsEvened(image: GreyImage): { image: GreyImage; columns: number } {
  if (image.width < 50 || image.height < 50) return { image, columns: 0 };
  const levels = columnPaperLevels(image);
  const paper = median(levels);
  // A page darker than mid-grey is no paper page (a photo, a negative): nothing to even.
  if (paper < 128) return { image, columns: 0 };
  const bands = [bandFrom(levels, paper, true), bandFrom(levels, paper, false)].filter((band): band is NonNullable<typeof band> => band !== null && !holdsLightPrint(image, band.columns, levels, band.inner));
  if (bands.length === 0) return { image, columns: 0 };
  const data = Uint8Array.from(image.data);
  const { width, height } = image;
  for (const { columns, inner } of bands) {
    for (const x of columns) {
      const gain = Math.max(1, inner / Math.max(1, levels[x]!));
      for (let y = 0; y < height; y++) {
        const i = y * width + x;
        data[i] = Math.min(255, Math.round(data[i]! * gain));
      }
    }
  }
  return { image: { width, height, data }, columns: bands.reduce((n, band) => n + band.columns.length, 0) };
}
