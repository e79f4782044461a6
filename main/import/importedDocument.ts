/**
 * What import produces: the file's identity and one rendered PNG per page, with the PDF text layer where there is one.
 */
import type { TextLayer } from '../../app/model/page.js';
import { DEFAULT_MAX_PAGES, pageCountProblem } from '../../app/model/pageLimits.js';
import { ImportError } from './importError.js';
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
  /**
   * Only these pages (1-based) are rendered, the rest skipped — the page-image cache making one lost page again. The
   * page cap applies to the document's page count all the same.
   */
  pages?: readonly number[];
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

/**
 * Text size. Tesseract's FAQ ("Is there a Minimum / Maximum Text Size?", tessdoc FAQ.md): accuracy drops below an
 * x-height of about 20 px (10 pt at 300 dpi); "below an x-height of 10 pixels, you have very little chance of accurate
 * results"; and with the LSTM engine "there seems also to be a maximum x-height somewhere around 30 px". So where the
 * page-size resolution would put the page's body text outside 10–30 px of x-height, the resolution is moved just
 * inside that band: small print rendered finer (up to MAX_TEXT_DPI), large type coarser (down to MIN_TEXT_DPI). Only
 * to the band's edge, not to 20 px: the image is also what people read, and every page with a text layer would
 * otherwise be rendered at twice the pixels for an OCR that never runs on it.
 */
export const MIN_X_HEIGHT_PX = 10;
export const MAX_X_HEIGHT_PX = 30;
/** x-height as a share of the font size (em): 0.45–0.53 in Times, Helvetica, Arial, Calibri; 0.5 between them. */
const X_HEIGHT_PER_EM = 0.5;
const MAX_TEXT_DPI = 300;
/** Large type is not rendered coarser than this: below it, the page image is too coarse for people. */
const MIN_TEXT_DPI = 100;

/**
 * The resolution a PDF page is rendered at when none is asked for: from the page's size (points) and, where its text
 * layer says it, the size of its body text (points, `bodyTextPt`; see bodyTextSize).
 */
export function pdfPageDpi(widthPt: number, heightPt: number, bodyTextPt?: number | null): number {
  const shorter = Math.min(widthPt, heightPt) / 72;
  const bySize = !(shorter > 0) || shorter >= SMALL_PAGE_INCHES ? DEFAULT_PDF_DPI : Math.min(MAX_SMALL_PAGE_DPI, Math.round((DEFAULT_PDF_DPI * SMALL_PAGE_INCHES) / shorter));
  if (!bodyTextPt || !(bodyTextPt > 0)) return bySize;
  const xHeightInches = (bodyTextPt * X_HEIGHT_PER_EM) / 72;
  const xHeight = xHeightInches * bySize;
  if (xHeight < MIN_X_HEIGHT_PX) return Math.max(bySize, Math.min(MAX_TEXT_DPI, Math.round(MIN_X_HEIGHT_PX / xHeightInches)));
  if (xHeight > MAX_X_HEIGHT_PX) return Math.min(bySize, Math.max(MIN_TEXT_DPI, Math.round(MAX_X_HEIGHT_PX / xHeightInches)));
  return bySize;
}

/** Fewer characters than this in the text layer say nothing of the page's type (a stamped number on a scan). */
const MIN_TEXT_CHARACTERS = 20;

/**
 * The body text size of a page (points): the median font size over its characters, from pdf.js text items
 * (`transform` maps text space to user space, so its vertical axis's length is the font size); null when the page
 * has too little text to say.
 */
export function bodyTextSize(items: readonly { str: string; transform: number[] }[]): number | null {
  const sizes: { size: number; characters: number }[] = [];
  let total = 0;
  for (const item of items) {
    const characters = item.str.replace(/\s/gu, '').length;
    const size = Math.hypot(item.transform[2] ?? 0, item.transform[3] ?? 0);
    if (characters === 0 || !(size > 0)) continue;
    sizes.push({ size, characters });
    total += characters;
  }
  if (total < MIN_TEXT_CHARACTERS) return null;
  sizes.sort((a, b) => a.size - b.size);
  let seen = 0;
  for (const { size, characters } of sizes) {
    seen += characters;
    if (seen * 2 >= total) return size;
  }
  return null;
}
/** Resolution assumed for images that do not say theirs. */
export const DEFAULT_IMAGE_DPI = 144;
/**
 * The page numbers to render of a document of `count` pages, in order: all of them, or those `options.pages` asks
 * for. The one check of the page cap for every renderer (PDF, image, e-invoice XML): past it, ImportError.
 */
export function pagesToRender(filePath: string, count: number, options: RenderOptions): number[] {
  const tooMany = pageCountProblem(count, options.maxPages ?? DEFAULT_MAX_PAGES);
  if (tooMany) throw new ImportError(filePath, 'too-large', tooMany);
  if (!options.pages) return Array.from({ length: count }, (_, i) => i + 1);
  return [...new Set(options.pages)].filter((n) => Number.isSafeInteger(n) && n >= 1 && n <= count).sort((a, b) => a - b);
}

// The page cap and pixel limits live in app/model/pageLimits.ts: every way in (import, merge, corpus import, the
// page-image cache) applies the same ones.
export { DEFAULT_MAX_PIXELS, DEFAULT_MAX_PAGES, MAX_PAGE_SIDE_PX, MAX_ASPECT_RATIO, capScale, pageShapeProblem, pageCountProblem } from '../../app/model/pageLimits.js';
