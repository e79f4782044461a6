/**
 * Fractions (step 1 of mathLayout.ts): a thin horizontal ruling with math directly above and below it, centred on it,
 * alone on their own levels, beside math on its axis (or holding math glyphs) → one fraction glyph. Shorter rulings
 * first, so nested fractions build inside out. Distances are in type sizes of the glyphs concerned unless named px.
 */
import type { Box } from '../../../app/model/extraction.js';
import { unionBox } from './layoutTypes.js';
import { overlap } from './mathLatex.js';
import { baselineOf, centreY, height, isMath, SCRIPT_RATIO, width, type Glyph, type GlyphIndex } from './mathGlyphs.js';

/** Ruling thickness (px) up to which a line can be a fraction bar. */
const MAX_BAR_THICKNESS = 4;
/** How far above and below (px) and beside (px) a bar its parts are looked for. */
const SEARCH_Y = 200;
const SEARCH_X = 150;
/** A part may stick out of the bar's span by this much. */
const PART_SLACK = 0.3;
/** A numerator's baseline: at most this far below the bar's top, at most NUMERATOR_RISE above it. */
const NUMERATOR_SINK = 0.15;
const NUMERATOR_RISE = 1.1;
/** A denominator's baseline: between these distances under the bar. */
const DENOMINATOR_MIN_DROP = 0.3;
const DENOMINATOR_MAX_DROP = 1.6;
/** Where type's top lies above its baseline, and how far into the bar it may reach. */
const CAP_HEIGHT = 0.7;
const TOP_INTO_BAR = 0.1;
/** Glyphs within this of a level's baseline (or of the bar's axis) are on it. */
const LEVEL_TOLERANCE = 0.35;
/** A part of more glyphs than this is a text line over a rule, not a fraction's. */
const MAX_PART_GLYPHS = 20;
/** A part's scripts lie within this of its type, above and below. */
const SCRIPT_BAND = 0.5;
/** The wider part spans at least this share of the bar and overhangs it by at most BAR_OVERHANG. */
const MIN_BAR_COVER = 0.5;
const BAR_OVERHANG = 0.8;
/** Parts are centred on the bar within this share of its length plus CENTRE_SLACK. */
const CENTRE_SHARE = 0.2;
const CENTRE_SLACK = 0.3;
/** A neighbour within this of a part, on its level (overlapping it this much in height), makes the bar an underline. */
const BESIDE_REACH = 0.8;
const SAME_LEVEL_OVERLAP = 0.7;
/** Math on the bar's axis touches it (TOUCH) or is at most AXIS_GAP away. */
const TOUCH = 0.2;
const AXIS_GAP = 1.5;
/** A cell border meets another ruling within this of its end; collinear rulings are within COLLINEAR_PX. */
const BORDER_NEAR = 0.3;
const COLLINEAR_PX = 2;

export function findFractions(glyphs: Glyph[], rulings: readonly Box[], index: GlyphIndex): void {
  const bars = rulings
    .map((box, i) => ({ box, i }))
    .filter(({ box }) => height(box) <= MAX_BAR_THICKNESS && width(box) > 0)
    .sort((a, b) => width(a.box) - width(b.box));
  for (const { box: bar, i } of bars) {
    const fraction = fractionAt(bar, rulings, index);
    if (!fraction) continue;
    const members = [...fraction.numerator, ...fraction.denominator];
    for (const g of members) g.consumed = true;
    const box = unionBox([...members.map((g) => g.box), bar]);
    const glyph: Glyph = {
      index: -1,
      box,
      vbox: box,
      size: Math.max(...members.map((g) => g.size)),
      strength: 'strong',
      text: '',
      delimiter: false,
      fraction: { ...fraction, ruling: i, axis: centreY(bar) },
      satellites: [],
      consumed: false,
      family: '',
      hostable: true,
    };
    glyphs.push(glyph);
    index.add(glyph);
  }
}

/** A ruling that is a table's cell border: it meets a vertical ruling or continues another horizontal one. */
function isCellBorder(bar: Box, rulings: readonly Box[], size: number): boolean {
  const near = BORDER_NEAR * size;
  return rulings.some((r) => {
    if (r === bar) return false;
    const vertical = height(r) > width(r);
    if (vertical) {
      const touchesEnd = Math.min(Math.abs(r[0] - bar[0]), Math.abs(r[2] - bar[2]), Math.abs(r[2] - bar[0]), Math.abs(r[0] - bar[2])) <= near;
      return touchesEnd && r[1] - near <= bar[3] && r[3] + near >= bar[1];
    }
    const collinear = Math.abs(centreY(r) - centreY(bar)) <= COLLINEAR_PX;
    return collinear && (Math.abs(r[0] - bar[2]) <= near || Math.abs(bar[0] - r[2]) <= near);
  });
}

function fractionAt(bar: Box, rulings: readonly Box[], index: GlyphIndex): { numerator: Glyph[]; denominator: Glyph[] } | null {
  const length = width(bar);
  const around = index.near(bar[1] - SEARCH_Y, bar[3] + SEARCH_Y, bar[0] - SEARCH_X, bar[2] + SEARCH_X).filter((g) => !g.consumed);
  const inside = (g: Glyph): boolean => {
    const slack = PART_SLACK * g.size;
    const centre = (g.box[0] + g.box[2]) / 2;
    return centre >= bar[0] && centre <= bar[2] && g.box[0] >= bar[0] - slack && g.box[2] <= bar[2] + slack;
  };
  // The nearest level above the bar (baselines just above it) and the nearest below (type tops under it).
  const above = around.filter((g) => inside(g) && baselineOf(g) <= bar[1] + NUMERATOR_SINK * g.size && baselineOf(g) >= bar[1] - NUMERATOR_RISE * g.size);
  const below = around.filter(
    (g) => inside(g) && baselineOf(g) >= bar[3] + DENOMINATOR_MIN_DROP * g.size && baselineOf(g) <= bar[3] + DENOMINATOR_MAX_DROP * g.size && baselineOf(g) - CAP_HEIGHT * g.size >= bar[3] - TOP_INTO_BAR * g.size,
  );
  if (above.length === 0 || below.length === 0) return null;
  // Levels are those of the parts' full-size type (a superscript in the denominator sits higher than its line).
  const fullSize = (gs: Glyph[]): Glyph[] => gs.filter((g) => g.size >= SCRIPT_RATIO * Math.max(...gs.map((o) => o.size)));
  const nearestAbove = Math.max(...fullSize(above).map(baselineOf));
  const nearestBelow = Math.min(...fullSize(below).map(baselineOf));
  const numeratorSeeds = fullSize(above).filter((g) => baselineOf(g) >= nearestAbove - LEVEL_TOLERANCE * g.size);
  const denominatorSeeds = fullSize(below).filter((g) => baselineOf(g) <= nearestBelow + LEVEL_TOLERANCE * g.size);
  if (numeratorSeeds.length > MAX_PART_GLYPHS || denominatorSeeds.length > MAX_PART_GLYPHS) return null;
  const size = Math.max(...[...numeratorSeeds, ...denominatorSeeds].map((g) => g.size));
  if (isCellBorder(bar, rulings, size)) return null;
  // The parts' own scripts: smaller glyphs inside the bar's span on the parts' levels.
  const withScripts = (seeds: Glyph[], over: boolean): Glyph[] => {
    const seedSize = Math.max(...seeds.map((g) => g.size));
    const top = Math.min(...seeds.map((g) => g.box[1])) - SCRIPT_BAND * seedSize;
    const bottom = Math.max(...seeds.map((g) => g.box[3])) + SCRIPT_BAND * seedSize;
    const scripts = around.filter(
      (g) =>
        !seeds.includes(g) &&
        inside(g) &&
        g.size <= SCRIPT_RATIO * seedSize &&
        g.box[1] < bottom &&
        g.box[3] > top &&
        (over ? baselineOf(g) <= bar[1] + NUMERATOR_SINK * g.size : baselineOf(g) - CAP_HEIGHT * g.size >= bar[3] - TOP_INTO_BAR * g.size),
    );
    return [...seeds, ...scripts];
  };
  const numerator = withScripts(numeratorSeeds, true);
  const denominator = withScripts(denominatorSeeds, false);
  const parts = [numerator, denominator];
  if (parts.some((part) => part.some((g) => !isMath(g)))) return null;
  // The bar is as long as the wider part and both parts are centred on it.
  const extents = parts.map((part) => unionBox(part.map((g) => g.box)));
  const widest = Math.max(...extents.map(width));
  if (widest < MIN_BAR_COVER * length || widest > length + BAR_OVERHANG * size) return null;
  const barCentre = (bar[0] + bar[2]) / 2;
  if (extents.some((e) => Math.abs((e[0] + e[2]) / 2 - barCentre) > CENTRE_SHARE * length + CENTRE_SLACK * size)) return null;
  // Each part is alone on its level: an underline under a word of a line has that line's words beside it. (Glyphs
  // on the bar's axis, the "=" before the fraction, are beside the bar, not beside a part.)
  const axis = centreY(bar);
  for (const [k, seeds] of [numeratorSeeds, denominatorSeeds].entries()) {
    const extent = extents[k];
    const beside = around.some(
      (g) =>
        !numerator.includes(g) &&
        !denominator.includes(g) &&
        Math.abs(centreY(g.vbox) - axis) > LEVEL_TOLERANCE * g.size &&
        g.box[2] >= extent[0] - BESIDE_REACH * size &&
        g.box[0] <= extent[2] + BESIDE_REACH * size &&
        seeds.some((p) => overlap(p.box[1], p.box[3], g.box[1], g.box[3]) >= SAME_LEVEL_OVERLAP * Math.min(height(p.box), height(g.box))),
    );
    if (beside) return null;
  }
  // Math beside the bar on its axis (− ∂B/∂t, = ρ/ε₀), or math glyphs in the parts.
  const onAxis = around.some(
    (g) =>
      isMath(g) &&
      !numerator.includes(g) &&
      !denominator.includes(g) &&
      Math.abs(centreY(g.vbox) - axis) <= LEVEL_TOLERANCE * g.size &&
      ((g.box[2] <= bar[0] + TOUCH * g.size && bar[0] - g.box[2] <= AXIS_GAP * g.size) || (g.box[0] >= bar[2] - TOUCH * g.size && g.box[0] - bar[2] <= AXIS_GAP * g.size)),
  );
  const strongParts = [...numerator, ...denominator].some((g) => g.strength === 'strong');
  return onAxis || strongParts ? { numerator, denominator } : null;
}
