/**
 * Checks on an extraction that tests and benchmarks share: word recall against a known text, and the invariants
 * that tie elements to the Markdown and the page. Pure functions, no test framework.
 */
import type { Extraction } from '../app/model/extraction.js';

/** Markdown back to plain whitespace-separated words: drops table tags, undoes the engine's escapes (`\$`, `\*`, `\#`, `&amp;`, …). */
export function plainWords(markdown: string): string[] {
  return markdown
    .replace(/<\/?(table|thead|tbody|tr|th|td)\b[^>]*>/gu, ' ')
    .replace(/&lt;/gu, '<')
    .replace(/&gt;/gu, '>')
    .replace(/&#36;/gu, '$')
    .replace(/&amp;/gu, '&')
    .replace(/\\([\\`*_$<#>+\-.)=])/gu, '$1')
    .split(/\s+/u)
    .filter(Boolean);
}

/** Share of `truth`'s words, counted as a multiset, that `output` contains. 1 when truth is empty. */
export function wordRecall(truth: readonly string[], output: readonly string[]): number {
  if (truth.length === 0) return 1;
  const left = new Map<string, number>();
  for (const word of output) left.set(word, (left.get(word) ?? 0) + 1);
  let found = 0;
  for (const word of truth) {
    const n = left.get(word) ?? 0;
    if (n > 0) {
      found++;
      left.set(word, n - 1);
    }
  }
  return found / truth.length;
}

/**
 * What is wrong with an extraction's elements, as messages; empty when all holds:
 * the spans, in order, are the Markdown's blocks joined by blank lines; no span is blank; boxes are ordered and on
 * the page; every word written in an element's span is a word whose box lies inside the element's box.
 */
export function elementProblems(extraction: Extraction): string[] {
  const problems: string[] = [];
  const { markdown, page } = extraction;
  // Running headers, footers and page numbers are kept out of the Markdown: an empty span where they would be.
  const furniture = new Set(['header', 'footer', 'page-number']);
  for (const element of extraction.elements) {
    if (furniture.has(element.kind) && element.span[0] !== element.span[1]) problems.push(`${element.id}: ${element.kind} in the Markdown`);
  }
  const elements = extraction.elements.filter((element) => !furniture.has(element.kind));
  const blocks = elements.map((element) => markdown.slice(element.span[0], element.span[1]));
  if (blocks.join('\n\n') !== markdown) problems.push('element spans do not tile the Markdown');
  const slack = 1;
  elements.forEach((element, index) => {
    const [x1, y1, x2, y2] = element.box;
    if (!blocks[index].trim()) problems.push(`${element.id}: blank span`);
    if (x1 > x2 || y1 > y2) problems.push(`${element.id}: box corners out of order`);
    if (x1 < -slack || y1 < -slack || x2 > page.width + slack || y2 > page.height + slack) {
      problems.push(`${element.id}: box off the page`);
    }
    const inside = new Set(
      (extraction.words ?? [])
        .filter((w) => w.box[0] >= x1 - 0.5 && w.box[2] <= x2 + 0.5 && w.box[1] >= y1 - 0.5 && w.box[3] <= y2 + 0.5)
        .map((w) => w.text),
    );
    // Formulas are LaTeX built from the words, not the words themselves.
    for (const word of plainWords(blocks[index].replace(/\$\$[^$]+?\$\$/gu, ' ').replace(/(?<!\\)\$[^$\n]+?(?<!\\)\$/gu, ' '))) {
      if (!/^#+$/u.test(word) && !inside.has(word) && !joinedAcrossLine(word, inside)) problems.push(`${element.id}: "${word}" has no word inside the box`);
    }
  });
  return problems;
}

/** A word written whole from two lines' halves (layout/hyphenation.ts): "compile" from "com-" and "pile", or "trace-compilation" from "trace-" and "compilation". */
function joinedAcrossLine(word: string, inside: ReadonlySet<string>): boolean {
  for (let k = 1; k < word.length; k++) {
    const tail = word.slice(k);
    if (inside.has(`${word.slice(0, k)}-`) && inside.has(tail)) return true;
    if (word[k - 1] === '-' && inside.has(word.slice(0, k)) && inside.has(tail)) return true;
  }
  return false;
}
