/**
 * The one entry for turning a file on disk into page images: sniff the type from its bytes, hash it, render every page
 * into the cache, keep the PDF text layer.
 *
 * Cache layout: `<cacheDir>/<sha256>/page-NNNN.png` plus `document.json` (this module's own record, used to answer a
 * repeated import of the same bytes without rendering again). A document's folder is built under a temporary name
 * and renamed into place only when every page is written, so a failed import leaves nothing behind.
 */
import { randomBytes } from 'node:crypto';
import { createHash } from 'node:crypto';
import { lstat, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { textLayerSchema } from '../../app/model/page.js';
import { importImage } from './imageImport.js';
import { ImportError } from './importError.js';
import {
  DEFAULT_MAX_PAGES,
  DEFAULT_MAX_PIXELS,
  pageCountProblem,
  DEFAULT_PDF_DPI,
  type ImportedDocument,
  type ImportedEInvoice,
  type ImportedPage,
  type RenderOptions,
} from './importedDocument.js';
import { importPdf, messageOf } from './pdfImport.js';
import { importEInvoiceXml } from './einvoicePage.js';
import { readEmbeddedEInvoice } from './pdfAttachments.js';
import { readEInvoiceOffThread } from './readEInvoiceOffThread.js';
import { sniffMediaType, type SupportedMediaType } from './sniffMediaType.js';

/** Bump when rendering or text-layer extraction changes, so cached pages are rendered again. */
const RENDER_VERSION = 9;
const RECORD_FILE = 'document.json';

interface CacheRecord {
  renderVersion: number;
  dpi: number;
  maxPixels: number;
  document: ImportedDocument;
}

/**
 * Reads `filePath`, renders its pages as PNGs under `cacheDir` and returns them with the file's SHA-256 and type.
 * Throws ImportError (message names the file and the reason) for an empty, unreadable, unsupported, corrupt,
 * encrypted or truncated file; nothing is left in `cacheDir` then.
 */
export async function importDocument(
  filePath: string,
  cacheDir: string,
  options: RenderOptions = {},
): Promise<ImportedDocument> {
  options.signal?.throwIfAborted();
  const bytes = await readInput(filePath);
  const mediaType = sniffMediaType(bytes);
  if (!mediaType) {
    throw new ImportError(filePath, 'unsupported-type', 'not a PDF, PNG, JPEG, TIFF or e-invoice XML file (judged by its content)');
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const settings = { dpi: options.dpi ?? DEFAULT_PDF_DPI, maxPixels: options.maxPixels ?? DEFAULT_MAX_PIXELS };

  const finalDir = path.join(cacheDir, sha256);
  // A render of some pages only (options.pages) is never taken from, nor recorded as, the whole document.
  const cached = options.pages ? null : await readCacheRecord(finalDir, settings);
  if (cached) {
    const tooMany = pageCountProblem(cached.pages.length, options.maxPages ?? DEFAULT_MAX_PAGES);
    if (tooMany) throw new ImportError(filePath, 'too-large', tooMany);
    options.onPage?.(cached.pages.length, cached.pages.length);
    return cached;
  }

  await mkdir(cacheDir, { recursive: true });
  const tempDir = path.join(cacheDir, `.importing-${sha256.slice(0, 16)}-${process.pid}-${randomBytes(4).toString('hex')}`);
  await mkdir(tempDir);
  try {
    // PDF pages without an asked-for dpi take one from their size and text size (pdfPageDpi): small print finer.
    const pages = await renderPages(filePath, mediaType, bytes, tempDir, { ...options, maxPixels: settings.maxPixels });
    // Record paths relative to the document folder; they are made absolute again on the way out.
    const einvoice = await einvoiceOf(filePath, mediaType, bytes);
    const document: ImportedDocument = {
      sha256,
      mediaType,
      pages: pages.map((page) => ({ ...page, imagePath: path.basename(page.imagePath) })),
      ...(einvoice ? { einvoice } : {}),
    };
    const record: CacheRecord = { renderVersion: RENDER_VERSION, ...settings, document };
    if (!options.pages) await writeFile(path.join(tempDir, RECORD_FILE), JSON.stringify(record));
    await moveIntoPlace(tempDir, finalDir, settings);
    return (await readCacheRecord(finalDir, settings)) ?? withAbsolutePaths(document, finalDir);
  } catch (error) {
    await rm(tempDir, { recursive: true, force: true });
    if (options.signal?.aborted) throw options.signal.reason;
    if (error instanceof ImportError) throw error;
    throw new ImportError(filePath, 'corrupt', messageOf(error), { cause: error });
  }
}

async function readInput(filePath: string): Promise<Uint8Array> {
  try {
    // lstat: a link is not followed to wherever it points; a FIFO or device is never opened (reading one would wait).
    const info = await lstat(filePath);
    if (info.isSymbolicLink()) throw new ImportError(filePath, 'unreadable', 'the file is a symbolic link; import the file it points to');
    if (!info.isFile()) throw new ImportError(filePath, 'unreadable', 'not a regular file');
    if (info.size === 0) throw new ImportError(filePath, 'empty', 'the file is empty');
    return new Uint8Array(await readFile(filePath));
  } catch (error) {
    if (error instanceof ImportError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'the file does not exist' : `the file cannot be read (${messageOf(error)})`;
    throw new ImportError(filePath, 'unreadable', reason, { cause: error });
  }
}

/**
 * The e-invoice the file carries: a PDF's attachment (a refused one is reported, never fatal), or the XML itself
 * (read already to render its page, so it is readable here).
 */
async function einvoiceOf(filePath: string, mediaType: SupportedMediaType, bytes: Uint8Array): Promise<ImportedEInvoice | undefined> {
  if (mediaType === 'application/xml') {
    const invoice = await readEInvoiceOffThread(bytes, path.basename(filePath));
    return { status: 'read', fileName: path.basename(filePath), syntax: invoice.info.syntax, profile: invoice.info.profile, xmlBase64: Buffer.from(bytes).toString('base64') };
  }
  if (mediaType !== 'application/pdf') return undefined;
  const embedded = await readEmbeddedEInvoice(bytes).catch(() => ({ status: 'none' as const }));
  if (embedded.status === 'none') return undefined;
  if (embedded.status === 'refused') return { status: 'refused', fileName: embedded.fileName, message: embedded.message };
  return {
    status: 'read',
    fileName: embedded.fileName,
    syntax: embedded.invoice.info.syntax,
    profile: embedded.invoice.info.profile,
    xmlBase64: Buffer.from(embedded.bytes).toString('base64'),
  };
}

function renderPages(
  filePath: string,
  mediaType: SupportedMediaType,
  bytes: Uint8Array,
  outDir: string,
  options: RenderOptions,
): Promise<ImportedPage[]> {
  if (mediaType === 'application/pdf') return importPdf(filePath, bytes, outDir, options);
  if (mediaType === 'application/xml') return importEInvoiceXml(filePath, bytes, outDir, options);
  return importImage(filePath, bytes, outDir, options);
}

/**
 * Renames the finished folder into place. When a folder is already there, a concurrent import of the same bytes
 * finished first: its complete render is kept (callers may be using its files) and ours dropped; a stale one (other
 * settings, older renderer) is replaced.
 */
async function moveIntoPlace(tempDir: string, finalDir: string, settings: { dpi: number; maxPixels: number }): Promise<void> {
  try {
    await rename(tempDir, finalDir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    if (await readCacheRecord(finalDir, settings)) {
      await rm(tempDir, { recursive: true, force: true });
      return;
    }
    await rm(finalDir, { recursive: true, force: true });
    await rename(tempDir, finalDir);
  }
}

async function readCacheRecord(
  documentDir: string,
  settings: { dpi: number; maxPixels: number },
): Promise<ImportedDocument | null> {
  let record: CacheRecord;
  try {
    record = JSON.parse(await readFile(path.join(documentDir, RECORD_FILE), 'utf8')) as CacheRecord;
  } catch {
    return null;
  }
  if (
    record.renderVersion !== RENDER_VERSION ||
    record.dpi !== settings.dpi ||
    record.maxPixels !== settings.maxPixels ||
    !Array.isArray(record.document?.pages) ||
    !record.document.pages.every((page) => page.textLayer === null || textLayerSchema.safeParse(page.textLayer).success)
  ) {
    return null;
  }
  const document = withAbsolutePaths(record.document, documentDir);
  for (const page of document.pages) {
    if (!(await stat(page.imagePath).catch(() => null))) return null;
  }
  return document;
}

function withAbsolutePaths(document: ImportedDocument, documentDir: string): ImportedDocument {
  return {
    ...document,
    pages: document.pages.map((page) => ({ ...page, imagePath: path.resolve(documentDir, page.imagePath) })),
  };
}
