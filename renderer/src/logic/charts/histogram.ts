/**
 * Score histograms over [0, 1]. The main side bins the combined score into ten bins (bin i counts [i/10, (i+1)/10),
 * the last bin includes 1); `binScores` is the same rule for scores the renderer holds itself, and
 * `completeHistogram` turns whatever bins arrived into exactly `binCount` contiguous bins so the chart never has holes.
 */

export interface HistogramBin {
  from: number;
  to: number;
  count: number;
}

/** Bins scores in [0, 1] into `binCount` equal bins; values outside [0, 1] or NaN are clamped/dropped. */
export function binScores(scores: readonly number[], binCount = 10): HistogramBin[] {
  const bins = emptyBins(binCount);
  for (const score of scores) {
    if (!Number.isFinite(score)) continue;
    const clamped = Math.min(1, Math.max(0, score));
    const index = Math.min(binCount - 1, Math.floor(clamped * binCount + 1e-9));
    bins[index]!.count += 1;
  }
  return bins;
}

/** `binCount` bins with the counts of the given ones placed by their lower edge; unknown bins count 0. */
export function completeHistogram(bins: readonly HistogramBin[], binCount = 10): HistogramBin[] {
  const complete = emptyBins(binCount);
  for (const bin of bins) {
    if (!Number.isFinite(bin.from) || !(bin.count > 0)) continue;
    const index = Math.min(binCount - 1, Math.max(0, Math.floor(bin.from * binCount + 1e-9)));
    complete[index]!.count += bin.count;
  }
  return complete;
}

function emptyBins(binCount: number): HistogramBin[] {
  return Array.from({ length: binCount }, (_, i) => ({ from: i / binCount, to: (i + 1) / binCount, count: 0 }));
}

/** "0.9–1.0" for the bin's label and tooltip. */
export function binLabel(bin: HistogramBin): string {
  return `${bin.from.toFixed(1)}–${bin.to.toFixed(1)}`;
}
