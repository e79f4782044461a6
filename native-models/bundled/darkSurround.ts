/**
 * A page photographed or scanned on a dark ground — a table, an open scanner lid, the black beyond a torn receipt's
 * edge — holds a large dark region joined to the image's edge. Where the paper's print is light (a till's faded grey),
 * that ground takes tesseract's global threshold: with black at the edge and paper near white the threshold falls
 * between them and the print lands on the paper's side (a clear receipt read as "IIT TI" and nothing else, where the
 * same pixels with the ground painted paper-grey read line by line; tesseract's CLI read both as ours did). So before
 * the contrast stretch the ground is painted the paper's grey — every region of pixels darker than half the paper's
 * grey level that touches the image's edge and covers at least MIN_SURROUND_SHARE of the page — where it hides the
 * print: most of the ink Otsu's threshold finds on the paper alone lies above the threshold of the whole page. Black
 * print is found either way, and such pages are left as they are (painting them moved readings both ways on the
 * development receipts). Print inside the paper never touches the edge; a letter cut by the edge is far smaller.
 */
import { greyHistogram, otsuLevel, type GreyImage } from './greyLevels.js';


/** A dark region joined to the edge is ground where it covers at least this share of the page. */
const MIN_SURROUND_SHARE = 0.005;
/** The ground hides the print where more than this share of the paper's own ink lies above the whole page's threshold. */
const HIDDEN_INK = 0.5;

/**
 * The image with its dark ground painted the paper's grey (the median grey level; dark: under half of it) where it
 * hides the print, and the share of the page painted; the image itself where nothing was (no ground, print it does not
 * hide, or a median that is no paper: a page mostly ground).
 */
export function paperedSurround(image: GreyImage): { image: GreyImage; painted: number } {
  const { data, width, height } = image;
  const n = data.length;
  if (n === 0) return { image, painted: 0 };
  const counts = greyHistogram(data);
  const paper = medianGrey(counts, n);
  const dark = paper / 2;
  if (paper < 128) return { image, painted: 0 };
  // 1: a pixel of a dark region measured; 2: of the ground. One stack serves every flood (a region is at most the page).
  const seen = new Uint8Array(n);
  const stack = new Int32Array(n);
  let painted = 0;
  /** Floods the region joined to `seed` through the pixels `joins` lets in, marks them `to`; its size. */
  const flood = (seed: number, joins: (j: number) => boolean, to: number): number => {
    let [top, size] = [0, 0];
    stack[top++] = seed;
    seen[seed] = to;
    while (top > 0) {
      const i = stack[--top]!;
      size++;
      const x = i % width;
      for (const j of [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, i - width, i + width]) {
        if (j < 0 || j >= n || !joins(j)) continue;
        seen[j] = to;
        stack[top++] = j;
      }
    }
    return size;
  };
  const ground = (seed: number): void => {
    if (seen[seed] || data[seed]! >= dark) return;
    const size = flood(seed, (j) => seen[j] === 0 && data[j]! < dark, 1);
    if (size < MIN_SURROUND_SHARE * n) return;
    flood(seed, (j) => seen[j] === 1 && data[j]! < dark, 2);
    painted += size;
  };
  for (let x = 0; x < width; x++) {
    ground(x);
    ground((height - 1) * width + x);
  }
  for (let y = 0; y < height; y++) {
    ground(y * width);
    ground(y * width + width - 1);
  }
  if (painted === 0 || !hidesPrint(data, counts, seen)) return { image, painted: 0 };
  const out = data.slice();
  for (let i = 0; i < n; i++) if (seen[i] === 2) out[i] = paper;
  return { image: { data: out, width, height }, painted: painted / n };
}

/**
 * Whether the ground (pixels marked 2 in `marks`) hides the paper's print: more than HIDDEN_INK of the ink Otsu's
 * threshold finds on the paper alone lies above the threshold of the whole page, ground included.
 */
function hidesPrint(data: Uint8Array, all: Uint32Array, marks: Uint8Array): boolean {
  const paperOnly = all.slice();
  for (let i = 0; i < data.length; i++) if (marks[i] === 2) paperOnly[data[i]!]--;
  const [whole, own] = [otsuLevel(all), otsuLevel(paperOnly)];
  let [ink, hidden] = [0, 0];
  for (let v = 0; v <= own; v++) {
    ink += paperOnly[v]!;
    if (v > whole) hidden += paperOnly[v]!;
  }
  return ink > 0 && hidden > HIDDEN_INK * ink;
}

/** The median grey level of a histogram of `n` pixels. */
function medianGrey(counts: Uint32Array, n: number): number {
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += counts[v]!;
    if (seen * 2 >= n) return v;
  }
  return 255;
}
