/**
 * The weak spots of a reading: words (and elements without words) whose confidence is below the analyst's threshold,
 * each with where it is on the page (box) and in the engine's Markdown (span).
 *
 * Words carry a box and a confidence but no span. A word is placed in the Markdown through the element whose box holds
 * the word's centre: the element's words are looked for in order inside the element's span, each search starting
 * where the previous word ended, so a repeated word ("-", "100") lands on its own occurrence. The Markdown may write a
 * word escaped (`&#36;` in table cells, `\*` in text); those spellings are tried too. A word not found stays tinted on
 * the page but is not underlined.
 */
import type { Box, Element, Extraction, Span } from '../../../app/model/extraction.js';

export interface ConfidenceMark {
  span: Span;
  box: Box;
  confidence: number;
  text: string;
  kind: 'word' | 'element';
}

const centreInside = (box: Box, outer: Box): boolean => {
  const x = (box[0] + box[2]) / 2;
  const y = (box[1] + box[3]) / 2;
  return x >= outer[0] && x <= outer[2] && y >= outer[1] && y <= outer[3];
};

/** The spellings a word may have in the Markdown: as read, HTML-escaped (table cells), Markdown-escaped (text). */
function spellings(word: string): string[] {
  const html = word.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\$/g, '&#36;');
  const markdown = word.replace(/[\\`*_$]/g, (c) => `\\${c}`).replace(/<(?=[A-Za-z/!?])/g, '\\<');
  return [...new Set([word, html, markdown])];
}

/** The first occurrence of the word (any spelling) in [from, limit) whose start is not taken by another word. */
function findFrom(markdown: string, word: string, from: number, limit: number, taken: ReadonlySet<number>): Span | null {
  let best: Span | null = null;
  for (const spelling of spellings(word)) {
    let at = markdown.indexOf(spelling, from);
    while (at >= 0 && taken.has(at)) at = markdown.indexOf(spelling, at + 1);
    if (at >= 0 && at + spelling.length <= limit && (!best || at < best[0])) best = [at, at + spelling.length];
  }
  return best;
}

/** A word outside every element is placed only where the text has exactly one occurrence of it. */
function findUnique(markdown: string, word: string, taken: ReadonlySet<number>): Span | null {
  const first = findFrom(markdown, word, 0, markdown.length, taken);
  if (!first) return null;
  return findFrom(markdown, word, first[0] + 1, markdown.length, taken) ? null : first;
}

/** Marks for every word and element below `threshold` (0–1), in Markdown order (words without a place last). */
export function confidenceMarks(extraction: Pick<Extraction, 'markdown' | 'elements' | 'words'>, threshold: number): ConfidenceMark[] {
  const { markdown, elements } = extraction;
  const words = extraction.words ?? [];
  const placed = new Set<number>();
  // Start offsets already given to a word, so two equal words never land on the same occurrence.
  const taken = new Set<number>();
  const marks: ConfidenceMark[] = [];
  const ordered = [...elements].sort((a, b) => a.span[0] - b.span[0]);
  for (const element of ordered) {
    let cursor = element.span[0];
    let hasWords = false;
    words.forEach((word, index) => {
      if (placed.has(index) || !centreInside(word.box, element.box)) return;
      placed.add(index);
      hasWords = true;
      const text = word.text.trim();
      // In reading order from the previous word; else anywhere in the element (a table's words come column-wise).
      const span = text ? (findFrom(markdown, text, cursor, element.span[1], taken) ?? findFrom(markdown, text, element.span[0], element.span[1], taken)) : null;
      if (span) (cursor = span[1]), taken.add(span[0]);
      if (word.confidence !== null && word.confidence < threshold) {
        marks.push({ span: span ?? [element.span[0], element.span[0]], box: word.box, confidence: word.confidence, text: word.text, kind: 'word' });
      }
    });
    if (!hasWords && element.confidence !== null && element.confidence < threshold) marks.push(elementMark(element, markdown));
  }
  words.forEach((word, index) => {
    if (placed.has(index) || word.confidence === null || word.confidence >= threshold) return;
    const span = word.text.trim() ? findUnique(markdown, word.text.trim(), taken) : null;
    if (span) taken.add(span[0]);
    marks.push({ span: span ?? [0, 0], box: word.box, confidence: word.confidence, text: word.text, kind: 'word' });
  });
  return marks.sort((a, b) => a.span[0] - b.span[0] || a.box[1] - b.box[1]);
}

function elementMark(element: Element, markdown: string): ConfidenceMark {
  return {
    span: element.span,
    box: element.box,
    confidence: element.confidence ?? 0,
    text: markdown.slice(element.span[0], Math.min(element.span[1], element.span[0] + 40)),
    kind: 'element',
  };
}

/**
 * The mark to go to from the current selection [start, end): the first starting at or after its end (F8), or the last
 * ending at or before its start (Shift+F8), wrapping around; the mark that is the selection itself is skipped.
 */
export function neighbourMark(spans: readonly Span[], selection: Span, direction: 1 | -1): number | null {
  const [start, end] = selection;
  const placed = spans.map((span, index) => ({ span, index })).filter(({ span }) => span[1] > span[0] && !(span[0] === start && span[1] === end));
  if (placed.length === 0) return null;
  if (direction === 1) return (placed.find(({ span }) => span[0] >= end) ?? placed[0]!).index;
  return (placed.filter(({ span }) => span[1] <= start).at(-1) ?? placed.at(-1)!).index;
}
