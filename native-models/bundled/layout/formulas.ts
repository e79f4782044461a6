/**
 * Formulas in the page's Markdown. Before layout, `foldFormulas` finds the formulas the words carry (mathLayout.ts:
 * scripts, limits, fractions, math fonts and symbols) and replaces each formula's words by one word that stands for
 * it — its box the formula's, its text the words' plain text (for tables, headers and anything that reads text), its
 * `formula` the LaTeX. Layout then places it like any word, and `rowWithFormulas` writes it as `$…$`, or `$$…$$`
 * when it is displayed alone on its row.
 */
import type { Box } from '../../../app/model/extraction.js';
import { median, unionBox, type LayoutWord } from './layoutTypes.js';
import { findFormulas } from './mathLayout.js';

export interface FoldedWords {
  words: LayoutWord[];
  /** The rulings not used as fraction bars (the rest are evidence for tables). */
  rulings: Box[];
}

export function foldFormulas(words: readonly LayoutWord[], rulings: readonly Box[] = []): FoldedWords {
  const formulas = findFormulas(words, rulings);
  if (formulas.length === 0) return { words: [...words], rulings: [...rulings] };
  const replaced = new Map<number, LayoutWord | null>();
  for (const formula of formulas) {
    const members = formula.words.map((i) => words[i]);
    const inReadingOrder = [...members].sort((a, b) => a.box[0] - b.box[0]);
    const word: LayoutWord = {
      text: inReadingOrder.map((w) => w.text).join(' '),
      box: unionBox(members.map((w) => w.box)),
      confidence: Math.min(...members.map((w) => w.confidence)),
      fontSize: median(members.map((w) => w.fontSize)),
      formula: { latex: formula.latex, display: formula.display },
    };
    if (members[0].fontName !== undefined) word.fontName = members[0].fontName;
    if (members[0].lineKey !== undefined) word.lineKey = members[0].lineKey;
    formula.words.forEach((i, k) => replaced.set(i, k === 0 ? word : null));
  }
  const used = new Set(formulas.flatMap((f) => f.rulings));
  return {
    words: words.flatMap((word, i) => {
      const replacement = replaced.get(i);
      return replacement === undefined ? [word] : replacement ? [replacement] : [];
    }),
    rulings: rulings.filter((_, i) => !used.has(i)),
  };
}

/**
 * A row's Markdown when it holds a formula: formulas as `$…$` (`$$…$$` for a displayed formula alone on its row),
 * the other words through `escape`. Null when the row has no formula (the caller writes it as before).
 */
export function rowWithFormulas(words: readonly LayoutWord[], escape: (text: string) => string): string | null {
  if (!words.some((w) => w.formula)) return null;
  return words
    .map((w) => (w.formula ? (w.formula.display && words.length === 1 ? `$$${w.formula.latex}$$` : `$${w.formula.latex}$`) : escape(w.text)))
    .join(' ');
}
