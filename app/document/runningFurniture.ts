/**
 * Running headers and footers across the pages of one document. An engine reads one page at a time and can only
 * judge a line by where it sits on that page; a line printed again at the same height on other pages — a journal's
 * running title, a company footer, "Page 3 of 14" — is the document's furniture whatever its size or place in the
 * band. This pass finds such lines among the content elements near the top and bottom edges and turns them into
 * `header` / `footer` / `page-number` elements kept out of the Markdown, exactly as an engine's own furniture is
 * (an empty span where the block was; the other spans still tile the Markdown).
 *
 * Pure: extractions in, extractions out (unchanged pages are returned as given). Works for any engine whose
 * elements have boxes and spans.
 */
import { distance } from 'fastest-levenshtein';
import type { Element, ElementKind, Extraction } from '../model/extraction.js';

/**
 * A page-number line: "7", "- 7 -", "Page 7", "Seite 7 von 9", "7 / 9", "p. 7", an appendix's "A-5" / "B.12", or a
 * roman numeral of the front matter ("iv", "XII").
 */
export const PAGE_NUMBER =
  /^(?:(page\s*|seite\s*|p\.\s*)?[-–]?\s*([A-Z][-–.])?\d{1,4}\s*[-–]?(\s*(\/|of|von|sur|de)\s*\d{1,4})?|(page\s*)?(?=[ivx])(x{0,3})(ix|iv|v?i{0,3}))$/iu;

/** Repeated lines count only within this share of the page height from the top or bottom edge. */
const BAND = 0.15;
/** Two lines are "at the same position" when their vertical centres differ by at most this share of the page. */
const POSITION_TOLERANCE = 0.02;
/** Longer than this, a block is body text (a running footer with company details is a few hundred characters). */
const MAX_CHARS = 500;
/** Texts of at least this length may differ by OCR noise: up to this share of their characters. */
const FUZZY_MIN_CHARS = 12;
const FUZZY_SHARE = 0.15;

/** Kinds that can be running furniture: prose-like blocks. Tables, figures and formulas never are. */
const CANDIDATE_KINDS: ReadonlySet<ElementKind> = new Set(['title', 'heading', 'text', 'list', 'caption', 'footnote', 'other']);
/** Furniture already (the engine's, or this pass's on pages read earlier): evidence for the other pages, left as is. */
const FURNITURE_KINDS: ReadonlySet<ElementKind> = new Set(['header', 'footer', 'page-number']);

interface Candidate {
  /** Index into the pages given. */
  index: number;
  /** Page number in the document. */
  page: number;
  /** Already furniture: matched against, not marked again. */
  furniture: boolean;
  element: Element;
  top: boolean;
  /** Vertical centre as a share of the page height. */
  centre: number;
  /** Plain text, as printed. */
  text: string;
  /** Lowercased, spaces collapsed, every number replaced by `#`. */
  shape: string;
  numbers: number[];
  letters: boolean;
}

/** The Markdown of one block back to plain text: heading marks, list bullets and backslash escapes dropped. */
export function plainBlockText(markdown: string): string {
  return markdown
    .replace(/^#{1,6}\s+/gmu, '')
    .replace(/^[-*+]\s+/gmu, '')
    .replace(/\\([!-/:-@[-`{-~])/gu, '$1')
    .replace(/&#36;/gu, '$')
    .replace(/&amp;/gu, '&')
    .replace(/\s+/gu, ' ')
    .trim();
}

/** The text of furniture elements as the extraction lists it (`fields.pageFurniture`: their spans are empty). */
function listedFurniture(extraction: Extraction): Map<string, string> {
  const listed = Array.isArray(extraction.fields?.pageFurniture) ? (extraction.fields!.pageFurniture as unknown[]) : [];
  const texts = new Map<string, string>();
  for (const entry of listed) {
    const { id, text } = (entry ?? {}) as { id?: unknown; text?: unknown };
    if (typeof id === 'string' && typeof text === 'string') texts.set(id, text);
  }
  return texts;
}

function candidatesOf(extraction: Extraction, index: number, page: number): Candidate[] {
  const height = extraction.page.height;
  const furnitureTexts = listedFurniture(extraction);
  const found: Candidate[] = [];
  for (const element of extraction.elements) {
    const furniture = FURNITURE_KINDS.has(element.kind);
    if (!furniture && (!CANDIDATE_KINDS.has(element.kind) || element.span[1] <= element.span[0])) continue;
    const top = element.box[3] <= BAND * height;
    const bottom = element.box[1] >= (1 - BAND) * height;
    if (!top && !bottom) continue;
    const printed = element.span[1] > element.span[0] ? extraction.markdown.slice(element.span[0], element.span[1]) : (furnitureTexts.get(element.id) ?? '');
    const text = plainBlockText(printed);
    if (!text || text.length > MAX_CHARS) continue;
    found.push({
      index,
      page,
      furniture,
      element,
      top,
      centre: (element.box[1] + element.box[3]) / 2 / height,
      text,
      shape: text.toLowerCase().replace(/\d+/gu, '#'),
      numbers: (text.match(/\d+/gu) ?? []).map(Number),
      letters: /\p{L}/u.test(text),
    });
  }
  return found;
}

/**
 * The same running line on two pages: same edge, same height, and either nearly the same long text (OCR noise) or
 * the same text up to numbers whose numbers are equal or advance with the page (see below for when that is enough) ("Page 3" on the 3rd page, "Page 4" on the 4th). A line without
 * letters must carry such a page-advancing number: two equal bare numbers at the same place are data, not furniture.
 */
function sameRunningLine(a: Candidate, b: Candidate): boolean {
  if (a.top !== b.top || Math.abs(a.centre - b.centre) > POSITION_TOLERANCE) return false;
  if (a.shape !== b.shape) {
    // OCR noise (a letter read as a digit too): nearly the same long text of letters.
    const longest = Math.max(a.shape.length, b.shape.length);
    return a.letters && b.letters && Math.min(a.shape.length, b.shape.length) >= FUZZY_MIN_CHARS && distance(a.shape, b.shape) <= FUZZY_SHARE * longest;
  }
  let advancing = false;
  for (let k = 0; k < a.numbers.length; k++) {
    if (a.numbers[k] === b.numbers[k]) continue;
    if (a.numbers[k]! - a.page !== b.numbers[k]! - b.page) return false;
    advancing = true;
  }
  if (!advancing) return a.letters;
  // A number that follows the page is a page number only where the line says so ("Page 3", "3 of 14") or where a
  // long running title carries it ("Journal of Examples, Vol. 3 · 17"); "Chapter 2", "Step 3" on consecutive
  // pages are titles.
  return !a.letters || PAGE_WORDS.test(a.text) || a.shape.replace(/[^\p{L}]/gu, '').length >= RUNNING_TITLE_LETTERS;
}

/** Words and forms that name a page number. */
const PAGE_WORDS = /(?<!\p{L})(?:page|pages|seite|pg|p\.|pagina|página|blatt|feuille|side|sida|strona)(?!\p{L})|\d\s*(?:\/|of|von|sur|de)\s*\d/iu;
/** Letters a running title with a page number in it has at least. */
const RUNNING_TITLE_LETTERS = 15;

/**
 * Pages a line must repeat on (itself included): 2 in short documents, 3 from 5 pages on, so that two figure
 * labels or section lines that happen to align in a long paper are not taken for furniture.
 */
function minimumPages(pageCount: number): number {
  return pageCount >= 5 ? 3 : 2;
}

/**
 * Element ids to turn into furniture, per index into `pages`, with their kind and text. `pageNumbers` (default 1, 2, …)
 * are the pages' numbers in the document, for page numbers that advance with them when pages are missing.
 */
export function findRunningFurniture(pages: readonly Extraction[], pageNumbers?: readonly number[]): Map<number, Map<string, { kind: ElementKind; text: string }>> {
  const marks = new Map<number, Map<string, { kind: ElementKind; text: string }>>();
  if (pages.length < 2) return marks;
  const candidates = pages.flatMap((extraction, index) => candidatesOf(extraction, index, pageNumbers?.[index] ?? index + 1));
  const needed = minimumPages(pages.length);
  for (const candidate of candidates) {
    const pagesWithIt = new Set([candidate.page]);
    for (const other of candidates) if (other.page !== candidate.page && sameRunningLine(candidate, other)) pagesWithIt.add(other.page);
    if (candidate.furniture || pagesWithIt.size < needed) continue;
    const kind: ElementKind = PAGE_NUMBER.test(candidate.text) ? 'page-number' : candidate.top ? 'header' : 'footer';
    let onPage = marks.get(candidate.index);
    if (!onPage) marks.set(candidate.index, (onPage = new Map()));
    onPage.set(candidate.element.id, { kind, text: candidate.text });
  }
  return marks;
}

/**
 * Turns the given elements of one extraction into furniture: each block's text leaves the Markdown together with one
 * block separator, its element keeps its box with an empty span where it was, later spans move up. The text is
 * listed in `fields.pageFurniture` as the engine lists its own.
 */
export function withFurniture(extraction: Extraction, marks: ReadonlyMap<string, { kind: ElementKind; text: string }>): Extraction {
  if (marks.size === 0) return extraction;
  let markdown = extraction.markdown;
  const elements = extraction.elements.map((element) => ({ ...element, span: [...element.span] as [number, number] }));
  const removed = elements.filter((element) => marks.has(element.id) && element.span[1] > element.span[0]).sort((a, b) => b.span[0] - a.span[0]);
  // Last block first, so that the spans of the blocks still to cut do not move.
  for (const target of removed) {
    let [start, end] = target.span;
    if (markdown.slice(end, end + 2) === '\n\n') end += 2;
    else if (start >= 2 && markdown.slice(start - 2, start) === '\n\n') start -= 2;
    markdown = markdown.slice(0, start) + markdown.slice(end);
    const cut = end - start;
    for (const element of elements) {
      const shift = (offset: number): number => (offset >= end ? offset - cut : offset > start ? start : offset);
      element.span = [shift(element.span[0]), shift(element.span[1])];
    }
    target.span = [start, start];
    target.kind = marks.get(target.id)!.kind;
    delete target.level;
    delete target.cells;
  }
  const listed = Array.isArray(extraction.fields?.pageFurniture) ? (extraction.fields!.pageFurniture as unknown[]) : [];
  const added = removed.reverse().map((element) => ({ id: element.id, kind: element.kind, text: marks.get(element.id)!.text }));
  return { ...extraction, markdown, elements, fields: { ...extraction.fields, pageFurniture: [...listed, ...added] } };
}

/**
 * The document pass: every page with its repeated running lines turned into furniture. `pages` in page order (with
 * their `pageNumbers` where some are missing); pages
 * without a repeated line are returned as they were (the same objects). Elements already furniture stay as they are.
 */
export function markRunningFurniture(pages: readonly Extraction[], pageNumbers?: readonly number[]): Extraction[] {
  const marks = findRunningFurniture(pages, pageNumbers);
  return pages.map((extraction, index) => withFurniture(extraction, marks.get(index) ?? new Map()));
}
