/**
 * The arithmetic behind the curation charts: linear scales and "nice" axis ticks (1, 2, 2.5 or 5 times a power of
 * ten), so a chart's axis reads 0, 5, 10, 15 rather than 0, 4.33, 8.67.
 */

/** Maps a value of [domainMin, domainMax] onto [rangeMin, rangeMax] (SVG y grows downwards: pass the range flipped). */
export function linearScale(domain: readonly [number, number], range: readonly [number, number]): (value: number) => number {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0;
  if (span === 0) return () => (r0 + r1) / 2;
  return (value) => r0 + ((value - d0) / span) * (r1 - r0);
}

const niceSteps = [1, 2, 2.5, 5, 10];

/** The smallest nice step that covers `span` in at most `maxTicks - 1` intervals. */
export function niceStep(span: number, maxTicks: number): number {
  if (!(span > 0) || !Number.isFinite(span)) return 1;
  const intervals = Math.max(1, maxTicks - 1);
  const rough = span / intervals;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = niceSteps.find((candidate) => candidate * magnitude >= rough * (1 - 1e-9)) ?? 10;
  return step * magnitude;
}

/**
 * Ticks from a nice number at or below `min` to one at or above `max`, at most `maxTicks` of them.
 * `integer` forces whole-number steps (counts of pages cannot be 2.5). An empty domain (max = min) gets a unit span.
 */
export function niceTicks(min: number, max: number, maxTicks = 5, integer = false): number[] {
  let low = Math.min(min, max);
  let high = Math.max(min, max);
  if (high === low) high = low + 1;
  let step = niceStep(high - low, maxTicks);
  if (integer) step = Math.max(1, Math.ceil(step));
  low = Math.floor(low / step + 1e-9) * step;
  high = Math.ceil(high / step - 1e-9) * step;
  const ticks: number[] = [];
  // Rounding to the step's precision keeps 0.30000000000000004 off the axis.
  const decimals = Math.max(0, -Math.floor(Math.log10(step)) + 1);
  for (let value = low; value <= high + step / 2; value += step) ticks.push(Number(value.toFixed(decimals)));
  return ticks;
}

/** A score in [0, 1] as the UI shows it: two decimals, "–" where the check does not apply. */
export function formatScore(score: number | null | undefined): string {
  return score === null || score === undefined || Number.isNaN(score) ? '–' : score.toFixed(2);
}

/** A fraction as a percentage for axis labels: 0.25 → "25 %", 0.025 → "2.5 %". */
export function formatPercent(fraction: number): string {
  const percent = fraction * 100;
  const rounded = Math.abs(percent) >= 10 || Number.isInteger(percent) ? Math.round(percent) : Number(percent.toFixed(1));
  return `${rounded} %`;
}
