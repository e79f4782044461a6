/**
 * The files an export writes per page besides its record: `images/<id>.png`, the page as a one-page PDF in
 * `pdfs/<id>.pdf` (what olmOCR-Bench's runner reads, named by tests.jsonl) and, with the olmocr format, a copy beside
 * the page's `.md` (`images/<id>.pdf`, what olmOCR's trainer pairs it with). A file the previous export's manifest
 * lists with the size it still has is kept without being made again (incremental export).
 */
import { createHash } from 'node:crypto';
import type { ManifestFile } from './manifest.js';
import { PagePdfMaker, type PagePdfRequest } from './pagePdfs.js';
import type { StagedExport } from './exportStaging.js';
import { lstatInside, readFileInside } from '../util/containedPaths.js';

const sha256Of = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

export interface PageFileRequest extends PagePdfRequest {
  pageId: string;
  documentName: string;
}

export interface PageFilesOptions {
  outDir: string;
  previous: ReadonlyMap<string, ManifestFile>;
  staged: StagedExport;
  pageImage: (page: PageFileRequest) => Promise<Buffer>;
  /** The source file's bytes (throws when the project lost it): a PDF source gives its own page. */
  sourceBytes?: (sha256: string) => Buffer;
  /** Also a PDF beside each page image (the olmocr layout). */
  pdfBesideImage: boolean;
}

export class ExportPageFiles {
  imagesWritten = 0;
  imagesKept = 0;
  readonly filesWritten: string[] = [];
  private readonly pdfs: PagePdfMaker;

  constructor(private readonly options: PageFilesOptions) {
    this.pdfs = new PagePdfMaker(options.sourceBytes);
  }

  /** Writes (or keeps) the page's files; returns the image and every file with its hash. */
  async write(id: string, page: PageFileRequest): Promise<{ image: { path: string; sha256: string }; files: { path: string; sha256: string }[] }> {
    const imagePath = `images/${id}.png`;
    let png: Buffer | null = null;
    let image: { path: string; sha256: string };
    const keptImage = this.kept(imagePath);
    if (keptImage) {
      image = keptImage;
      this.imagesKept += 1;
    } else {
      png = await this.options.pageImage(page);
      if (this.stage(imagePath, png)) this.imagesWritten += 1;
      else this.imagesKept += 1;
      image = { path: imagePath, sha256: sha256Of(png) };
    }
    const pngBytes = async () => (png ??= readFileInside(this.options.outDir, imagePath));

    const pdfPaths = [`pdfs/${id}.pdf`, ...(this.options.pdfBesideImage ? [`images/${id}.pdf`] : [])];
    const files = [image];
    let pdf: Buffer | null = null;
    for (const pdfPath of pdfPaths) {
      const kept = this.kept(pdfPath);
      if (kept) {
        files.push(kept);
        continue;
      }
      pdf ??= await this.pdfs.make(page, pngBytes);
      this.stage(pdfPath, pdf);
      files.push({ path: pdfPath, sha256: sha256Of(pdf) });
    }
    return { image, files };
  }

  /** The manifest's entry when the folder still holds the file at the size it lists. */
  private kept(relative: string): { path: string; sha256: string } | null {
    const known = this.options.previous.get(relative);
    if (!known) return null;
    const stat = lstatInside(this.options.outDir, relative);
    return stat?.isFile() && stat.size === known.bytes ? { path: relative, sha256: known.sha256 } : null;
  }

  private stage(relative: string, bytes: Buffer): boolean {
    if (!this.options.staged.stageIfChanged(relative, bytes)) return false;
    this.filesWritten.push(relative);
    return true;
  }
}
