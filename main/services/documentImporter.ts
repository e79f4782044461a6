/**
 * What the session needs from import: turn a file into pages with images and text layers.
 * The shapes are main/import's own; the function is injected so tests may pass another importer.
 */
import type { ImportedDocument } from '../import/index.js';

export type InspectedFile = ImportedDocument;

/** Reads `filePath`, writes page images into `outDir`; throws an Error naming the file and the reason on bad input. */
export type InspectFile = (filePath: string, outDir: string, displayName?: string, options?: InspectOptions) => Promise<InspectedFile>;

export interface InspectOptions {
  /** Most pages accepted in the document (the user's setting); more is a clear error naming the file. */
  maxPages?: number;
  /** Only these pages are rendered (the page-image cache making a lost page again). */
  pages?: readonly number[];
}
