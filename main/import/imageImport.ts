/**
 * Normalises PNG, JPEG and TIFF files to one PNG per page (a multi-page TIFF gives several pages).
 */
import path from 'node:path';
import sharp from 'sharp';
import { ImportError } from './importError.js';
import {
  capScale,
  DEFAULT_IMAGE_DPI,
  DEFAULT_MAX_PIXELS,
  pagesToRender,
  pageShapeProblem,
  type ImportedPage,
  type RenderOptions,
} from './importedDocument.js';
import { messageOf } from './pdfImport.js';

/**
 * Largest image accepted, in pixels (about 31,600 × 31,600): far past any scan (a 20,000 × 20,000 px page decodes and
 * is scaled down to maxPixels while streaming), but it stops a decompression bomb — a few-kB PNG that claims billions
 * of pixels — before libvips starts on it. sharp's own default (268 MP) refused real 20k × 20k pages.
 */
export const MAX_INPUT_PIXELS = 1_000_000_000;

/** Densities outside this range are metadata noise: encoders write 72 or 96 by default whatever the source was. */
const PLAUSIBLE_DPI = { min: 100, max: 2400 };

/**
 * Writes each page of the image in `bytes` to `outDir` as page-NNNN.png: EXIF orientation applied, transparency
 * flattened onto white, scaled down only when it exceeds maxPixels. Throws ImportError for truncated or corrupt data.
 */
export async function importImage(
  filePath: string,
  bytes: Uint8Array,
  outDir: string,
  options: RenderOptions = {},
): Promise<ImportedPage[]> {
  let pageCount: number;
  let density: number | undefined;
  let oversized: string | null = null;
  try {
    const metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
    pageCount = metadata.pages ?? 1;
    density = metadata.density;
    const pixels = (metadata.width ?? 0) * (metadata.pageHeight ?? metadata.height ?? 0);
    if (pixels > MAX_INPUT_PIXELS) {
      oversized = `the image is ${metadata.width} × ${metadata.pageHeight ?? metadata.height} px, over the limit of ${MAX_INPUT_PIXELS.toLocaleString('en')} pixels per page`;
    }
  } catch (error) {
    throw new ImportError(filePath, 'corrupt', `the image cannot be read (${messageOf(error)})`, { cause: error });
  }
  if (oversized) throw new ImportError(filePath, 'too-large', oversized);
  const wanted = pagesToRender(filePath, pageCount, options);
  const fileDpi = density && density >= PLAUSIBLE_DPI.min && density <= PLAUSIBLE_DPI.max ? density : DEFAULT_IMAGE_DPI;
  const maxPixels = options.maxPixels ?? DEFAULT_MAX_PIXELS;

  const pages: ImportedPage[] = [];
  for (const pageNumber of wanted) {
    options.signal?.throwIfAborted();
    const index = pageNumber - 1;
    const imagePath = path.join(outDir, `page-${String(pageNumber).padStart(4, '0')}.png`);
    try {
      // failOn 'warning' (sharp's default, stated here on purpose) rejects truncated data instead of padding it grey.
      const decoded = sharp(bytes, { page: index, failOn: 'warning', limitInputPixels: MAX_INPUT_PIXELS });
      const pageMetadata = await decoded.metadata();
      // EXIF orientations 5–8 turn the image by 90°: width and height swap once `.rotate()` applies them.
      const turned = (pageMetadata.orientation ?? 1) >= 5;
      const sourceWidth = turned ? pageMetadata.height : pageMetadata.width;
      const sourceHeight = turned ? pageMetadata.width : pageMetadata.height;
      const shape = pageShapeProblem(sourceWidth, sourceHeight, 'px');
      if (shape) throw new ImportError(filePath, 'too-large', `${pageCount > 1 ? `page ${pageNumber} of the image` : 'the image'}: ${shape}`);
      const scale = capScale(sourceWidth, sourceHeight, maxPixels);
      let pipeline = decoded.rotate().flatten({ background: '#ffffff' });
      if (scale < 1) {
        pipeline = pipeline.resize(Math.max(1, Math.round(sourceWidth * scale)), Math.max(1, Math.round(sourceHeight * scale)), {
          fit: 'fill',
        });
      }
      const dpi = Math.round(fileDpi * scale * 100) / 100;
      const { width, height } = await pipeline.png().withMetadata({ density: dpi }).toFile(imagePath);
      pages.push({ pageNumber, width, height, dpi, imagePath, textLayer: null });
      options.onPage?.(pageNumber, pageCount);
    } catch (error) {
      if (error instanceof ImportError) throw error;
      const where = pageCount > 1 ? `page ${pageNumber} of the image` : 'the image';
      // libvips appends lines naming our temporary output file: only its first line says what was wrong.
      const detail = messageOf(error).split('\n')[0];
      throw new ImportError(filePath, 'corrupt', `${where} is damaged or truncated (${detail})`, {
        cause: error,
      });
    }
  }
  return pages;
}
