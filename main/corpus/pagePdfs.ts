/**
 * The exported page as a one-page PDF, for the tools that take PDFs only: olmOCR-Bench's runner reads
 * `pdfs/**\/*.pdf` and scores each test against the page its `pdf` names (olmocr/bench/benchmark.py), and olmOCR's
 * trainer pairs each `<stem>.md` with the `<stem>.pdf` beside it (olmocr/train/dataloader.py). The page is the
 * source PDF's own page where the source is a PDF that pdf-lib can copy a page from (text layer, vectors and fonts
 * kept), otherwise the page image placed on a page of its printed size (pixels / dpi). The files are deterministic:
 * no creation or modification time, no producer, so the same page gives the same bytes in every export.
 */
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';

/** Points per inch: PDF page sizes are in points. */
const POINTS_PER_INCH = 72;
/** A page image's size in points when the page's dpi is unknown (0): the dpi Recto renders pages at. */
const FALLBACK_DPI = 144;
/**
 * The page image goes into the PDF as a JPEG of this quality: pdf-lib embeds a JPEG as it is (DCTDecode), while a PNG
 * it decodes and compresses again in JavaScript — about a second a page against a few milliseconds for sharp's JPEG.
 * At 92 the text of a 150-dpi page is unchanged for a reader that renders the PDF again (olmOCR does).
 */
const PAGE_JPEG_QUALITY = 92;

export interface PagePdfRequest {
  documentSha256: string;
  mediaType: string;
  pageNumber: number;
  /** The page image's size in pixels and its dpi, for a page made from the image. */
  width: number;
  height: number;
  dpi: number;
}

/** Metadata-free one-page documents: pdf-lib writes a producer and the current time unless told not to. */
async function emptyDocument(): Promise<PDFDocument> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  return doc;
}

const save = (doc: PDFDocument) => doc.save({ useObjectStreams: false, addDefaultPage: false }).then((bytes) => Buffer.from(bytes));

/** A one-page PDF showing the PNG at the page's printed size. */
export async function imagePagePdf(png: Buffer, page: { width: number; height: number; dpi: number }): Promise<Buffer> {
  const doc = await emptyDocument();
  const jpeg = await sharp(png).flatten({ background: '#ffffff' }).jpeg({ quality: PAGE_JPEG_QUALITY }).toBuffer();
  const image = await doc.embedJpg(jpeg);
  const dpi = page.dpi > 0 ? page.dpi : FALLBACK_DPI;
  const width = ((page.width || image.width) / dpi) * POINTS_PER_INCH;
  const height = ((page.height || image.height) / dpi) * POINTS_PER_INCH;
  const pdfPage = doc.addPage([width, height]);
  pdfPage.drawImage(image, { x: 0, y: 0, width, height });
  return save(doc);
}

/**
 * Makes the page PDFs of an export. Source PDFs are parsed once for all their pages (the last one is kept: pages are
 * exported document by document); a source that cannot be parsed or copied from (encrypted, damaged, missing)
 * falls back to the page image.
 */
export class PagePdfMaker {
  private loaded: { sha256: string; doc: PDFDocument | null } | null = null;

  constructor(private readonly sourceBytes: ((sha256: string) => Buffer) | undefined) {}

  async make(request: PagePdfRequest, png: () => Promise<Buffer>): Promise<Buffer> {
    const source = request.mediaType === 'application/pdf' ? await this.source(request.documentSha256) : null;
    if (source && request.pageNumber <= source.getPageCount()) {
      try {
        const doc = await emptyDocument();
        const [copied] = await doc.copyPages(source, [request.pageNumber - 1]);
        doc.addPage(copied);
        return await save(doc);
      } catch {
        // A page pdf-lib cannot copy (a broken object in it): the image shows the page all the same.
      }
    }
    return imagePagePdf(await png(), request);
  }

  private async source(sha256: string): Promise<PDFDocument | null> {
    if (this.loaded?.sha256 !== sha256) {
      let doc: PDFDocument | null = null;
      try {
        const bytes = this.sourceBytes?.(sha256);
        if (bytes) doc = await PDFDocument.load(bytes, { updateMetadata: false });
      } catch {
        doc = null; // encrypted, damaged or missing: the page image is used
      }
      this.loaded = { sha256, doc };
    }
    return this.loaded.doc;
  }
}
