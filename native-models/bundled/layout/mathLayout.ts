/**
 * Finds the formulas a page's text layer carries, from glyph geometry and fonts, before the words are cut into lines:
 * a formula's scripts, limits and fraction parts sit above and below its line and would otherwise be read as lines
 * of their own ("b ρ" / "∫ f(x) dx = …" / "a").
 *
 * 1. Fractions (mathFractions.ts): a thin horizontal ruling with math directly above and below it, centred on it,
 *    alone on their own levels, beside math on its axis (or holding math glyphs) → one fraction atom. Shorter
 *    rulings first, so nested fractions build inside out.
 * 2. Scripts and limits (mathScripts.ts): a math word set smaller than a math word (≤ 0.88×, SCRIPT_RATIO) just right
 *    of it and raised or lowered (a script), or centred above / below an operator that takes limits, belongs to it;
 *    neighbours of the same size and level join it ("s, Rs = 𝓘ᵢ" under a ∑).
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
import { findFractions } from './mathFractions.js';
import { GlyphIndex, height, isMath, subtree, toGlyph, type Glyph } from './mathGlyphs.js';
import { attachScripts } from './mathScripts.js';
import { BINARY_TEXT, FUNCTION_NAMES, fontTraits, isGreekOrSymbol, LIMIT_OPERATORS, OPERATOR_TEXT, wordLatex } from './mathSymbols.js';

export interface Formula {
  /** Indices (into the words given) of every word the formula is made of. */
  words: number[];
  latex: string;
  display: boolean;
  box: Box;
  /** Indices of the rulings drawn as its fraction bars. */
  rulings: number[];
}

/** A math word joins the run on its left when it starts at most JOIN_GAP of their larger size after what that run holds. */
const JOIN_GAP = 1.0;
/** Where the next word on the line is looked for: this many type sizes right of what a word holds. */
const NEXT_WORD_REACH = 3;
/** Side by side: the next word may start at most this before the word's end and shares at least LINE_OVERLAP of its height. */
const NEXT_WORD_TUCK = 0.3;
const LINE_OVERLAP = 0.5;
/** A formula is displayed when no other word lies within this many type sizes of it on its line. */
const DISPLAY_CLEARANCE = 2;

export function findFormulas(words: readonly LayoutWord[], rulings: readonly Box[] = []): Formula[] {
  const glyphs = words.map(toGlyph);
  const index = new GlyphIndex(glyphs);
  findFractions(glyphs, rulings, index);
  attachScripts(glyphs, index);
  return buildFormulas(glyphs, index);
}

// ---------------------------------------------------------------------------------------------------------------
// 3–4. Formulas

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
    for (const b of index.near(a.vbox[1], a.vbox[3], a.box[0], reachRight + NEXT_WORD_REACH * a.size)) {
      if (b === a || !topSet.has(b) || b.box[0] <= a.box[0]) continue;
      const size = Math.min(a.size, b.size);
      if (b.box[0] < a.box[2] - NEXT_WORD_TUCK * size) continue;
      if (overlap(a.vbox[1], a.vbox[3], b.vbox[1], b.vbox[3]) < LINE_OVERLAP * Math.min(height(a.vbox), height(b.vbox))) continue;
      if (!next || b.box[0] < next.box[0]) next = b;
    }
    // The gap between what the two hold: limits wider than their operator close it.
    if (next && isMath(next) && extent.get(next)![0] - reachRight <= JOIN_GAP * Math.max(a.size, next.size)) parent.set(find(next), find(a));
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
  for (const g of index.near(band[1], band[3], box[0] - DISPLAY_CLEARANCE * size, box[2] + DISPLAY_CLEARANCE * size)) {
    if (own.has(g) || g.consumed || g.host || trailing.includes(g) || g.fraction === undefined && g.word === undefined) continue;
    if (overlap(band[1], band[3], g.vbox[1], g.vbox[3]) < LINE_OVERLAP * Math.min(height(band), height(g.vbox))) continue;
    if (g.box[2] >= box[0] - DISPLAY_CLEARANCE * size && g.box[0] <= box[2] + DISPLAY_CLEARANCE * size) return false;
  }
  return true;
}
