/**
 * What import produces: the file's identity and one rendered PNG per page, with the PDF text layer where there is one.
 */
import type { TextLayer } from '../../app/model/page.js';
import type { SupportedMediaType } from './sniffMediaType.js';

export interface ImportedPage {
  /** 1-based. */
  pageNumber: number;
  /** Size of the PNG at imagePath, in pixels. */
  width: number;
  height: number;
  /** Resolution of the PNG (lower than asked when a huge page was capped). */
  dpi: number;
  /** Absolute path of the rendered page image (PNG) inside the cache folder. */
  imagePath: string;
  /** PDF text layer in pixels of that image; null for images. Empty `words` when the PDF page has no text. */
  textLayer: TextLayer | null;
}

/**
 * The e-invoice a document carries: a PDF's embedded CII/UBL attachment (ZUGFeRD, Factur-X, XRechnung) or the
 * imported XML file itself. `refused`: there is one but it cannot be read (too large, DOCTYPE, malformed); the
 * document is still imported and read from its page, and the message says why.
 */
export type ImportedEInvoice =
  | { status: 'read'; fileName: string; syntax: 'CII' | 'UBL'; profile: string | null; xmlBase64: string }
  | { status: 'refused'; fileName: string; message: string };

export interface ImportedDocument {
  /** SHA-256 of the file's bytes, lower-case hex. */
  sha256: string;
  mediaType: SupportedMediaType;
  pages: ImportedPage[];
  /** Absent where the document carries no e-invoice. */
  einvoice?: ImportedEInvoice;
}

export interface RenderOptions {
  /** Resolution for PDF pages; 150 by default (≥ 144 keeps small print readable for OCR and people). */
  dpi?: number;
  /** Upper bound on width × height of one page image; larger pages are scaled down to it. */
  maxPixels?: number;
  /** Most pages accepted in one document; a longer one is refused before any page is rendered (DEFAULT_MAX_PAGES). */
  maxPages?: number;
  /** Stops between pages and cancels the page being rendered; the import then rejects with the signal's reason and leaves nothing in the cache. */
  signal?: AbortSignal;
  /** Called after each page is written: pages done so far and the document's page count. */
  onPage?: (done: number, total: number) => void;
}

export const DEFAULT_PDF_DPI = 150;
/**
 * Pages whose shorter side is under SMALL_PAGE_INCHES (a 3 × 5 in card, a coupon) are rendered finer, in proportion,
 * up to MAX_SMALL_PAGE_DPI: their print is small too, and at 150 dpi OCR gets glyphs too few pixels tall to read.
 */
const SMALL_PAGE_INCHES = 5;
const MAX_SMALL_PAGE_DPI = 300;

/** The resolution a PDF page is rendered at when none is asked for: from the page's size (points). */
export function pdfPageDpi(widthPt: number, heightPt: number): number {
  const shorter = Math.min(widthPt, heightPt) / 72;
  if (!(shorter > 0) || shorter >= SMALL_PAGE_INCHES) return DEFAULT_PDF_DPI;
  return Math.min(MAX_SMALL_PAGE_DPI, Math.round((DEFAULT_PDF_DPI * SMALL_PAGE_INCHES) / shorter));
}
/** Resolution assumed for images that do not say theirs. */
export const DEFAULT_IMAGE_DPI = 144;
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
