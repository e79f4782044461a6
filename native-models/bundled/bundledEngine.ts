/**
 * The bundled CPU engine: the PDF's own text layer where the page has a usable one, tesseract.js OCR where not, then
 * layout v1 (reading order, paragraphs, headings) into Markdown with one element per block.
 */
import os from 'node:os';
import sharp from 'sharp';
import { PSM } from 'tesseract.js';
import type { Engine, EngineDescriptor, PageInput, ReadOptions } from '../../app/model/engine.js';
import type { Box, Extraction, Word } from '../../app/model/extraction.js';
import { figureWords, imagesWithText } from './imageRegions.js';
import type { FigureText, LayoutWord } from './layout/layoutTypes.js';
import { pageInvoiceFields, type PageInvoiceFields } from './invoiceFields.js';
import { mayHaveLineEndHyphens, type HyphenationLanguage } from './layout/hyphenation.js';
import { layoutPage } from './layout/layoutPage.js';
import { isPageLanguage, pageLanguage, type PageLanguageCode } from './layout/pageLanguage.js';
import { hyphenationLanguage } from './lexicons.js';
import { boxFromTurned, turnedSize, type QuarterTurns } from './pageOrientation.js';
import { TESSERACT_DATA_FOLDER, TESSERACT_LANGUAGE, TesseractPool } from './tesseractPool.js';
import { LineRecognizer } from './lineRecognizer.js';
import { LineReaderPool, lineReadersFor } from './lineReaderPool.js';
import { judgePartialTextLayer, judgeTextLayer, PARTIAL_CHECK_MAX_CHARACTERS, type TextLayerVerdict } from './textLayerQuality.js';
import { findUnmappedText, unmappedRegions } from './unmappedText.js';

export const BUNDLED_ENGINE_VERSION = '0.5.0';

/**
 * Tesseract workers (and pages read at once) when the caller names no number, however many cores there are. Each page
 * in flight also works on the main thread (decoding and measuring its image, layout, fields: ≈ 0.2 s of a receipt's
 * ≈ 1.6 s, docs/benchmarks.md "Pages at once"), and that thread also answers the review screen: four pages keep it
 * busy about half the time, eight all of it. Four workers hold ≈ 0.4 GB.
 */
export const DEFAULT_MAX_OCR_WORKERS = 4;

export interface BundledEngineOptions {
  /**
   * Most tesseract workers (each holds ~100 MB), created only as pages wait for OCR and reused across pages, and the
   * pages the engine reads at once (`parallelism`); default os.availableParallelism(), at most DEFAULT_MAX_OCR_WORKERS:
   * OCR pages read concurrently each get a core.
   */
  ocrWorkers?: number;
  /** OCR languages, each an installed `@tesseract.js-data/<code>` package (eng, deu, fra, …); default ['eng']. */
  languages?: string[];
  /** Straighten skewed scans (±5°) before OCR; default true. */
  deskew?: boolean;
  /** Read scans turned 90°, 180° or 270° upright (judged from the OCR's own reading); default true. */
  orientation?: boolean;
  /** Paint a dark ground around a scan's paper (a table, an open scanner lid) the paper's grey before OCR (darkSurround.ts); default true. */
  darkSurround?: boolean;
  /** Read a mostly empty scan (a receipt on a whole scanned sheet) as the region its print covers (printRegion.ts); default true. */
  printRegion?: boolean;
  /** Read a weakly read scan again blurred — dot-matrix print's dots joined into strokes — and keep the better reading; default true. */
  dotMatrix?: boolean;
  /** Read a scan not read surely again thresholded locally (Sauvola's method: uneven light, fading print) and keep the better reading; default true. */
  localThreshold?: boolean;
  /** Even out a band of shaded paper at a scan's left or right edge (a scanner's grey edge) before reading it (edgeBands.ts); default true. */
  evenEdgeBands?: boolean;
  /** Read the bands of weakly read key fields (totals, dates, the letterhead) again, alone (regionReread.ts); default true. */
  reread?: boolean;
  /**
   * Read tesseract's weak lines again with PaddleOCR's PP-OCRv4 line recognizer and keep its reading where it is the
   * better one (lineReread.ts); default true. Where its model cannot be loaded, pages are read by tesseract alone
   * with a warning saying why.
   */
  lineReread?: boolean;
  /** Tesseract page-segmentation mode; default 3, automatic segmentation without orientation detection. */
  pageSegmentationMode?: PSM;
  /** Read every page by OCR, even where the PDF has a usable text layer (to compare the two). */
  forceOcr?: boolean;
  /** Detect tables and write them as HTML tables (default true; false gives v1's rows of text). */
  tables?: boolean;
  /** Recognise invoice fields and attach them to `Extraction.fields` (default true). */
  invoiceFields?: boolean;
  /** Use ruling lines seen in OCR'd page images as table evidence (default true; false: column alignment only). */
  imageRulings?: boolean;
  /** OCR the images of text-layer pages that hold text (logos, charts, scanned figures) (default true). */
  imageText?: boolean;
}

export class BundledEngine implements Engine {
  readonly descriptor: EngineDescriptor = {
    id: 'bundled',
    name: 'Bundled (PDF text layer + Tesseract OCR)',
    version: BUNDLED_ENGINE_VERSION,
    // The weights it runs: tesseract's English LSTM model.
    licence: 'Apache-2.0',
    available: true,
  };

  private readonly pool: TesseractPool;
  /** The second readers of weak lines (lineReaderPool.ts), each loaded on the first line it reads; null where switched off. */
  private readonly lineReaders: LineReaderPool | null;
  /** Pages worth reading at once: one per tesseract worker (the reading queue reads this many). */
  readonly parallelism: number;
  private readonly pageSegmentationMode: PSM;
  private readonly languages: string[];
  /** The one OCR language the caller chose, if the engine has reading rules for it: the page's language when its text cannot tell. */
  private readonly chosenLanguage: PageLanguageCode | undefined;

  constructor(private readonly options: BundledEngineOptions = {}) {
    this.pageSegmentationMode = options.pageSegmentationMode ?? PSM.AUTO;
    this.languages = options.languages?.length ? [...options.languages] : [TESSERACT_LANGUAGE];
    const [only, ...more] = options.languages ?? [];
    this.chosenLanguage = only && more.length === 0 && isPageLanguage(only) ? only : undefined;
    this.parallelism = Math.max(1, Math.floor(options.ocrWorkers ?? Math.min(DEFAULT_MAX_OCR_WORKERS, os.availableParallelism())));
    this.lineReaders = options.lineReread === false ? null : new LineReaderPool(Array.from({ length: lineReadersFor(this.parallelism) }, () => new LineRecognizer()));
    this.pool = new TesseractPool(this.parallelism, {
      pageSegmentationMode: this.pageSegmentationMode,
      languages: this.languages,
      deskew: options.deskew,
      orientation: options.orientation,
      darkSurround: options.darkSurround,
      printRegion: options.printRegion,
      dotMatrix: options.dotMatrix,
      localThreshold: options.localThreshold,
      evenEdgeBands: options.evenEdgeBands,
      reread: options.reread,
      ...(this.lineReaders ? { lineReader: this.lineReaders } : {}),
    });
  }

  async read(input: PageInput, options: ReadOptions = {}): Promise<Extraction> {
    const { signal, onEvent } = options;
    const started = performance.now();
    signal?.throwIfAborted();
    onEvent?.({ type: 'progress', fraction: 0, message: `${input.label}: reading` });
    try {
      const warnings: string[] = [];
      let verdict = judgeTextLayer(input.textLayer);
      if (verdict.usable && input.textLayer && !this.options.forceOcr) verdict = await partialLayerVerdict(input, verdict);
      const useTextLayer = verdict.usable && !this.options.forceOcr;
      if (input.textLayer && input.textLayer.words.length > 0 && !verdict.usable) {
        warnings.push(`PDF text layer not used (${verdict.reason}); page read by OCR`);
      }
      let words: LayoutWord[];
      let skew = 0;
      let secondReader: Record<string, unknown> | undefined;
      let printRegion: Box | undefined;
      let blurred: number | undefined;
      let localThreshold: true | undefined;
      let groundPainted: number | undefined;
      let bandColumns: number | undefined;
      let rulings: readonly Box[] | undefined = useTextLayer ? input.textLayer?.rulings : undefined;
      // OCR of a page turned 90/180/270°: layout works on the page turned upright, boxes are turned back at the end.
      let turns: QuarterTurns = 0;
      // Words of the text layer drawn in fonts without a Unicode map: dropped, their regions read by OCR instead.
      let unmappedBoxes: Box[] = [];
      if (useTextLayer && input.textLayer) {
        const { mapped, unmapped } = findUnmappedText(input.textLayer.words);
        unmappedBoxes = unmappedRegions(unmapped, input);
        words = mapped.map((word) => ({
          text: word.text,
          box: word.box,
          confidence: 1,
          fontSize: word.fontSize,
          fontName: word.fontName,
        }));
      } else {
        const ocr = await this.pool.recognize(input.imagePath, {
          dpi: input.dpi,
          signal,
          onProgress: (fraction) =>
            onEvent?.({ type: 'progress', fraction: 0.05 + 0.85 * fraction, message: `${input.label}: OCR` }),
        });
        [skew, turns, printRegion, blurred, localThreshold, groundPainted, bandColumns] = [ocr.skew, ocr.turns, ocr.printRegion, ocr.blurred, ocr.localThreshold, ocr.groundPainted, ocr.bandColumns];
        if (ocr.lineReread) {
          const { read, replaced, unavailable } = ocr.lineReread;
          secondReader = { reader: 'pp-ocrv4-rec', linesRead: read, wordsReplaced: replaced };
          if (unavailable) warnings.push(`${unavailable}; weak lines kept as tesseract read them`);
        }
        if (this.options.imageRulings !== false) rulings = ocr.rulings;
        words = ocr.words.map(({ lineHeight, ...word }) => ({ ...word, fontSize: lineHeight }));
      }
      signal?.throwIfAborted();
      // Hybrid pages: text painted as images on a page read from its text layer is read by OCR, image by image.
      const figures = useTextLayer && this.options.imageText !== false ? await this.readImageText(input, words, unmappedBoxes, signal) : [];
      const upright = turnedSize(input.width, input.height, turns);
      const layout = layoutPage(words, {
        source: useTextLayer ? 'text-layer' : 'ocr',
        pageHeight: upright.height,
        tables: this.options.tables,
        rulings,
        figures,
        language: await this.hyphenationFor(words, warnings),
      });
      const uprightWords = [
        ...words.map((word): Word => ({ text: word.text, box: word.box, confidence: word.confidence })),
        ...figures.flatMap((figure) => figure.words).map((word): Word => ({ text: word.text, box: word.box, confidence: word.confidence, fromImage: true })),
      ];
      const uprightFields = this.options.invoiceFields === false ? undefined : pageInvoiceFields(uprightWords, layout.markdown);
      const { markdown, furniture } = layout;
      const toPage = (box: Box): Box => boxFromTurned(box, turns, input.width, input.height);
      const elements = turns === 0 ? layout.elements : layout.elements.map((element) => ({
        ...element,
        box: toPage(element.box),
        ...(element.cells ? { cells: element.cells.map((cell) => ({ ...cell, box: toPage(cell.box) })) } : {}),
      }));
      const plainWords = turns === 0 ? uprightWords : uprightWords.map((word) => ({ ...word, box: toPage(word.box) }));
      const fields = turns === 0 || !uprightFields ? uprightFields : { ...uprightFields, invoiceSources: turnSources(uprightFields.invoiceSources, toPage) };
      const stats = { durationMs: Math.round(performance.now() - started) };
      onEvent?.({ type: 'stats', stats });
      onEvent?.({ type: 'progress', fraction: 1, message: `${input.label}: done` });
      return {
        markdown,
        elements,
        page: { width: input.width, height: input.height },
        engine: {
          id: this.descriptor.id,
          name: this.descriptor.name,
          version: this.descriptor.version,
          packSha256: null,
          licence: this.descriptor.licence,
          provider: useTextLayer ? 'text-layer' : 'tesseract',
          settings: useTextLayer
            ? { source: 'text-layer' }
            : {
                source: 'tesseract',
                language: this.languages.join('+'),
                data: TESSERACT_DATA_FOLDER,
                oem: 'LSTM_ONLY',
                preprocess: this.options.deskew === false ? 'greyscale+normalise' : 'greyscale+normalise+deskew',
                skewDegrees: skew,
                // Clockwise degrees the page image was turned to read it upright (boxes are on the image as given).
                orientationDegrees: turns * 90,
                pageSegmentationMode: Number(this.pageSegmentationMode),
                dpi: input.dpi,
                ...(secondReader ? { secondReader } : {}),
                // A mostly empty page read as the region its print covers (printRegion.ts), in the image's pixels.
                ...(printRegion ? { printRegion: printRegion.map(Math.round) } : {}),
                // A weakly read page whose reading blurred (dot-matrix dots joined) was kept: the blur's sigma.
                ...(blurred !== undefined ? { blurSigma: Math.round(blurred * 100) / 100 } : {}),
                // A page not read surely whose reading thresholded locally (Sauvola's method) was kept.
                ...(localThreshold ? { threshold: 'local' } : {}),
                // The share of the page whose dark ground around the paper was painted paper-grey (darkSurround.ts).
                ...(groundPainted ? { groundPainted: Math.round(groundPainted * 1000) / 1000 } : {}),
                // Columns of a band of shaded paper at the scan's edge evened out before reading (edgeBands.ts), in OCR pixels.
                ...(bandColumns ? { edgeBandColumns: bandColumns } : {}),
              },
        },
        stats,
        words: plainWords,
        warnings,
        ...(fields || furniture.length ? { fields: { ...fields, ...(furniture.length ? { pageFurniture: furniture } : {}) } } : {}),
      };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`${input.label}: the bundled engine could not read the page: ${reason}`, { cause: error });
    }
  }

  async dispose(): Promise<void> {
    await Promise.all([this.pool.dispose(), this.lineReaders?.dispose()]);
  }

  /**
   * The page's language, with its word list, for hyphenated line ends: told by the page's text, else the one OCR
   * language the caller chose; nothing is loaded for a page without a line-end hyphen. A word list that cannot be
   * loaded leaves the page's own words to decide, with a warning.
   */
  private async hyphenationFor(words: readonly LayoutWord[], warnings: string[]): Promise<HyphenationLanguage | undefined> {
    const texts = words.map((word) => word.text);
    if (!mayHaveLineEndHyphens(texts)) return undefined;
    const code = pageLanguage(texts) ?? this.chosenLanguage;
    if (!code) return undefined;
    try {
      return await hyphenationLanguage(code);
    } catch (error) {
      warnings.push(`${error instanceof Error ? error.message : String(error)}; hyphenated line ends decided by the page's own words`);
      return undefined;
    }
  }

  /**
   * The text of the page's images that may hold some (imageRegions.ts) and of the regions drawn in unmapped fonts
   * (unmappedText.ts), one figure per region with words left.
   */
  private async readImageText(input: PageInput, layerWords: readonly LayoutWord[], unmapped: readonly Box[], signal?: AbortSignal): Promise<FigureText[]> {
    const images = input.textLayer?.images ?? [];
    if (images.length === 0 && unmapped.length === 0) return [];
    const imageRegions = images.length ? await imagesWithText(input.imagePath, images, layerWords, input.dpi) : [];
    // An unmapped region inside an image that is read anyway is read with it.
    const regions = [...imageRegions, ...unmapped.filter((box) => !imageRegions.some((image) => contains(image, box)))];
    if (regions.length === 0) return [];
    const read = await this.pool.recognizeRegions(input.imagePath, regions, { dpi: input.dpi, signal });
    return read.map((words) => ({ words: figureWords(words, layerWords) })).filter((figure) => figure.words.length > 0);
  }
}

const contains = (outer: Box, box: Box): boolean => box[0] >= outer[0] && box[1] >= outer[1] && box[2] <= outer[2] && box[3] <= outer[3];

/** Width of the page thumbnail the partial-text-layer check looks at: enough to see lines of text as ink. */
const INK_THUMBNAIL_WIDTH = 500;

/**
 * Pages with little text in their text layer: is the rest of the page ink without text (a scanned body under a
 * typed header)? An unreadable image leaves the verdict as it was (the text layer is then all there is).
 */
async function partialLayerVerdict(input: PageInput, verdict: TextLayerVerdict): Promise<TextLayerVerdict> {
  const characters = input.textLayer!.words.reduce((sum, word) => sum + word.text.length, 0);
  if (characters > PARTIAL_CHECK_MAX_CHARACTERS) return verdict;
  try {
    const width = Math.min(INK_THUMBNAIL_WIDTH, input.width);
    const { data, info } = await sharp(input.imagePath).greyscale().resize({ width }).threshold(160).raw().toBuffer({ resolveWithObject: true });
    return judgePartialTextLayer(input.textLayer!, { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height, scale: info.width / input.width });
  } catch {
    return verdict;
  }
}

/** Invoice field sources with every box mapped by `toPage`. */
function turnSources(sources: PageInvoiceFields['invoiceSources'], toPage: (box: Box) => Box): PageInvoiceFields['invoiceSources'] {
  const turn = (source: { text: string; label: string | null; boxes: Box[] }) => ({ ...source, boxes: source.boxes.map(toPage) });
  return Object.fromEntries(Object.entries(sources).map(([key, value]) => [key, Array.isArray(value) ? value.map(turn) : turn(value)]));
}
