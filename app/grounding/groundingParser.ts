/**
 * Parser of DeepSeek-OCR grounding output (prompt `<|grounding|>Convert the document to markdown.`):
 *
 *   <|ref|>title<|/ref|><|det|>[[120, 40, 880, 95]]<|/det|>
 *   # Invoice 2024-17
 *
 *   <|ref|>table<|/ref|><|det|>[[60, 300, 940, 620]]<|/det|>
 *   <table>…</table>
 *
 * Each element is a label, one or more boxes in 0–999 normalised page coordinates, then its content up to the next
 * `<|ref|>`. The result is the Markdown without the grounding tags, and one Element per well-formed label with its
 * box in page pixels and the span of its content in that Markdown. A malformed element (unclosed tag, unparseable or
 * out-of-range coordinates) is dropped with a warning; its text stays in the Markdown and the rest is kept.
 * Pure: no I/O, runs in Node and the browser.
 */
import type { Box, Element, ElementKind } from '../model/extraction.js';

export const REF_OPEN = '<|ref|>';
export const REF_CLOSE = '<|/ref|>';
export const DET_OPEN = '<|det|>';
export const DET_CLOSE = '<|/det|>';
/** DeepSeek-OCR scales boxes to 0…999 and back with x / 999 × width. */
export const GROUNDING_SCALE = 999;

export interface GroundingResult {
  markdown: string;
  elements: Element[];
  warnings: string[];
}

const KIND_BY_LABEL: Record<string, ElementKind> = {
  title: 'title',
  sub_title: 'heading',
  subtitle: 'heading',
  heading: 'heading',
  text: 'text',
  list: 'list',
  table: 'table',
  image: 'figure',
  figure: 'figure',
  chart: 'figure',
  image_caption: 'caption',
  table_caption: 'caption',
  figure_caption: 'caption',
  caption: 'caption',
  equation: 'formula',
  formula: 'formula',
  interline_equation: 'formula',
  header: 'header',
  page_header: 'header',
  footer: 'footer',
  page_footer: 'footer',
  page_number: 'page-number',
  footnote: 'footnote',
  table_footnote: 'footnote',
};

export function elementKindOf(label: string): ElementKind {
  return KIND_BY_LABEL[label.trim().toLowerCase()] ?? 'other';
}

/** @param page size of the page image in pixels: boxes are returned in its pixels. */
export function parseGroundingOutput(raw: string, page: { width: number; height: number }): GroundingResult {
  const warnings: string[] = [];
  const elements: Element[] = [];
  let markdown = '';
  let cursor = 0;
  let index = 0;

  const firstRef = raw.indexOf(REF_OPEN);
  markdown += raw.slice(0, firstRef < 0 ? raw.length : firstRef);
  cursor = firstRef < 0 ? raw.length : firstRef;

  while (cursor < raw.length) {
    // cursor is at a `<|ref|>`
    index++;
    const nextRef = raw.indexOf(REF_OPEN, cursor + REF_OPEN.length);
    const blockEnd = nextRef < 0 ? raw.length : nextRef;
    const block = raw.slice(cursor, blockEnd);
    const header = parseHeader(block);
    if ('error' in header) {
      warnings.push(`grounding element ${index} dropped: ${header.error}`);
      markdown += stripTags(header.rest);
    } else {
      const content = header.rest.startsWith('\n') ? header.rest.slice(1) : header.rest;
      const start = markdown.length;
      markdown += content;
      const end = start + content.trimEnd().length;
      const box = toPagePixels(header.boxes, page);
      const kind = elementKindOf(header.label);
      const element: Element = { id: `e${elements.length + 1}`, kind, box, span: [start, end], confidence: null };
      if (kind === 'title' || kind === 'heading') element.level = headingLevel(content, kind);
      elements.push(element);
    }
    cursor = blockEnd;
  }
  return { markdown, elements, warnings };
}

type Header = { label: string; boxes: number[][]; rest: string } | { error: string; rest: string };

/** Parses `<|ref|>label<|/ref|><|det|>[[…]]<|/det|>` at the start of `block`. */
function parseHeader(block: string): Header {
  const lineEnd = (from: number) => {
    const nl = block.indexOf('\n', from);
    return nl < 0 ? block.length : nl + 1;
  };
  const refClose = block.indexOf(REF_CLOSE);
  if (refClose < 0) return { error: `unclosed ${REF_OPEN}`, rest: block.slice(lineEnd(0)) };
  const label = block.slice(REF_OPEN.length, refClose).trim();
  let pos = refClose + REF_CLOSE.length;
  if (!block.startsWith(DET_OPEN, pos)) {
    return { error: `label "${label}" has no ${DET_OPEN} box`, rest: block.slice(pos) };
  }
  const detClose = block.indexOf(DET_CLOSE, pos);
  if (detClose < 0) return { error: `unclosed ${DET_OPEN} after label "${label}"`, rest: block.slice(lineEnd(pos)) };
  const coordinates = block.slice(pos + DET_OPEN.length, detClose);
  pos = detClose + DET_CLOSE.length;
  const rest = block.slice(pos);
  const boxes = parseBoxes(coordinates);
  if (typeof boxes === 'string') return { error: `label "${label}": ${boxes}`, rest: rest.startsWith('\n') ? rest.slice(1) : rest };
  if (label === '') return { error: 'empty label', rest: rest.startsWith('\n') ? rest.slice(1) : rest };
  return { label, boxes, rest };
}

/** `[[x1, y1, x2, y2], …]` in 0…999 → boxes, or a reason. */
function parseBoxes(text: string): number[][] | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return `coordinates "${text.slice(0, 60)}" are not a list of boxes`;
  }
  if (!Array.isArray(value) || value.length === 0) return `coordinates "${text.slice(0, 60)}" are not a list of boxes`;
  const list = value.every((v) => typeof v === 'number') ? [value] : value;
  const boxes: number[][] = [];
  for (const b of list) {
    if (!Array.isArray(b) || b.length !== 4 || !b.every((v) => typeof v === 'number' && Number.isFinite(v))) {
      return `box ${JSON.stringify(b)} is not four numbers`;
    }
    const [x1, y1, x2, y2] = b as number[];
    if ([x1, y1, x2, y2].some((v) => v! < 0 || v! > GROUNDING_SCALE)) return `box ${JSON.stringify(b)} is outside 0–${GROUNDING_SCALE}`;
    if (x2! < x1! || y2! < y1!) return `box ${JSON.stringify(b)} has its corners swapped`;
    boxes.push(b as number[]);
  }
  return boxes;
}

/** Union of the boxes, scaled to page pixels. */
function toPagePixels(boxes: number[][], page: { width: number; height: number }): Box {
  const sx = page.width / GROUNDING_SCALE;
  const sy = page.height / GROUNDING_SCALE;
  const x1 = Math.min(...boxes.map((b) => b[0]!));
  const y1 = Math.min(...boxes.map((b) => b[1]!));
  const x2 = Math.max(...boxes.map((b) => b[2]!));
  const y2 = Math.max(...boxes.map((b) => b[3]!));
  return [x1 * sx, y1 * sy, x2 * sx, y2 * sy];
}

function headingLevel(content: string, kind: 'title' | 'heading'): number {
  const hashes = /^\s*(#{1,6})\s/.exec(content);
  if (hashes) return hashes[1]!.length;
  return kind === 'title' ? 1 : 2;
}

/** Removes stray grounding tags from text kept after a dropped element. */
function stripTags(text: string): string {
  return text.replace(/<\|\/?(ref|det)\|>/g, '');
}
