/**
 * A standalone `.xml` e-invoice imported as a document: its readable layout (app/einvoice/readablePage.ts) drawn into
 * A4 PNG pages at the PDF resolution, each with a text layer of the words it drew (boxes measured with the same
 * canvas), so the page is shown, read and reviewed like a born-digital PDF page.
 *
 * Why a rendered page and not a Markdown-only page: the page model is an image plus a text layer, and every part of
 * Recto (review beside the image, boxes, curation, corpus export of images) works on that; a generated page fits it
 * without a special case anywhere downstream.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { EInvoiceError } from '../../app/einvoice/index.js';
import { readEInvoiceOffThread } from './readEInvoiceOffThread.js';
import { readablePageRows, type PageRow } from '../../app/einvoice/readablePage.js';
import type { TextLayerWord } from '../../app/model/page.js';
import { ImportError } from './importError.js';
import { DEFAULT_PDF_DPI, pagesToRender, type ImportedPage, type RenderOptions } from './importedDocument.js';

/** A4 in points, margins and type sizes of the generated page (points; scaled to the dpi). */
const A4 = { width: 595, height: 842 };
const MARGIN = 56;
const FONT_SIZE = 10;
const HEADING_SIZE = 13;
const LINE_HEIGHT = 1.6;
const FONT_FAMILY = 'sans-serif';

interface Placed {
  row: PageRow;
  y: number;
}

/** Rows onto pages: a new page where the next row would cross the bottom margin. */
function paginate(rows: PageRow[]): Placed[][] {
  const pages: Placed[][] = [[]];
  let y = MARGIN;
  for (const row of rows) {
    const size = row.heading ? HEADING_SIZE : FONT_SIZE;
    y += (row.gapBefore ?? 0) * FONT_SIZE * LINE_HEIGHT;
    if (y + size * LINE_HEIGHT > A4.height - MARGIN && pages[pages.length - 1]!.length > 0) {
      pages.push([]);
      y = MARGIN;
    }
    pages[pages.length - 1]!.push({ row, y });
    y += size * LINE_HEIGHT;
  }
  return pages;
}

export async function importEInvoiceXml(filePath: string, bytes: Uint8Array, outDir: string, options: RenderOptions = {}): Promise<ImportedPage[]> {
  let rows: PageRow[];
  try {
    // Read in a worker thread with a time limit: the XML is untrusted bytes (readEInvoiceOffThread.ts).
    rows = readablePageRows(await readEInvoiceOffThread(bytes, path.basename(filePath)));
  } catch (error) {
    if (error instanceof EInvoiceError) throw new ImportError(filePath, 'corrupt', `not a readable e-invoice: ${error.message}`, { cause: error });
    throw error;
  }
  const dpi = options.dpi ?? DEFAULT_PDF_DPI;
  const scale = dpi / 72;
  const width = Math.round(A4.width * scale);
  const height = Math.round(A4.height * scale);
  const textWidth = (A4.width - 2 * MARGIN) * scale;
  const pages: ImportedPage[] = [];
  const placedPages = paginate(rows);
  // The cap is checked on the page count before any page is drawn: a 9.3 MB XML laid out as 5,557 pages was drawn
  // whole before (issue 23, hole 4).
  const wanted = new Set(pagesToRender(filePath, placedPages.length, options));
  for (const [index, placed] of placedPages.entries()) {
    if (!wanted.has(index + 1)) continue;
    options.signal?.throwIfAborted();
    const canvas = createCanvas(width, height);
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    context.fillStyle = '#000000';
    context.textBaseline = 'alphabetic';
    const words: TextLayerWord[] = [];
    for (const { row, y } of placed) {
      const size = (row.heading ? HEADING_SIZE : FONT_SIZE) * scale;
      const baseline = (y + (row.heading ? HEADING_SIZE : FONT_SIZE)) * scale;
      for (const cell of row.cells) {
        context.font = `${cell.bold ? 'bold ' : ''}${size}px ${FONT_FAMILY}`;
        const cellWidth = context.measureText(cell.text).width;
        let x = MARGIN * scale + cell.x * textWidth - (cell.align === 'right' ? cellWidth : 0);
        context.fillText(cell.text, x, baseline);
        const space = context.measureText(' ').width;
        const tokens = cell.text.split(' ');
        tokens.forEach((token, i) => {
          const w = context.measureText(token).width;
          if (token) {
            words.push({
              text: token,
              box: [x, baseline - size * 0.8, x + w, baseline + size * 0.2],
              fontSize: size,
              fontName: cell.bold ? 'Helvetica-Bold' : 'Helvetica',
              endOfLine: i === tokens.length - 1 && cell === row.cells[row.cells.length - 1],
            });
          }
          x += w + space;
        });
      }
    }
    const imagePath = path.join(outDir, `page-${String(index + 1).padStart(4, '0')}.png`);
    await writeFile(imagePath, await canvas.encode('png'));
    pages.push({ pageNumber: index + 1, width, height, dpi, imagePath, textLayer: { words } });
    options.onPage?.(index + 1, placedPages.length);
  }
  return pages;
}
