/**
 * Renders every page of a PDF to a PNG and reads its text layer, in pixels of that PNG. This is the work itself, on
 * the thread that calls it; the app runs it in a worker thread through importPdf (pdfImport.ts).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import type { PDFDocumentProxy, PDFPageProxy, TextItem } from 'pdfjs-dist/types/src/display/api.js';
import { readRulings } from './pdfRulings.js';
import type { Box } from '../../app/model/extraction.js';
import type { TextLayer } from '../../app/model/page.js';
import { ImportError, messageOf } from './importError.js';
import {
  bodyTextSize,
  capScale,
  DEFAULT_MAX_PIXELS,
  pagesToRender,
  pageShapeProblem,
  pdfPageDpi,
  type ImportedPage,
  type RenderOptions,
} from './importedDocument.js';
import { loadPdfjs, pdfjsNodeParameters } from './pdfjsNode.js';
import { textItemsToWords, type PdfFontStyle, type PdfTextItem } from './pdfTextLayerWords.js';

/**
 * Renders all pages of the PDF in `bytes` into `outDir` as page-NNNN.png, on this thread.
 * Throws ImportError for corrupt, encrypted or page-less PDFs. `filePath` is only used in messages.
 */
export async function renderPdfPages(
  filePath: string,
  bytes: Uint8Array,
  outDir: string,
  options: RenderOptions = {},
): Promise<ImportedPage[]> {
  const pdfjs = await loadPdfjs();
  // pdf.js takes ownership of (transfers) the buffer it is given: hand it a copy.
  const task = pdfjs.getDocument({ ...pdfjsNodeParameters, data: bytes.slice() });
  let document: PDFDocumentProxy;
  try {
    document = await task.promise;
  } catch (error) {
    await task.destroy();
    throw pdfOpenError(filePath, error);
  }
  try {
    if (document.numPages < 1) throw new ImportError(filePath, 'no-pages', 'the PDF has no pages');
    const wanted = pagesToRender(filePath, document.numPages, options);
    const pages: ImportedPage[] = [];
    for (const pageNumber of wanted) {
      options.signal?.throwIfAborted();
      const page = await document.getPage(pageNumber);
      try {
        pages.push(await renderPage(filePath, page, pageNumber, outDir, options));
      } catch (error) {
        if (error instanceof ImportError) throw error;
        throw new ImportError(filePath, 'corrupt', `page ${pageNumber} cannot be rendered: ${messageOf(error)}`, {
          cause: error,
        });
      } finally {
        page.cleanup();
      }
      options.onPage?.(pageNumber, document.numPages);
    }
    return pages;
  } finally {
    await document.destroy();
  }
}

type RenderParameters = Parameters<PDFPageProxy['render']>[0];

async function renderPage(
  filePath: string,
  page: PDFPageProxy,
  pageNumber: number,
  outDir: string,
  options: RenderOptions,
): Promise<ImportedPage> {
  const natural = page.getViewport({ scale: 1 });
  const shape = pageShapeProblem(natural.width, natural.height, 'pt');
  if (shape) throw new ImportError(filePath, 'too-large', `page ${pageNumber} cannot be rendered: ${shape}`);
  // The text is read first: its size chooses the resolution (small print finer, large type coarser).
  const content = await page.getTextContent();
  const items: PdfTextItem[] = content.items.filter((item): item is TextItem => 'str' in item);
  const dpi = options.dpi ?? pdfPageDpi(natural.width, natural.height, bodyTextSize(items));
  const wanted = dpi / 72;
  const scale = wanted * capScale(natural.width * wanted, natural.height * wanted, options.maxPixels ?? DEFAULT_MAX_PIXELS);
  const viewport = page.getViewport({ scale });
  // Viewport sizes carry float noise (1650.0000000000002); the image has whole pixels.
  const width = Math.max(1, Math.round(viewport.width));
  const height = Math.max(1, Math.round(viewport.height));

  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  const task = page.render({
    // @napi-rs/canvas is the canvas pdf.js itself uses in Node; its types are not the DOM's.
    canvas: canvas as unknown as RenderParameters['canvas'],
    canvasContext: context as unknown as RenderParameters['canvasContext'],
    viewport,
  });
  // A cancel stops the page being drawn too, not only the pages after it (a heavy page can take seconds).
  const cancel = () => task.cancel();
  options.signal?.addEventListener('abort', cancel, { once: true });
  try {
    await task.promise;
  } catch (error) {
    options.signal?.throwIfAborted();
    throw error;
  } finally {
    options.signal?.removeEventListener('abort', cancel);
  }
  const imagePath = path.join(outDir, `page-${String(pageNumber).padStart(4, '0')}.png`);
  await writeFile(imagePath, await canvas.encode('png'));

  const textLayer = await readTextLayer(page, { items, styles: content.styles as Record<string, PdfFontStyle> }, viewport.transform, scale, context, { width, height });
  return { pageNumber, width, height, dpi: Math.round(72 * scale * 100) / 100, imagePath, textLayer };
}

async function readTextLayer(
  page: PDFPageProxy,
  content: { items: PdfTextItem[]; styles: Record<string, PdfFontStyle> },
  viewportTransform: number[],
  scale: number,
  context: SKRSContext2D,
  clipTo: { width: number; height: number },
): Promise<TextLayer> {
  const words = textItemsToWords(content.items, {
    viewportTransform,
    scale,
    clipTo,
    styles: content.styles,
    // After rendering, the page's fonts are loaded and carry their PostScript names ("Helvetica-Bold").
    fontNameOf: (fontId) => {
      if (!page.commonObjs.has(fontId)) return undefined;
      const font = page.commonObjs.get(fontId) as { name?: unknown } | undefined;
      return typeof font?.name === 'string' ? font.name : undefined;
    },
    // Relative glyph widths of a generic face: much closer to the PDF's font than counting characters.
    measure: glyphWidths(context),
  });
  // Ruling lines are evidence for tables; a page whose operator list cannot be read just has none.
  const images: Box[] = [];
  const rulings = await readRulings(page, viewportTransform, clipTo, images).catch(() => []);
  return { words, ...(rulings.length ? { rulings } : {}), ...(images.length ? { images } : {}) };
}

/**
 * Width of a text as the sum of its characters' advances in a generic face (kerning ignored), each character
 * measured once per family: setting a canvas font and measuring is slow, and runs are measured prefix by prefix.
 */
function glyphWidths(context: SKRSContext2D): (text: string, fontFamily: string) => number {
  const families = new Map<string, Map<string, number>>();
  return (text, fontFamily) => {
    let widths = families.get(fontFamily);
    if (!widths) families.set(fontFamily, (widths = new Map()));
    let total = 0;
    for (const char of text) {
      let width = widths.get(char);
      if (width === undefined) {
        context.font = `100px ${fontFamily}`;
        width = context.measureText(char).width;
        widths.set(char, width);
      }
      total += width;
    }
    return total;
  };
}

function pdfOpenError(filePath: string, error: unknown): ImportError {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'PasswordException') {
    return new ImportError(filePath, 'encrypted', 'the PDF is encrypted with a password', { cause: error });
  }
  return new ImportError(filePath, 'corrupt', `the PDF is damaged or not a PDF (${messageOf(error)})`, { cause: error });
}
