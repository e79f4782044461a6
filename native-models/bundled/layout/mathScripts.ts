/**
 * Scripts and limits (step 2 of mathLayout.ts): a math word set smaller than a math word (≤ SCRIPT_RATIO of its size)
 * just right of it and raised or lowered (a script), or centred above / below an operator that takes limits, belongs
 * to it; neighbours of the same size and level join it ("s, Rs = 𝓘ᵢ" under a ∑). Distances in the host's type sizes.
 */
import { overlap } from './mathLatex.js';
import { LIMIT_OPERATORS } from './mathSymbols.js';
import { centreY, height, isMath, SCRIPT_RATIO, width, type Glyph, type GlyphIndex } from './mathGlyphs.js';

/** A limit tucks into its operator's extent by at most LIMIT_TUCK and stands off it by at most LIMIT_GAP. */
const LIMIT_TUCK = 0.25;
const LIMIT_GAP = 0.6;
/** A script starts at most SCRIPT_TUCK before its host's end and SCRIPT_GAP after it, overlapping it by at most SCRIPT_OVERLAP of its width. */
const SCRIPT_TUCK = 0.35;
const SCRIPT_GAP = 0.6;
const SCRIPT_OVERLAP = 0.4;
/** How far above or below its host a script's centre may lie: further beside big operators and delimiters. */
const BIG_HOST_REACH = 0.7;
const HOST_REACH = 0.5;
/** Beside a big operator, type centred within this of its axis is on the line's own level. */
const ON_AXIS = 0.15;
/** Same face and a baseline within this: a small capital, not a script. */
const SAME_BASELINE = 0.05;
/** Where a superscript's centre sits above its host's centre, and a subscript's below it. */
const SUPERSCRIPT_RISE = 0.4;
const SUBSCRIPT_DROP = 0.2;
/** A host lies within this many of the script's sizes above or below it, and beside it. */
const HOST_SEARCH_Y = 3;
const HOST_SEARCH_X = 4;
/** A satellite's neighbour: gap at most NEIGHBOUR_GAP, overlapping in x at most X_OVERLAP, in height at least Y_OVERLAP (of the smaller). */
const NEIGHBOUR_GAP = 0.5;
const X_OVERLAP = 0.5;
const Y_OVERLAP = 0.3;
/** Two script sizes within this share of the larger are the same level's. */
const SIZE_TOLERANCE = 0.15;

function limitOf(w: Glyph, h: Glyph): boolean {
  if (!h.bigOperator || !LIMIT_OPERATORS.has(h.bigOperator)) return false;
  if (overlap(w.box[0], w.box[2], h.box[0], h.box[2]) <= 0) return false;
  const below = w.box[1] >= h.vbox[3] - LIMIT_TUCK * h.size && w.box[1] - h.vbox[3] <= LIMIT_GAP * h.size;
  const above = w.box[3] <= h.vbox[1] + LIMIT_TUCK * h.size && h.vbox[1] - w.box[3] <= LIMIT_GAP * h.size;
  return below || above;
}

function scriptOf(w: Glyph, h: Glyph): boolean {
  if (w.box[0] < h.box[2] - SCRIPT_TUCK * h.size || w.box[0] > h.box[2] + SCRIPT_GAP * h.size) return false;
  if (overlap(w.box[0], w.box[2], h.box[0], h.box[2]) > SCRIPT_OVERLAP * width(w.box)) return false;
  const reach = (h.bigOperator || h.delimiter ? BIG_HOST_REACH : HOST_REACH) * h.size;
  const centre = centreY(w.box);
  if (centre < h.vbox[1] - reach || centre > h.vbox[3] + reach) return false;
  // Beside a large operator or delimiter, smaller type on the line's own level is the formula going on (∑ ζ).
  if ((h.bigOperator || h.delimiter) && Math.abs(centre - centreY(h.vbox)) < ON_AXIS * h.size) return false;
  // Smaller type of the same face on the same baseline (a small capital, a smaller label) is no script.
  if (h.word && w.word && h.family === w.family && Math.abs(w.box[3] - h.box[3]) <= SAME_BASELINE * h.size) return false;
  return true;
}

/** How far a script sits from where a script of this host is set (smaller is likelier), in host sizes. */
function scriptCost(w: Glyph, h: Glyph): number {
  const hostCentre = centreY(h.vbox);
  const centre = centreY(w.box);
  const raised = Math.abs(centre - (hostCentre - SUPERSCRIPT_RISE * h.size));
  const lowered = Math.abs(centre - (hostCentre + SUBSCRIPT_DROP * h.size));
  return (Math.abs(w.box[0] - h.box[2]) + Math.min(raised, lowered)) / h.size;
}

export function attachScripts(glyphs: Glyph[], index: GlyphIndex): void {
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
    for (const h of index.near(w.box[1] - HOST_SEARCH_Y * w.size, w.box[3] + HOST_SEARCH_Y * w.size, w.box[0] - HOST_SEARCH_X * w.size, w.box[2] + HOST_SEARCH_X * w.size)) {
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
      if (gap > NEIGHBOUR_GAP * Math.min(w.size, s.size)) continue;
      if (overlap(w.box[0], w.box[2], s.box[0], s.box[2]) > X_OVERLAP * Math.min(width(w.box), width(s.box))) continue;
      if (overlap(w.box[1], w.box[3], s.box[1], s.box[3]) < Y_OVERLAP * Math.min(height(w.box), height(s.box))) continue;
      // The level w continues: the satellite's own, or one further up when w is larger (ψ_{x_i}(gu): "(" follows
      // the second-order "i" but is of ψ's size, a script of ζ).
      let child = s;
      while (child.host && (w.size > SCRIPT_RATIO * child.host.size || w.size < child.size - SIZE_TOLERANCE * Math.max(w.size, child.size))) {
        if (w.size < child.size) break;
        child = child.host;
      }
      if (!child.host || w.size > SCRIPT_RATIO * child.host.size || Math.abs(w.size - child.size) > SIZE_TOLERANCE * Math.max(w.size, child.size)) continue;
      w.host = child.host;
      queue.push(w);
    }
  }
}
