/**
 * The grey page image and its grey-level statistics, shared by the page preparation modules (ocrImage.ts,
 * darkSurround.ts, printRegion.ts): a histogram and Otsu's threshold over it.
 */

/** One grey channel, row-major, `data.length === width * height`. */
export interface GreyImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** How many pixels of `data` take each grey level 0–255. */
export function greyHistogram(data: Uint8Array): Uint32Array {
  const counts = new Uint32Array(256);
  for (let i = 0; i < data.length; i++) counts[data[i]!]++;
  return counts;
}

/** Otsu's threshold of a histogram: the level that best splits its pixels into two classes (at or under it, above it). */
export function otsuLevel(counts: Uint32Array): number {
  let [total, sum] = [0, 0];
  for (let v = 0; v < 256; v++) [total, sum] = [total + counts[v]!, sum + v * counts[v]!];
  let [below, belowSum, best, threshold] = [0, 0, -1, 128];
  for (let v = 0; v < 256; v++) {
    below += counts[v]!;
    if (below === 0) continue;
    const above = total - below;
    if (above === 0) break;
    belowSum += v * counts[v]!;
    const between = below * above * (belowSum / below - (sum - belowSum) / above) ** 2;
    if (between > best) [best, threshold] = [between, v];
  }
  return threshold;
}
