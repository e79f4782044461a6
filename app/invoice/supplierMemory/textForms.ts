/** Small comparisons memory makes of a page's text and segments (shared by learning, reading and the party blocks). */
import type { Segment } from '../layout.js';

/** Letters and digits only, lowercase: how a name is found in a page's text. */
export const compactText = (text: string): string => text.toLowerCase().replace(/[^\p{L}\d]+/gu, '');

/** Two segments share some width: one stands over the other in a column. */
export const overlaps = (a: Segment, b: Segment): boolean => Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1) > 0;

/** A compacted name shorter than this is not looked for through OCR noise (too many short strings lie one edit apart). */
export const MIN_FUZZY_NAME = 10;
/** OCR noise allowed in a name: one edit per this many characters. */
const FUZZY_CHARS_PER_EDIT = 6;

/** The fewest edits that turn `pattern` into some substring of `text` (Sellers' algorithm), stopping above `limit`. */
export function substringEditDistance(pattern: string, text: string, limit: number): number {
  const m = pattern.length;
  let previous = Array.from({ length: m + 1 }, (_, i) => i);
  let current = new Array<number>(m + 1);
  let best = previous[m]!;
  for (let j = 1; j <= text.length; j++) {
    current[0] = 0;
    const c = text.charCodeAt(j - 1);
    for (let i = 1; i <= m; i++) {
      const cost = pattern.charCodeAt(i - 1) === c ? 0 : 1;
      current[i] = Math.min(previous[i - 1]! + cost, previous[i]! + 1, current[i - 1]! + 1);
    }
    if (current[m]! < best) best = current[m]!;
    if (best === 0) return 0;
    [previous, current] = [current, previous];
  }
  return best <= limit ? best : limit + 1;
}

/** The fewest edits (Levenshtein) that turn `a` into `b`, stopping above `limit` (then limit + 1). */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowBest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      current[j] = Math.min(previous[j - 1]! + cost, previous[j]! + 1, current[j - 1]! + 1);
      if (current[j]! < rowBest) rowBest = current[j]!;
    }
    if (rowBest > limit) return limit + 1;
    [previous, current] = [current, previous];
  }
  return Math.min(previous[b.length]!, limit + 1);
}

/** Edits OCR noise may make in a text of `length` characters: one per FUZZY_CHARS_PER_EDIT, none below MIN_FUZZY_ANCHOR. */
export const MIN_FUZZY_ANCHOR = 6;
export const noiseAllowance = (length: number): number => (length < MIN_FUZZY_ANCHOR ? 0 : Math.floor(length / FUZZY_CHARS_PER_EDIT));

/** Whether `name` (compacted) is printed in `text` (compacted) with at most one edit per FUZZY_CHARS_PER_EDIT characters. */
export function printedWithinNoise(name: string, text: string): boolean {
  if (name.length < MIN_FUZZY_NAME) return text.includes(name);
  const allowed = Math.floor(name.length / FUZZY_CHARS_PER_EDIT);
  return substringEditDistance(name, text, allowed) <= allowed;
}
