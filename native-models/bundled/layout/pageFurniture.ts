/**
 * Running headers, footers and page numbers of one page, told apart from the body by position, size and isolation.
 * (Lines repeated across the pages of a document are found afterwards, over the whole document:
 * app/document/runningFurniture.ts.)
 */
import { PAGE_NUMBER } from '../../../app/document/runningFurniture.js';
import type { Box } from '../../../app/model/extraction.js';
import { blockFontSize, isTypedRule } from './buildBlocks.js';
import { boxHeight, boxWidth, median, type LayoutBlock } from './layoutTypes.js';

/** Running headers sit in the top TOP_BAND of the page, footers in the bottom BOTTOM_BAND. */
const TOP_BAND = 0.075;
const BOTTOM_BAND = 0.925;
/**
 * Small print may sit further in (slides and reports put a footer line well above the page number): up to this
 * share of the page from its edge, for one short line in type at most SMALL_PRINT of the body size.
 */
const SMALL_PRINT_BAND = 0.15;
const SMALL_PRINT = 0.7;
const SMALL_PRINT_MAX_CHARS = 80;
/**
 * The outermost line of the page within EDGE_BAND of its top or bottom is a running head or foot, whatever the
 * narrow bands say, when a rule parts it from the body (a ruling line drawn between them, or a line typed of `_`/`-`
 * characters) — the book-style head "Healthy Students Healthy Lives" over a rule — or when it is a page number set
 * apart by a row height. Small pages and wide margins put these lines further in than TOP_BAND / BOTTOM_BAND.
 */
const EDGE_BAND = 0.15;
/** A ruling line parts a head from the body when it spans at least this share of the head's width. */
const RULE_SPAN = 0.5;
/** Blocks are level with each other (one band: a head set left and right) when they overlap this share of the lower's height. */
const LEVEL_OVERLAP = 0.5;
/** A footnote starts with its marker ("1 See …", "* Estimated", "² …"): small print that belongs to the body. */
const FOOTNOTE_MARK = /^(?:\d{1,3}(?=[\s\p{L}])|[*†‡§¶]|[⁰¹²³⁴⁵⁶⁷⁸⁹]+)/u;

const textOf = (block: LayoutBlock): string => block.rows.flatMap((row) => row.segments.flatMap((s) => s.words.map((w) => w.text))).join(' ');

/**
 * Running headers, footers and page numbers: short blocks (≤ 2 rows, ≤ 200 characters) in small or body type, wholly
 * in the top or bottom band of the page, set apart from the body by at least a row height, on a page with a body
 * (≥ 2 other blocks). A number-only block is the page number (top or bottom). Titles (large type), tables and blocks
 * of three or more rows (an invoice's letterhead address) stay in the body.
 * Further in, up to SMALL_PRINT_BAND from the edge: one short line of small print (≤ SMALL_PRINT of the body size),
 * two row heights clear of the body, with only furniture between it and the edge — a slide's or report's footer line
 * ("NETS 2015" above the page number). A line that starts like a footnote stays in the body.
 */
export function markPageFurniture(blocks: LayoutBlock[], pageHeight: number, rulings: readonly Box[] = []): LayoutBlock[] {
  // Text read inside images (figures) is sized by the OCR: it does not set the page's body size.
  const sizes = blocks.filter((block) => block.kind !== 'figure').flatMap((block) => block.rows.map((row) => row.fontSize));
  const body = median(sizes);
  const eligible = (block: LayoutBlock): boolean => block.kind === 'text' || block.kind === 'list' || block.kind === 'heading';
  const rowHeight = (block: LayoutBlock): number => median(block.rows.map((row) => boxHeight(row.box)));
  /** Blocks on the body's side of `block` (not between it and the edge), and the gap to the nearest of them. */
  const bodySide = (block: LayoutBlock, top: boolean): { others: LayoutBlock[]; gap: number } => {
    const others = blocks.filter(
      (other) => other !== block && !levelWith(other, block) && !isRuleBlock(other) && !(top ? other.box[3] <= block.box[3] : other.box[1] >= block.box[1]),
    );
    const gap = top ? Math.min(...others.map((o) => o.box[1])) - block.box[3] : block.box[1] - Math.max(...others.map((o) => o.box[3]));
    return { others, gap };
  };

  const kinds = blocks.map((block): LayoutBlock['kind'] | null => {
    if (!eligible(block)) return null;
    const top = block.box[3] <= TOP_BAND * pageHeight;
    const bottom = block.box[1] >= BOTTOM_BAND * pageHeight;
    if (!top && !bottom) return null;
    const text = textOf(block);
    if (PAGE_NUMBER.test(text)) return 'page-number';
    if (block.rows.length > 2 || text.length > 200 || blockFontSize(block) > 1.1 * body) return null;
    const { others, gap } = bodySide(block, top);
    if (others.length < 2 || gap < rowHeight(block)) return null;
    return top ? 'header' : 'footer';
  });

  const smallPrint = blocks.map((block, index) => {
    if (kinds[index] || !eligible(block) || body <= 0) return false;
    const top = block.box[3] <= SMALL_PRINT_BAND * pageHeight;
    const bottom = block.box[1] >= (1 - SMALL_PRINT_BAND) * pageHeight;
    if (!top && !bottom) return false;
    const text = textOf(block);
    if (block.rows.length > 1 || text.length > SMALL_PRINT_MAX_CHARS || FOOTNOTE_MARK.test(text)) return false;
    if (blockFontSize(block) > SMALL_PRINT * body) return false;
    const { others, gap } = bodySide(block, top);
    return others.length >= 2 && gap >= 2 * rowHeight(block);
  });
  blocks.forEach((block, index) => {
    if (!smallPrint[index]) return;
    const top = block.box[3] <= SMALL_PRINT_BAND * pageHeight;
    const beyond = blocks.filter((other, i) => i !== index && (top ? other.box[3] <= block.box[1] : other.box[1] >= block.box[3]));
    if (beyond.every((other) => kinds[blocks.indexOf(other)] || smallPrint[blocks.indexOf(other)])) kinds[index] = top ? 'header' : 'footer';
  });

  // Outermost lines within EDGE_BAND: a page number set apart, or a head / foot parted from the body by a rule.
  blocks.forEach((block, index) => {
    if (kinds[index] || !eligible(block) || isRuleBlock(block) || body <= 0) return;
    const top = block.box[3] <= EDGE_BAND * pageHeight;
    const bottom = block.box[1] >= (1 - EDGE_BAND) * pageHeight;
    if (!top && !bottom) return;
    const beyond = blocks.filter((other, i) => i !== index && !levelWith(other, block) && (top ? other.box[3] <= block.box[1] : other.box[1] >= block.box[3]));
    if (!beyond.every((other) => kinds[blocks.indexOf(other)] || isRuleBlock(other))) return;
    const { others, gap } = bodySide(block, top);
    if (others.length === 0) return;
    const text = textOf(block);
    if (PAGE_NUMBER.test(text)) {
      if (gap >= rowHeight(block)) kinds[index] = 'page-number';
      return;
    }
    if (block.rows.length > 2 || text.length > 200 || blockFontSize(block) > 1.1 * body || FOOTNOTE_MARK.test(text)) return;
    const nearestBlock = others.reduce((a, b) => (top ? (b.box[1] < a.box[1] ? b : a) : b.box[3] > a.box[3] ? b : a));
    const nearest = top ? nearestBlock.box[1] : nearestBlock.box[3];
    const [from, to] = top ? [block.box[3], nearest] : [nearest, block.box[1]];
    const typedRule = blocks.some((other) => isRuleBlock(other) && other.box[1] >= from - 1 && other.box[3] <= to + 1);
    // A rule right above (or below) a table is the table's own top (bottom) rule, and the line beyond it its caption.
    const drawnRule = !nearestBlock.table && rulings.some(
      (rule) => boxHeight(rule) <= boxWidth(rule) && rule[1] >= from - 1 && rule[3] <= to + 1 && Math.min(rule[2], block.box[2]) - Math.max(rule[0], block.box[0]) >= RULE_SPAN * boxWidth(block.box),
    );
    if (typedRule || drawnRule) kinds[index] = top ? 'header' : 'footer';
  });
  // A one-line block level with a head or foot is part of it, whatever its type size (a banner's "APPENDIX A" set
  // large beside the series title); a typed rule between a head or foot and the body goes with it.
  blocks.forEach((block, index) => {
    if (kinds[index] || block.table) return;
    const partner = blocks.findIndex((other, i) => i !== index && (kinds[i] === 'header' || kinds[i] === 'footer') && levelWith(other, block));
    if (partner >= 0 && block.rows.length <= 2 && textOf(block).length <= 200) kinds[index] = kinds[partner];
    else if (isRuleBlock(block)) {
      const top = block.box[3] <= EDGE_BAND * pageHeight;
      const bottom = block.box[1] >= (1 - EDGE_BAND) * pageHeight;
      const beyond = blocks.filter((other, i) => i !== index && (top ? other.box[3] <= block.box[1] : other.box[1] >= block.box[3]));
      if ((top || bottom) && beyond.length > 0 && beyond.every((other) => kinds[blocks.indexOf(other)] || isRuleBlock(other))) kinds[index] = top ? 'header' : 'footer';
    }
  });

  return blocks.map((block, index) => (kinds[index] ? { ...block, kind: kinds[index]!, level: undefined } : block));
}

/** Vertically overlapping by at least LEVEL_OVERLAP of the lower block's height: in one band. */
function levelWith(a: LayoutBlock, b: LayoutBlock): boolean {
  const overlap = Math.min(a.box[3], b.box[3]) - Math.max(a.box[1], b.box[1]);
  return overlap > LEVEL_OVERLAP * Math.min(boxHeight(a.box), boxHeight(b.box));
}

/** A block that is one line typed of rule characters (`____`, `----`). */
const isRuleBlock = (block: LayoutBlock): boolean => !block.table && block.rows.length === 1 && isTypedRule(block.rows[0]);
