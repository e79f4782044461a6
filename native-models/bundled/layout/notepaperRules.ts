/**
 * The printed lines of ruled notepaper (and of ledger pages, lined forms) look like table rules: long horizontal lines
 * of one extent, stacked. They are told apart by their rhythm: many lines at one even spacing, with many of the
 * bands between them left empty. Such lines are no evidence of a table and are taken out before tables are looked
 * for (a table that rules every row has rows of different heights, or no empty rows).
 */
import type { Box } from '../../../app/model/extraction.js';
import { median, type Segment } from './layoutTypes.js';
import { mergeRulings, type RulingLine } from './rulingGrid.js';

/** At least this many evenly spaced lines … */
const MIN_LINES = 8;
/** … each gap within this share of the median gap … */
const EVEN_SPACING = 0.08;
/** … with at least this share of the bands between them empty. */
const MIN_EMPTY_BANDS = 0.3;

export function withoutNotepaperRules(rulings: readonly Box[], segments: readonly Segment[], unit: number): Box[] {
  const tolerance = Math.max(2, 0.3 * unit);
  // Whole lines (a table may draw each cell's border apart), grouped by extent, top to bottom.
  const { horizontal } = mergeRulings(rulings, tolerance);
  const groups: RulingLine[][] = [];
  for (const line of [...horizontal].sort((a, b) => a.pos - b.pos)) {
    const group = groups.find((g) => Math.abs(g[0].start - line.start) <= tolerance && Math.abs(g[0].end - line.end) <= tolerance);
    if (group) group.push(line);
    else groups.push([line]);
  }
  const dropped: RulingLine[] = [];
  for (const group of groups) {
    if (group.length < MIN_LINES) continue;
    const ys = group.map((line) => line.pos);
    const gaps = ys.slice(1).map((y, i) => y - ys[i]);
    const typical = median(gaps);
    if (typical <= tolerance || gaps.some((gap) => Math.abs(gap - typical) > EVEN_SPACING * typical)) continue;
    const [start, end] = [group[0].start, group[0].end];
    const empty = gaps.filter(
      (_, i) =>
        !segments.some((s) => {
          const cy = (s.box[1] + s.box[3]) / 2;
          return cy > ys[i] && cy < ys[i + 1] && s.box[2] > start && s.box[0] < end;
        }),
    ).length;
    if (empty >= MIN_EMPTY_BANDS * gaps.length) dropped.push(...group);
  }
  if (dropped.length === 0) return [...rulings];
  const onDropped = (r: Box): boolean => {
    if (r[2] - r[0] < r[3] - r[1]) return false;
    const y = (r[1] + r[3]) / 2;
    return dropped.some((line) => Math.abs(line.pos - y) <= tolerance && r[0] >= line.start - tolerance && r[2] <= line.end + tolerance);
  };
  return rulings.filter((r) => !onDropped(r));
}
