/**
 * Layout v1: words → segments → reading-order regions → paragraph blocks → headings → Markdown + Elements.
 * Pure; issue "Bundled CPU engine" deepens each step (tables, lists, running headers) behind this signature.
 */
import { buildBlocks, classifyHeadings, markPageNumber, OCR_HEADINGS, TEXT_LAYER_HEADINGS } from './buildBlocks.js';
import { buildSegments } from './buildSegments.js';
import type { LayoutBlock, LayoutWord } from './layoutTypes.js';
import { orderRegions } from './readingOrder.js';
import { renderMarkdown, type RenderedPage } from './renderMarkdown.js';

export interface LayoutPageOptions {
  /** Where the words came from: decides how far font sizes can be trusted for headings. */
  source: 'text-layer' | 'ocr';
  pageHeight: number;
}

export function layoutBlocks(words: readonly LayoutWord[], options: LayoutPageOptions): LayoutBlock[] {
  const visible = words.filter((word) => word.text.trim().length > 0);
  const regions = orderRegions(buildSegments(visible));
  const blocks = regions.flatMap((region) => buildBlocks(region));
  const headed = classifyHeadings(blocks, options.source === 'ocr' ? OCR_HEADINGS : TEXT_LAYER_HEADINGS);
  return markPageNumber(headed, options.pageHeight);
}

export function layoutPage(words: readonly LayoutWord[], options: LayoutPageOptions): RenderedPage {
  return renderMarkdown(layoutBlocks(words, options));
}
