/**
 * Running headers, footers and page numbers of one page, told apart from the body by position, size, isolation and
 * content (furnitureContent.ts).
 * (Lines repeated across the pages of a document are found afterwards, over the whole document:
 * app/document/runningFurniture.ts.)
 */
import { PAGE_NUMBER } from '../../../app/document/runningFurniture.js';
import type { Box } from '../../../app/model/extraction.js';
import { blockFontSize, isTypedRule } from './buildBlocks.js';
import { FOOTNOTE_MARK, readsAsBody, readsAsFurniture } from './furnitureContent.js';
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
/**
 * A line set larger than every other line of the page by this factor is the page's title, never a running head. A
 * running head set in title type shares its size with some other line (the page number in the same header/footer
 * style, or the body): "Methodology" over a rule, at the size of the page number, above a table.
 */
const TITLE_SIZE = 1.1;
/** A page number at the outermost line needs this share of its row height clear of the body (a line of its own). */
const PAGE_NUMBER_GAP = 0.5;

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
  // Text read inside images (figures) is sized by the OCR, table cells are set small and typed rules in any size:
  // none of them sets the page's body size (a page of tables would otherwise make its running head "title type").
  const textRows = (keep: (block: LayoutBlock) => boolean): number[] => blocks.filter(keep).flatMap((block) => block.rows.map((row) => row.fontSize));
  const prose = textRows((block) => block.kind !== 'figure' && !block.table && !isRuleBlock(block));
  const body = median(prose.length > 0 ? prose : textRows((block) => block.kind !== 'figure'));
  /** Set larger than every other line of the page (figures and typed rules aside): the page's title. */
  const isPageTitle = (block: LayoutBlock): boolean => {
    const others = blocks.filter((other) => other !== block && other.kind !== 'figure' && !isRuleBlock(other)).flatMap((other) => other.rows.map((row) => row.fontSize));
    return others.length > 0 && blockFontSize(block) > TITLE_SIZE * Math.max(...others);
  };
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
    if (!eligible(block) && block.kind !== 'title') return null;
    const top = block.box[3] <= TOP_BAND * pageHeight;
    const bottom = block.box[1] >= BOTTOM_BAND * pageHeight;
    if (!top && !bottom) return null;
    const text = textOf(block);
    if (PAGE_NUMBER.test(text)) return 'page-number';
    if (block.rows.length > 2 || text.length > 200 || smallerPartSize(block) > 1.1 * body || readsAsBody(text)) return null;
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
    if (block.rows.length > 1 || text.length > SMALL_PRINT_MAX_CHARS || FOOTNOTE_MARK.test(text) || readsAsBody(text)) return false;
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

  // Outermost lines within EDGE_BAND: a page number on a line of its own, a head / foot parted from the body by a
  // rule (in any type but the page title's), or one set apart that reads as furniture (a journal, a date, a URL).
  blocks.forEach((block, index) => {
    if (kinds[index] || !(eligible(block) || block.kind === 'title') || isRuleBlock(block) || body <= 0) return;
    const top = block.box[3] <= EDGE_BAND * pageHeight;
    const bottom = block.box[1] >= (1 - EDGE_BAND) * pageHeight;
    if (!top && !bottom) return;
    const beyond = blocks.filter((other, i) => i !== index && !levelWith(other, block) && (top ? other.box[3] <= block.box[1] : other.box[1] >= block.box[3]));
    if (!beyond.every((other) => kinds[blocks.indexOf(other)] || isRuleBlock(other))) return;
    const { others, gap } = bodySide(block, top);
    if (others.length === 0) return;
    const text = textOf(block);
    if (PAGE_NUMBER.test(text)) {
      if (gap >= PAGE_NUMBER_GAP * rowHeight(block)) kinds[index] = 'page-number';
      return;
    }
    if (block.rows.length > 2 || text.length > 200 || FOOTNOTE_MARK.test(text) || readsAsBody(text) || isPageTitle(block)) return;
    const bodyType = blockFontSize(block) <= 1.1 * body;
    // In type larger than the body, only the page's very outermost line: below a running head it is a section heading.
    if (!bodyType && beyond.some((other) => !isRuleBlock(other))) return;
    if (bodyType && gap >= rowHeight(block) && readsAsFurniture(text)) {
      kinds[index] = top ? 'header' : 'footer';
      return;
    }
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
  // A page has one page number: where it has one elsewhere, a foot line starting with a number ("16 FEMIP Support
  // Fund Annual Report 2009, section 2.1") is a footnote, not a running foot led by the page number.
  if (kinds.includes('page-number')) {
    blocks.forEach((block, index) => {
      if (kinds[index] === 'footer' && FOOTNOTE_MARK.test(textOf(block))) kinds[index] = null;
    });
  }
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

/**
 * The type size of a block's smaller part: a one-line block set left and right (a banner: "APPENDIX A" large at the
 * left, "HIGHLIGHTS FROM PIRLS 2011" small at the right, one row) is judged by its smaller part, as the larger part
 * would be if it stood apart (a line level with a head goes with it); any other block by its median row size.
 */
function smallerPartSize(block: LayoutBlock): number {
  const parts = block.rows.length === 1 ? block.rows[0].segments.filter((segment) => segment.words.length > 0) : [];
  return parts.length >= 2 ? Math.min(...parts.map((part) => part.fontSize)) : blockFontSize(block);
}

/** Vertically overlapping by at least LEVEL_OVERLAP of the lower block's height: in one band. */
function levelWith(a: LayoutBlock, b: LayoutBlock): boolean {
  const overlap = Math.min(a.box[3], b.box[3]) - Math.max(a.box[1], b.box[1]);
  return overlap > LEVEL_OVERLAP * Math.min(boxHeight(a.box), boxHeight(b.box));
}

/** A block that is one line typed of rule characters (`____`, `----`). */
const isRuleBlock = (block: LayoutBlock): boolean => !block.table && block.rows.length === 1 && isTypedRule(block.rows[0]);
