/**
 * What the session needs from import: turn a file into pages with images and text layers.
 * The implementation is main/import (pdfjs-dist, sharp); tests may pass their own.
 */
import type { TextLayer } from '../../app/model/page.js';

export interface RenderedPage {
  pageNumber: number;
  width: number;
  height: number;
  dpi: number;
  /** PNG written by the importer into the folder it was given. */
  imagePath: string;
  textLayer: TextLayer | null;
}

export interface InspectedFile {
  sha256: string;
  mediaType: string;
  pages: RenderedPage[];
}

/** Reads `filePath`, writes page images into `outDir`; throws an Error naming the file and the reason on bad input. */
export type InspectFile = (filePath: string, outDir: string, displayName?: string) => Promise<InspectedFile>;
