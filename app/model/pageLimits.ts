/**
 * The limits every page is held to, whichever way it enters a project or is rendered again: import of a PDF, image
 * or e-invoice XML, the page-image cache re-rendering a stored source, a merged project's pages, a corpus's records.
 * Pure arithmetic, so the store, import and the corpus code all apply the very same numbers.
 */

/** 36 megapixels: an A0 poster at ~150 dpi; a 20000 × 20000 px page is scaled to 6000 × 6000. */
export const DEFAULT_MAX_PIXELS = 36_000_000;

/**
 * Pages per document: 2,000 is past any invoice run or bound report, and rendering them takes minutes; a few MB of PDF
 * can declare a million pages, which would otherwise be rendered one by one for hours.
 */
export const DEFAULT_MAX_PAGES = 2_000;
/** Longest side of a page image: 20,000 px (3.4 m at 150 dpi). Skia's canvases end at 32,767 px. */
export const MAX_PAGE_SIDE_PX = 20_000;
/**
 * Longest side over shortest side: a till receipt is about 1:20, a ledger sheet 1:3. A page past 1:100 is a sliver
 * (a 1e-5 pt high PDF page would become a 2.28e8 × 1 px canvas, 1 GB, under the pixel cap alone).
 */
export const MAX_ASPECT_RATIO = 100;

/** The scale (≤ 1) that brings width × height under maxPixels and each side under MAX_PAGE_SIDE_PX. */
export function capScale(width: number, height: number, maxPixels: number): number {
  const pixels = width * height;
  const byPixels = pixels > maxPixels ? Math.sqrt(maxPixels / pixels) : 1;
  const longest = Math.max(width, height);
  return Math.min(byPixels, longest > MAX_PAGE_SIDE_PX ? MAX_PAGE_SIDE_PX / longest : 1);
}

/** Why a page of this size is refused (a sliver, no area, not a number), or null when it is a page. */
export function pageShapeProblem(width: number, height: number, unit: 'pt' | 'px'): string | null {
  const size = `${Number(width.toPrecision(4))} × ${Number(height.toPrecision(4))} ${unit}`;
  if (!Number.isFinite(width) || !Number.isFinite(height) || width <= 0 || height <= 0) return `it is ${size}, not a page`;
  if (Math.max(width, height) / Math.min(width, height) > MAX_ASPECT_RATIO) {
    return `it is ${size}, longer than ${MAX_ASPECT_RATIO} times its width (a sliver, not a page)`;
  }
  return null;
}

/** Why a document of `pages` pages is refused, or null. */
export function pageCountProblem(pages: number, maxPages: number): string | null {
  return pages > maxPages
    ? `it has ${pages.toLocaleString('en')} pages, over the limit of ${maxPages.toLocaleString('en')} pages per document (Settings: maxPagesPerDocument)`
    : null;
}

/** A rendered image's sides are rounded to whole pixels, so its area may pass the cap by a hair. */
const PIXEL_ROUNDING_SLACK = 1.01;

/**
 * Why a stored page (a row from another project or a corpus) is refused: its number past the page cap, its image size
 * past the side, pixel or aspect limits. Null when it is within them.
 */
export function storedPageProblem(page: { pageNumber: number; width: number; height: number }, maxPages = DEFAULT_MAX_PAGES): string | null {
  if (!Number.isSafeInteger(page.pageNumber) || page.pageNumber < 1) return `page number ${page.pageNumber} is not a page number`;
  if (page.pageNumber > maxPages) return `page ${page.pageNumber} is past the limit of ${maxPages.toLocaleString('en')} pages per document`;
  const shape = pageShapeProblem(page.width, page.height, 'px');
  if (shape) return `page ${page.pageNumber}: ${shape}`;
  if (Math.max(page.width, page.height) > MAX_PAGE_SIDE_PX || page.width * page.height > DEFAULT_MAX_PIXELS * PIXEL_ROUNDING_SLACK) {
    return `page ${page.pageNumber} is ${page.width} × ${page.height} px, past the limits (${MAX_PAGE_SIDE_PX.toLocaleString('en')} px a side, ${DEFAULT_MAX_PIXELS.toLocaleString('en')} pixels)`;
  }
  return null;
}
