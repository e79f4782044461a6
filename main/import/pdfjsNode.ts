/**
 * pdf.js set up for Node: the legacy build, with standard fonts, CMaps, ICC profiles and image-decoder wasm read
 * from the installed pdfjs-dist package, so born-digital PDFs that rely on the 14 standard fonts or on CJK CMaps
 * render their text. Nothing is fetched over the network.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { DocumentInitParameters } from 'pdfjs-dist/types/src/display/api.js';

const require = createRequire(import.meta.url);
const pdfjsRoot = path.dirname(require.resolve('pdfjs-dist/package.json'));

/** pdf.js's Node file readers join these with file names, so each must end with a separator. */
const folder = (name: string): string => path.join(pdfjsRoot, name) + path.sep;

export const pdfjsNodeParameters: DocumentInitParameters = {
  standardFontDataUrl: folder('standard_fonts'),
  cMapUrl: folder('cmaps'),
  cMapPacked: true,
  iccUrl: folder('iccs'),
  wasmUrl: folder('wasm'),
  useSystemFonts: false,
  // Errors only: real-world PDFs produce many harmless warnings.
  verbosity: 0,
};

type PdfjsModule = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let loaded: Promise<PdfjsModule> | null = null;

/** The pdf.js module, loaded once on first use (it is large). */
export function loadPdfjs(): Promise<PdfjsModule> {
  loaded ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return loaded;
}
