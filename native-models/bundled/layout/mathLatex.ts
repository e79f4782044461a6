/**
 * A formula's atoms (glyph runs and fractions, with their boxes and sizes) → LaTeX, by the two-dimensional layout
 * the page shows: the atoms of the formula's largest type form its baseline, left to right; every smaller atom
 * belongs to a baseline atom — as a limit when it sits above or below an operator that takes limits (∑ ∏ ⋃ …), else
 * as a superscript or subscript of the nearest baseline atom on its left, by whether its own baseline type sits
 * above or below that atom's centre. Scripts and limits are laid out the same way, recursively, so second-order
 * scripts (ζ_n^{ψ(gs)}, 𝓘_i inside a limit) keep their structure. Nothing is added that the page does not show.
 */
import type { Box } from '../../../app/model/extraction.js';
import { unionBox } from './layoutTypes.js';
import { joinLatex } from './mathSymbols.js';

export interface MathAtom {
  box: Box;
  size: number;
  /** The atom's own LaTeX (glyph runs). */
  latex: string;
  /** A big operator (∑ ∫ …); `limits` when it takes limits above and below. */
  bigOperator?: boolean;
  limits?: boolean;
  /** A big delimiter of the extension font: part of the baseline whatever its size. */
  delimiter?: boolean;
  /** A fraction: numerator and denominator atoms around a rule at `axis`. */
  fraction?: { numerator: MathAtom[]; denominator: MathAtom[]; axis: number };
}

/** An atom smaller than this share of the formula's type size is a script or a limit. */
const SCRIPT_RATIO = 0.88;

export function atomsLatex(atoms: readonly MathAtom[]): string {
  if (atoms.length === 0) return '';
  const plain = atoms.filter((a) => !a.bigOperator && !a.delimiter && !a.fraction);
  const base = Math.max(...(plain.length ? plain : atoms).map((a) => a.size));
  const onBaseline = (a: MathAtom): boolean => Boolean(a.fraction || a.bigOperator || a.delimiter) || a.size >= SCRIPT_RATIO * base;
  const main = atoms.filter(onBaseline).sort((a, b) => a.box[0] - b.box[0]);
  const small = atoms.filter((a) => !onBaseline(a));
  if (main.length === 0) return joinLatex(small.map((a) => a.latex));

  const slots = main.map(() => ({ sub: [] as MathAtom[], sup: [] as MathAtom[] }));
  const before: MathAtom[] = [];
  for (const group of scriptGroups(small)) {
    const box = unionBox(group.map((a) => a.box));
    const coreSize = Math.max(...group.map((a) => a.size));
    const core = unionBox(group.filter((a) => a.size >= SCRIPT_RATIO * coreSize).map((a) => a.box));
    const limitHost = main.findIndex(
      (m) => m.limits && overlap(box[0], box[2], m.box[0], m.box[2]) > 0 && (box[1] >= m.box[3] - 0.25 * m.size || box[3] <= m.box[1] + 0.25 * m.size),
    );
    if (limitHost >= 0) {
      const m = main[limitHost];
      (box[1] >= m.box[3] - 0.25 * m.size ? slots[limitHost].sub : slots[limitHost].sup).push(...group);
      continue;
    }
    let host = -1;
    main.forEach((m, index) => {
      if (m.box[0] < box[0] && (host < 0 || m.box[0] >= main[host].box[0])) host = index;
    });
    if (host < 0) {
      before.push(...group);
      continue;
    }
    const m = main[host];
    const hostCentre = m.fraction ? m.fraction.axis : (m.box[1] + m.box[3]) / 2;
    const centre = (core[1] + core[3]) / 2;
    (centre < hostCentre - 0.08 * (m.box[3] - m.box[1]) ? slots[host].sup : slots[host].sub).push(...group);
  }

  const parts: string[] = [];
  if (before.length) parts.push(`{}^{${atomsLatex(before)}}`);
  main.forEach((m, index) => {
    let latex = m.fraction ? `\\frac{${atomsLatex(m.fraction.numerator)}}{${atomsLatex(m.fraction.denominator)}}` : m.latex;
    const { sub, sup } = slots[index];
    if (sub.length) latex += `_{${atomsLatex(sub)}}`;
    if (sup.length) {
      const upper = atomsLatex(sup);
      // Primes are written as LaTeX writes them: g' rather than g^{'}.
      latex += /^'+$/u.test(upper) ? upper : `^{${upper}}`;
    }
    parts.push(latex);
  });
  return parts.join(' ');
}

/**
 * Small atoms that belong together: side by side (gap under half their size), on one level (their boxes overlap
 * vertically by a third of the smaller), and not stacked (a superscript over a subscript is two groups).
 */
function scriptGroups(atoms: readonly MathAtom[]): MathAtom[][] {
  const sorted = [...atoms].sort((a, b) => a.box[0] - b.box[0]);
  const parent = sorted.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i + 1; j < sorted.length; j++) {
      const [a, b] = [sorted[i], sorted[j]];
      const size = Math.min(a.size, b.size);
      if (b.box[0] - a.box[2] > 0.45 * size) continue;
      const widthOverlap = overlap(a.box[0], a.box[2], b.box[0], b.box[2]);
      if (widthOverlap > 0.5 * Math.min(a.box[2] - a.box[0], b.box[2] - b.box[0])) continue;
      const heightOverlap = overlap(a.box[1], a.box[3], b.box[1], b.box[3]);
      if (heightOverlap < 0.3 * Math.min(a.box[3] - a.box[1], b.box[3] - b.box[1])) continue;
      parent[find(j)] = find(i);
    }
  }
  const groups = new Map<number, MathAtom[]>();
  sorted.forEach((atom, i) => {
    const members = groups.get(find(i));
    if (members) members.push(atom);
    else groups.set(find(i), [atom]);
  });
  return [...groups.values()];
}

export function overlap(a0: number, a1: number, b0: number, b1: number): number {
  return Math.min(a1, b1) - Math.max(a0, b0);
}
