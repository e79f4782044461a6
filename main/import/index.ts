/**
 * Import: files on disk → page images (PNG) in a cache folder, with the PDF text layer in page pixels.
 */
export { importDocument } from './importDocument.js';
export { importPdf } from './pdfImport.js';
export { importImage } from './imageImport.js';
export { ImportError, type ImportErrorReason } from './importError.js';
export { sniffMediaType, type SupportedMediaType } from './sniffMediaType.js';
export {
  DEFAULT_IMAGE_DPI,
  DEFAULT_MAX_PIXELS,
  DEFAULT_PDF_DPI,
  type ImportedDocument,
  type ImportedPage,
  type RenderOptions,
} from './importedDocument.js';
