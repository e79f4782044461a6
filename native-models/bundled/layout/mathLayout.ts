/**
 * Finds the formulas a page's text layer carries, from glyph geometry and fonts, before the words are cut into lines:
 * a formula's scripts, limits and fraction parts sit above and below its line and would otherwise be read as lines
 * of their own ("b ρ" / "∫ f(x) dx = …" / "a").
 *
 * 1. Fractions: a thin horizontal ruling with math directly above and below it, centred on it, alone on their own
 *    levels, beside math on its axis (or holding math glyphs) → one fraction atom. Shorter rulings first, so nested
 *    fractions build inside out.
 * 2. Scripts and limits: a math word set smaller than a math word (≤ 0.88×) just right of it and raised or lowered
 *    (a script), or centred above / below an operator that takes limits, belongs to it; neighbours of the same size
 *    and level join it ("s, Rs = 𝓘ᵢ" under a ∑).
 * 3. Formulas: the remaining words of each line that are math (mathSymbols.ts `mathStrength`), joined while they
 *    stay side by side (a gap under one type size, no prose word between); punctuation, a relation or an unmatched
 *    bracket at either end stays text.
 * 4. Never invent: a run becomes a formula only with evidence — a script or limit on a variable, a symbol or a
 *    bracket; a fraction; or three or more atoms with an operator, a variable and a math symbol, Greek letter or math
 *    font. Prose, footnote marks on words and plain numbers stay text.
 * A formula alone on its line (within its column) is display math, else inline.
 */
import type { Box } from '../../../app/model/extraction.js';
import { median, unionBox, type LayoutWord } from './layoutTypes.js';
import { atomsLatex, overlap, type MathAtom } from './mathLatex.js';
import {
  BINARY_TEXT,
  bigOperatorOf,
  fontFamily,
  fontTraits,
  FUNCTION_NAMES,
  LIMIT_OPERATORS,
  mathStrength,
  isGreekOrSymbol,
  mathText,
  OPERATOR_TEXT,
  wordLatex,
  type MathStrength,
} from './mathSymbols.js';

export interface Formula {
  /** Indices (into the words given) of every word the formula is made of. */
  words: number[];
  latex: string;
  display: boolean;
  box: Box;
  /** Indices of the rulings drawn as its fraction bars. */
  rulings: number[];
}

interface Glyph {
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
const SCRIPT_RATIO = 0.88;
/** Ruling thickness (px) up to which a line can be a fraction bar. */
const MAX_BAR_THICKNESS = 4;

export function findFormulas(words: readonly LayoutWord[], rulings: readonly Box[] = []): Formula[] {
  const glyphs = words.map(toGlyph);
  const index = new GlyphIndex(glyphs);
  findFractions(glyphs, rulings, index);
  attachScripts(glyphs, index);
  return buildFormulas(glyphs, index);
}

function toGlyph(word: LayoutWord, index: number): Glyph {
  const traits = fontTraits(word.fontName);
  const text = mathText(word);
  const bigOperator = bigOperatorOf(word);
  const size = word.fontSize > 0 ? word.fontSize : word.box[3] - word.box[1];
  let vbox = word.box;
  if (traits.extension) vbox = [word.box[0], word.box[1], word.box[2], Math.max(word.box[3], word.box[1] + (bigOperator ? 1.2 : 2.2) * size)];
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
class GlyphIndex {
  private readonly buckets = new Map<number, Glyph[]>();
  private readonly cell: number;
  private query = 0;

  constructor(glyphs: readonly Glyph[]) {
    this.cell = 2 * Math.max(4, median(glyphs.map((g) => g.size)) || 12);
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

const isMath = (g: Glyph): boolean => g.strength !== 'prose';
const centreY = (b: Box): number => (b[1] + b[3]) / 2;
const height = (b: Box): number => b[3] - b[1];
const width = (b: Box): number => b[2] - b[0];

// ---------------------------------------------------------------------------------------------------------------
// 1. Fractions

function findFractions(glyphs: Glyph[], rulings: readonly Box[], index: GlyphIndex): void {
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

/**
 * Where a glyph's baseline lies, estimated from its box: fonts' boxes run from their ascent to their descent, and the
 * descent is about a quarter of the box.
 */
const baselineOf = (g: Glyph): number => g.box[3] - 0.25 * height(g.box);

/** A ruling that is a table's cell border: it meets a vertical ruling or continues another horizontal one. */
function isCellBorder(bar: Box, rulings: readonly Box[], size: number): boolean {
  const near = 0.3 * size;
  return rulings.some((r) => {
    if (r === bar) return false;
    const vertical = height(r) > width(r);
    if (vertical) {
      const touchesEnd = Math.min(Math.abs(r[0] - bar[0]), Math.abs(r[2] - bar[2]), Math.abs(r[2] - bar[0]), Math.abs(r[0] - bar[2])) <= near;
      return touchesEnd && r[1] - near <= bar[3] && r[3] + near >= bar[1];
    }
    const collinear = Math.abs(centreY(r) - centreY(bar)) <= 2;
    return collinear && (Math.abs(r[0] - bar[2]) <= near || Math.abs(bar[0] - r[2]) <= near);
  });
}

function fractionAt(bar: Box, rulings: readonly Box[], index: GlyphIndex): { numerator: Glyph[]; denominator: Glyph[] } | null {
  const length = width(bar);
  const around = index.near(bar[1] - 200, bar[3] + 200, bar[0] - 150, bar[2] + 150).filter((g) => !g.consumed);
  const inside = (g: Glyph): boolean => {
    const slack = 0.3 * g.size;
    const centre = (g.box[0] + g.box[2]) / 2;
    return centre >= bar[0] && centre <= bar[2] && g.box[0] >= bar[0] - slack && g.box[2] <= bar[2] + slack;
  };
  // The nearest level above the bar (baselines just above it) and the nearest below (type tops under it).
  const above = around.filter((g) => inside(g) && baselineOf(g) <= bar[1] + 0.15 * g.size && baselineOf(g) >= bar[1] - 1.1 * g.size);
  const below = around.filter(
    (g) => inside(g) && baselineOf(g) >= bar[3] + 0.3 * g.size && baselineOf(g) <= bar[3] + 1.6 * g.size && baselineOf(g) - 0.7 * g.size >= bar[3] - 0.1 * g.size,
  );
  if (above.length === 0 || below.length === 0) return null;
  // Levels are those of the parts' full-size type (a superscript in the denominator sits higher than its line).
  const fullSize = (gs: Glyph[]): Glyph[] => gs.filter((g) => g.size >= SCRIPT_RATIO * Math.max(...gs.map((o) => o.size)));
  const nearestAbove = Math.max(...fullSize(above).map(baselineOf));
  const nearestBelow = Math.min(...fullSize(below).map(baselineOf));
  const numeratorSeeds = fullSize(above).filter((g) => baselineOf(g) >= nearestAbove - 0.35 * g.size);
  const denominatorSeeds = fullSize(below).filter((g) => baselineOf(g) <= nearestBelow + 0.35 * g.size);
  if (numeratorSeeds.length > 20 || denominatorSeeds.length > 20) return null;
  const size = Math.max(...[...numeratorSeeds, ...denominatorSeeds].map((g) => g.size));
  if (isCellBorder(bar, rulings, size)) return null;
  // The parts' own scripts: smaller glyphs inside the bar's span on the parts' levels.
  const withScripts = (seeds: Glyph[], over: boolean): Glyph[] => {
    const seedSize = Math.max(...seeds.map((g) => g.size));
    const top = Math.min(...seeds.map((g) => g.box[1])) - 0.5 * seedSize;
    const bottom = Math.max(...seeds.map((g) => g.box[3])) + 0.5 * seedSize;
    const scripts = around.filter(
      (g) =>
        !seeds.includes(g) &&
        inside(g) &&
        g.size <= SCRIPT_RATIO * seedSize &&
        g.box[1] < bottom &&
        g.box[3] > top &&
        (over ? baselineOf(g) <= bar[1] + 0.15 * g.size : baselineOf(g) - 0.7 * g.size >= bar[3] - 0.1 * g.size),
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
  if (widest < 0.5 * length || widest > length + 0.8 * size) return null;
  const barCentre = (bar[0] + bar[2]) / 2;
  if (extents.some((e) => Math.abs((e[0] + e[2]) / 2 - barCentre) > 0.2 * length + 0.3 * size)) return null;
  // Each part is alone on its level: an underline under a word of a line has that line's words beside it. (Glyphs
  // on the bar's axis, the "=" before the fraction, are beside the bar, not beside a part.)
  const axis = centreY(bar);
  for (const [k, seeds] of [numeratorSeeds, denominatorSeeds].entries()) {
    const extent = extents[k];
    const beside = around.some(
      (g) =>
        !numerator.includes(g) &&
        !denominator.includes(g) &&
        Math.abs(centreY(g.vbox) - axis) > 0.35 * g.size &&
        g.box[2] >= extent[0] - 0.8 * size &&
        g.box[0] <= extent[2] + 0.8 * size &&
        seeds.some((p) => overlap(p.box[1], p.box[3], g.box[1], g.box[3]) >= 0.7 * Math.min(height(p.box), height(g.box))),
    );
    if (beside) return null;
  }
  // Math beside the bar on its axis (− ∂B/∂t, = ρ/ε₀), or math glyphs in the parts.
  const onAxis = around.some(
    (g) =>
      isMath(g) &&
      !numerator.includes(g) &&
      !denominator.includes(g) &&
      Math.abs(centreY(g.vbox) - axis) <= 0.35 * g.size &&
      ((g.box[2] <= bar[0] + 0.2 * g.size && bar[0] - g.box[2] <= 1.5 * g.size) || (g.box[0] >= bar[2] - 0.2 * g.size && g.box[0] - bar[2] <= 1.5 * g.size)),
  );
  const strongParts = [...numerator, ...denominator].some((g) => g.strength === 'strong');
  return onAxis || strongParts ? { numerator, denominator } : null;
}

// ---------------------------------------------------------------------------------------------------------------
// 2. Scripts and limits

/** A word that can carry a script: a variable, number, closing bracket, symbol, operator with limits or fraction. */
function canHost(g: Glyph): boolean {
  if (g.fraction || g.bigOperator || g.delimiter) return true;
  const last = [...g.text].at(-1) ?? '';
  if (BINARY_TEXT.test(g.text) || /[([{,.;:]$/u.test(last)) return false;
  return /[\p{L}\p{N})\]}|′'!*∗†‡∞∇∂]/u.test(last);
}

function limitOf(w: Glyph, h: Glyph): boolean {
  if (!h.bigOperator || !LIMIT_OPERATORS.has(h.bigOperator)) return false;
  if (overlap(w.box[0], w.box[2], h.box[0], h.box[2]) <= 0) return false;
  const below = w.box[1] >= h.vbox[3] - 0.25 * h.size && w.box[1] - h.vbox[3] <= 0.6 * h.size;
  const above = w.box[3] <= h.vbox[1] + 0.25 * h.size && h.vbox[1] - w.box[3] <= 0.6 * h.size;
  return below || above;
}

function scriptOf(w: Glyph, h: Glyph): boolean {
  if (w.box[0] < h.box[2] - 0.35 * h.size || w.box[0] > h.box[2] + 0.6 * h.size) return false;
  if (overlap(w.box[0], w.box[2], h.box[0], h.box[2]) > 0.4 * width(w.box)) return false;
  const reach = (h.bigOperator || h.delimiter ? 0.7 : 0.5) * h.size;
  const centre = centreY(w.box);
  if (centre < h.vbox[1] - reach || centre > h.vbox[3] + reach) return false;
  // Beside a large operator or delimiter, smaller type on the line's own level is the formula going on (∑ ζ).
  if ((h.bigOperator || h.delimiter) && Math.abs(centre - centreY(h.vbox)) < 0.15 * h.size) return false;
  // Smaller type of the same face on the same baseline (a small capital, a smaller label) is no script.
  if (h.word && w.word && h.family === w.family && Math.abs(w.box[3] - h.box[3]) <= 0.05 * h.size) return false;
  return true;
}

/** How far a script sits from where a script of this host is set (smaller is likelier), in host sizes. */
function scriptCost(w: Glyph, h: Glyph): number {
  const hostCentre = centreY(h.vbox);
  const centre = centreY(w.box);
  const raised = Math.abs(centre - (hostCentre - 0.4 * h.size));
  const lowered = Math.abs(centre - (hostCentre + 0.2 * h.size));
  return (Math.abs(w.box[0] - h.box[2]) + Math.min(raised, lowered)) / h.size;
}

function attachScripts(glyphs: Glyph[], index: GlyphIndex): void {
  const math = glyphs.filter((g) => !g.consumed && isMath(g));
  // Limits first, with the neighbours that extend them ("s , Rs = 𝓘ᵢ" wider than its ∑); then scripts.
  attach(math, index, limitOf);
  attach(math, index, scriptOf);
  // A host chain never loops (hosts are strictly larger); guard anyway, then record each host's satellites.
  for (const g of math) {
    const seen = new Set<Glyph>([g]);
    for (let h = g.host; h; h = h.host) {
      if (seen.has(h)) {
        g.host = undefined;
        break;
      }
      seen.add(h);
    }
  }
  for (const g of math) g.host?.satellites.push(g);
}

function ancestors(g: Glyph): Glyph[] {
  const found: Glyph[] = [];
  for (let h = g.host; h && !found.includes(h); h = h.host) found.push(h);
  return found;
}

function attach(math: readonly Glyph[], index: GlyphIndex, relation: (w: Glyph, h: Glyph) => boolean): void {
  const attached: Glyph[] = [];
  for (const w of math) {
    // Big delimiters are as tall as what they enclose: never a script.
    if (w.host || w.delimiter) continue;
    let best: Glyph | undefined;
    let bestCost = Infinity;
    // Hosts are at most a few times larger than their scripts and end near where the script starts.
    for (const h of index.near(w.box[1] - 3 * w.size, w.box[3] + 3 * w.size, w.box[0] - 4 * w.size, w.box[2] + 4 * w.size)) {
      if (w.size > SCRIPT_RATIO * h.size || !h.hostable || h === w || h.consumed || !relation(w, h)) continue;
      // The host it is set closest to as a script (a subscript between two lines belongs to the line above).
      const cost = scriptCost(w, h);
      if (cost < bestCost) [best, bestCost] = [h, cost];
    }
    if (best) {
      w.host = best;
      attached.push(w);
    }
  }
  // Neighbours of a satellite on its level and of its size belong to the same host.
  const queue = [...attached];
  while (queue.length) {
    const s = queue.pop()!;
    for (const w of index.near(s.box[1], s.box[3], s.box[0] - s.size, s.box[2] + s.size)) {
      if (w.host || w === s || w.consumed || w.delimiter || !isMath(w) || ancestors(s).includes(w)) continue;
      const gap = Math.max(w.box[0] - s.box[2], s.box[0] - w.box[2]);
      if (gap > 0.5 * Math.min(w.size, s.size)) continue;
      if (overlap(w.box[0], w.box[2], s.box[0], s.box[2]) > 0.5 * Math.min(width(w.box), width(s.box))) continue;
      if (overlap(w.box[1], w.box[3], s.box[1], s.box[3]) < 0.3 * Math.min(height(w.box), height(s.box))) continue;
      // The level w continues: the satellite's own, or one further up when w is larger (ψ_{x_i}(gu): "(" follows
      // the second-order "i" but is of ψ's size, a script of ζ).
      let child = s;
      while (child.host && (w.size > SCRIPT_RATIO * child.host.size || w.size < child.size - 0.15 * Math.max(w.size, child.size))) {
        if (w.size < child.size) break;
        child = child.host;
      }
      if (!child.host || w.size > SCRIPT_RATIO * child.host.size || Math.abs(w.size - child.size) > 0.15 * Math.max(w.size, child.size)) continue;
      w.host = child.host;
      queue.push(w);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// 3–4. Formulas

function subtree(g: Glyph): Glyph[] {
  return [g, ...g.satellites.flatMap(subtree)];
}

/** Word indices of a glyph and everything it holds (scripts, fraction parts). */
function wordIndices(g: Glyph): number[] {
  const own = g.index >= 0 ? [g.index] : [];
  const parts = g.fraction ? [...g.fraction.numerator, ...g.fraction.denominator].flatMap(wordIndices) : [];
  return [...own, ...parts, ...g.satellites.flatMap(wordIndices)];
}

function buildFormulas(glyphs: Glyph[], index: GlyphIndex): Formula[] {
  const top = glyphs.filter((g) => !g.consumed && !g.host && (g.word !== undefined || g.fraction !== undefined));
  const topSet = new Set(top);
  const extent = new Map<Glyph, Box>(top.map((g) => [g, unionBox(subtree(g).map((s) => s.box))]));
  const parent = new Map<Glyph, Glyph>(top.map((g) => [g, g]));
  const find = (g: Glyph): Glyph => {
    let root = g;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(g, root);
    return root;
  };
  for (const a of top) {
    // A full stop ends a sentence: two formulas either side of it are two ("T₄₅. T₁₆ loops").
    if (!isMath(a) || /^[.;]$/u.test(a.text)) continue;
    const reachRight = extent.get(a)![2];
    let next: Glyph | undefined;
    for (const b of index.near(a.vbox[1], a.vbox[3], a.box[0], reachRight + 3 * a.size)) {
      if (b === a || !topSet.has(b) || b.box[0] <= a.box[0]) continue;
      const size = Math.min(a.size, b.size);
      if (b.box[0] < a.box[2] - 0.3 * size) continue;
      if (overlap(a.vbox[1], a.vbox[3], b.vbox[1], b.vbox[3]) < 0.5 * Math.min(height(a.vbox), height(b.vbox))) continue;
      if (!next || b.box[0] < next.box[0]) next = b;
    }
    // The gap between what the two hold: limits wider than their operator close it.
    if (next && isMath(next) && extent.get(next)![0] - reachRight <= 1.0 * Math.max(a.size, next.size)) parent.set(find(next), find(a));
  }
  const components = new Map<Glyph, Glyph[]>();
  for (const g of top) {
    if (!isMath(g)) continue;
    const root = find(g);
    const members = components.get(root);
    if (members) members.push(g);
    else components.set(root, [g]);
  }

  const formulas: Formula[] = [];
  for (const run of components.values()) {
    run.sort((a, b) => a.box[0] - b.box[0]);
    const { kept, trailing } = trim(run);
    if (kept.length === 0 || !hasEvidence(kept)) continue;
    const members = kept.flatMap(subtree);
    const fractionParts = members.flatMap((g) => (g.fraction ? [...g.fraction.numerator, ...g.fraction.denominator].flatMap(subtree) : []));
    const all = [...members, ...fractionParts];
    const bold = all.filter((g) => g.word && /\p{L}/u.test(g.text)).map((g) => fontTraits(g.word!.fontName).bold);
    const style = { boldLetters: bold.some(Boolean) && all.some((g) => g.word && !fontTraits(g.word.fontName).bold) };
    const box = unionBox(all.map((g) => g.box));
    const display = isAlone(kept, box, trailing, index);
    const absorbed = display ? trailing.filter((g) => /^[.,;]$/u.test(g.text)) : [];
    let latex = atomsLatex(kept.flatMap(subtree).map((g) => toAtom(g, style)));
    if (absorbed.length) latex += absorbed.map((g) => g.text).join('');
    const wordsOf = [...kept, ...absorbed].flatMap(wordIndices).sort((a, b) => a - b);
    formulas.push({
      words: wordsOf,
      latex,
      display,
      box: unionBox([box, ...absorbed.map((g) => g.box)]),
      rulings: members.flatMap(rulingsOf),
    });
  }
  return formulas.sort((a, b) => a.words[0] - b.words[0]);
}

function rulingsOf(g: Glyph): number[] {
  if (!g.fraction) return [];
  return [g.fraction.ruling, ...[...g.fraction.numerator, ...g.fraction.denominator].flatMap((p) => subtree(p).flatMap(rulingsOf))];
}

function toAtom(g: Glyph, style: { boldLetters: boolean }): MathAtom {
  if (g.fraction) {
    const part = (glyphs: Glyph[]): MathAtom[] => glyphs.map((p) => toAtom(p, style));
    return { box: g.box, size: g.size, latex: '', fraction: { numerator: part(g.fraction.numerator), denominator: part(g.fraction.denominator), axis: g.fraction.axis } };
  }
  return {
    box: g.delimiter || g.bigOperator ? g.vbox : g.box,
    size: g.size,
    latex: wordLatex(g.word!, style),
    bigOperator: g.bigOperator !== undefined,
    limits: g.bigOperator !== undefined && LIMIT_OPERATORS.has(g.bigOperator),
    delimiter: g.delimiter,
  };
}

const OPENING = /^[([{⟨⌊⌈]$/u;
const CLOSING = /^[)\]}⟩⌋⌉]$/u;

/** Ends of a run that belong to the sentence: punctuation, a relation or operator, an unmatched bracket. */
function trim(run: Glyph[]): { kept: Glyph[]; trailing: Glyph[] } {
  let [start, end] = [0, run.length];
  const bare = (g: Glyph): boolean => g.satellites.length === 0 && !g.fraction;
  const count = (from: number, to: number, pattern: RegExp): number =>
    run.slice(from, to).flatMap(subtree).reduce((n, g) => n + [...g.text].filter((c) => pattern.test(c)).length, 0);
  let changed = true;
  while (changed && start < end) {
    changed = false;
    const first = run[start];
    const last = run[end - 1];
    // An exercise or list number before a formula ("150.", "b)") is the list's, not the formula's.
    const enumeration = start === 0 && end - start > 1 && /^(\d{1,4}|[a-zA-Z])[.)]$/u.test(first.text);
    if (bare(first) && (enumeration || /^[,.;:!?]+$/u.test(first.text) || BINARY_TEXT.test(first.text) || (CLOSING.test(first.text) && count(start, end, /[)\]}]/u) > count(start, end, /[([{]/u)))) {
      start++;
      changed = true;
    } else if (bare(last) && (/^[,.;:!?]+$/u.test(last.text) || OPERATOR_TEXT.test(last.text) || FUNCTION_NAMES.has(last.text) || (OPENING.test(last.text) && count(start, end, /[([{]/u) > count(start, end, /[)\]}]/u)))) {
      end--;
      changed = true;
    } else if (bare(last) && CLOSING.test(last.text) && count(start, end, /[)\]}]/u) > count(start, end, /[([{]/u)) {
      end--;
      changed = true;
    } else if (bare(first) && OPENING.test(first.text) && count(start, end, /[([{]/u) > count(start, end, /[)\]}]/u)) {
      start++;
      changed = true;
    }
  }
  // A bracket the run does not close (or open) belongs to the sentence, with what lies beyond it: "L_R (R for
  // loop …)", "(e.g., a − a = 0),".
  let depth = 0;
  const opened: number[] = [];
  for (let k = start; k < end; k++) {
    for (const c of run[k].text) {
      if (/[([{⟨⌊⌈]/u.test(c)) opened.push(k);
      else if (/[)\]}⟩⌋⌉]/u.test(c)) {
        if (opened.length) opened.pop();
        else depth++;
      }
    }
    if (depth > 0) {
      if (k > start) end = k;
      else start = k + 1;
      break;
    }
  }
  if (depth === 0 && opened.length) {
    const unclosed = opened[0];
    if (unclosed > start) end = unclosed;
    else if (opened.every((k) => k === start)) start++;
  }
  if (start >= end) return { kept: [], trailing: [] };
  return { kept: run.slice(start, end), trailing: run.slice(end) };
}

/** A glyph set as math: a math or italic font (TeX's variables), a Greek letter or a math symbol. */
function mathLooking(g: Glyph): boolean {
  if (!g.word) return g.fraction !== undefined;
  const traits = fontTraits(g.word.fontName);
  return traits.math || traits.italic || isGreekOrSymbol(g.text);
}

/** Is this run a formula on the page's own evidence? (See the module comment.) */
function hasEvidence(kept: Glyph[]): boolean {
  for (const g of kept.flatMap(subtree)) {
    if (g.fraction) return true;
    if (g.satellites.length === 0) continue;
    if (g.bigOperator || g.delimiter) return true;
    const scripts = g.satellites.flatMap(subtree);
    // A variable (or bracket) with a script, one of them set as math: x², T₄₅, (…)^×. A digit on a word or a
    // number is a footnote mark or a plain number's exponent; smaller type in a text face may be anything.
    const variableHost = /^[\p{L}\p{M}]{1,3}$/u.test(g.text.normalize('NFC')) || /[)\]}|]$/u.test(g.text);
    const symbolicScript = scripts.some((s) => /[\p{L}+\-−=<>×∗′'∈]/u.test(s.text));
    if (variableHost && (mathLooking(g) || scripts.some(mathLooking)) && (symbolicScript || /\p{L}$/u.test(g.text))) return true;
  }
  if (kept.length < 3) return false;
  const operator = kept.some((g) => OPERATOR_TEXT.test(g.text) || /[=<>≤≥≠≈∈⊂⊆→]/u.test(g.text));
  const variable = kept.some((g) => /\p{L}/u.test(g.text));
  // A minus sign alone is no mark of math: prose uses it as a dash.
  const strong = kept.some((g) => g.strength === 'strong' && !/^[−–·]$/u.test(g.text));
  return operator && variable && strong;
}

/** No other word shares the formula's line within two type sizes of it: the formula is displayed. */
function isAlone(kept: Glyph[], box: Box, trailing: Glyph[], index: GlyphIndex): boolean {
  const band = unionBox(kept.map((g) => g.vbox));
  const size = median(kept.map((g) => g.size));
  const own = new Set(kept.flatMap(subtree));
  for (const g of index.near(band[1], band[3], box[0] - 2 * size, box[2] + 2 * size)) {
    if (own.has(g) || g.consumed || g.host || trailing.includes(g) || g.fraction === undefined && g.word === undefined) continue;
    if (overlap(band[1], band[3], g.vbox[1], g.vbox[3]) < 0.5 * Math.min(height(band), height(g.vbox))) continue;
    if (g.box[2] >= box[0] - 2 * size && g.box[0] <= box[2] + 2 * size) return false;
  }
  return true;
}
