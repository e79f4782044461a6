/**
 * One page through tesseract: its dark ground painted paper-grey (darkSurround.ts), cut to its print where it is
 * mostly empty (printRegion.ts), scaled to a readable text size, straightened, read (again as one block where
 * automatic segmentation found nothing on a page with ink; again thresholded locally where it was not read surely:
 * uneven light; again blurred where it read weakly: dot-matrix print), turned upright where the page reads better
 * turned (a probe band first for a page that may be upside down), its rulings measured, and every box mapped back to
 * the page image.
 */
import { PSM, type RecognizeOptions as RecognizeJobOptions, type Worker } from 'tesseract.js';
import type { Box } from '../../app/model/extraction.js';
import { straighten, type Straightened } from './deskew.js';
import { mayHoldInversePrint } from './inversePrint.js';
import { encodePgm, loadOcrPage, MAX_OCR_PIXELS, turnGrey, type GreyImage } from './ocrImage.js';
import { atReadableTextSize, centredOn, cropRows, inkedGlyphHeight, MIN_DARK_SHARE, rulingsOf, tesseractDpi } from './ocrPageImage.js';
import { boxToTurned, judgeOrientation, probeBand, turnedReadingWins, type QuarterTurns } from './pageOrientation.js';
import { rereadWeakLines, type LineReader, type LineRereadReport } from './lineReread.js';
import { rereadWeakRegions } from './regionReread.js';
import { withoutRuleMarks } from './ruleMarks.js';
import { wordsOf, type OcrPage, type OcrWord } from './tesseractWords.js';

export interface OcrSettings {
  pageSegmentationMode: PSM;
  /** Tesseract language codes, each from an installed `@tesseract.js-data/<code>` package; default ['eng']. */
  languages?: readonly string[];
  /** Straighten skewed pages before OCR (projection-profile estimate, ±5°); default true. */
  deskew?: boolean;
  /** Read pages turned 90°, 180° or 270° upright (see pageOrientation.ts); default true. */
  orientation?: boolean;
  /** Paint a dark ground around the paper (a table, an open lid) the paper's grey before reading (darkSurround.ts); default true. */
  darkSurround?: boolean;
  /** Read a mostly empty page as the region its print covers (printRegion.ts); default true. */
  printRegion?: boolean;
  /** Read a weakly read page again blurred (dot-matrix print's dots joined), the better reading kept; default true. */
  dotMatrix?: boolean;
  /** Even out a band of shaded paper at the page's left or right edge before reading (edgeBands.ts); default true. */
  evenEdgeBands?: boolean;
  /** Read a page not read surely again thresholded locally (Sauvola's method), the better reading kept; default true. */
  localThreshold?: boolean;
  /** Read the bands of weakly read key fields again (regionReread.ts); default true. */
  reread?: boolean;
  /**
   * The second reader of weak lines (lineReread.ts: PP-OCR's line recognizer), shared by the engine's pages; none:
   * tesseract's reading alone.
   */
  lineReader?: LineReader;
}

export interface RecognizeOptions {
  dpi: number;
  signal?: AbortSignal;
  /** 0–1 as tesseract reports recognition progress. */
  onProgress?: (fraction: number) => void;
  /** The skew (degrees) the page was straightened by before OCR, 0 when left as is. */
  onSkew?: (degrees: number) => void;
}

/** What the pool learns of the page's jobs: where progress goes, and when tesseract is done with each job. */
export interface JobSession {
  onProgress(listener: ((fraction: number) => void) | undefined): void;
  /** Settles when tesseract is done with a job, whether or not the caller still waits; true where it succeeded. */
  jobStarted(done: Promise<boolean>): void;
}

export async function recognizePage(worker: Worker, imagePath: string, settings: OcrSettings, options: RecognizeOptions, session: JobSession): Promise<OcrPage> {
  session.onProgress(options.onProgress);
  const loaded = await loadOcrPage(imagePath, MAX_OCR_PIXELS, { paperSurround: settings.darkSurround !== false, cropToPrint: settings.printRegion !== false, evenEdgeBands: settings.evenEdgeBands !== false });
  const glyph = inkedGlyphHeight(loaded);
  let page = await atReadableTextSize(loaded, glyph);
  // The page scale tesseract's dpi is told from: the page being read (the blurred page below has its own text size).
  let readScale = page.scale;
  options.signal?.throwIfAborted();
  // Tesseract re-reads weak lines inverted only on pages where light print on dark can be (inversePrint.ts).
  const invert = page.darkShare >= MIN_DARK_SHARE && mayHoldInversePrint(page.thumbnail, glyph);
  const run = (image: GreyImage, pageSegmentationMode: PSM, probe = false, enlarge = 1, binarise: Binarisation = 'global'): Promise<OcrWord[]> => {
    const job = (async () => {
      await worker.setParameters({
        tessedit_pageseg_mode: pageSegmentationMode,
        user_defined_dpi: String(tesseractDpi(options.dpi * readScale * enlarge)),
      });
      // A probe only compares confidences: tesseract's second reading of weak lines inverted (white on black) is
      // not needed for that, nor on a page without a dark panel (tesseract.js passes these options as parameters for
      // this job only).
      const parameters = {
        ...(probe || !invert ? { tessedit_do_invert: '0' } : {}),
        ...(binarise === 'local' ? { thresholding_method: SAUVOLA } : {}),
      } as Partial<RecognizeJobOptions>;
      return worker.recognize(encodePgm(image), parameters, { blocks: true, text: false, hocr: false, tsv: false });
    })();
    session.jobStarted(
      job.then(
        () => true,
        () => false,
      ),
    );
    // tesseract.js cannot cancel a job, and terminating a busy worker crashes the whole process inside
    // tesseract.js (its Node worker posts to a port that terminate() has closed). So an aborted page only stops
    // waiting: the worker finishes the job in the background and goes back to the pool afterwards.
    return abortable(job, options.signal, () => undefined).then((result) => wordsOf(result.data.blocks ?? []));
  };
  /** Tesseract's reading of `image`, straightened (by `known`, where the same image was straightened already). */
  const firstPass = async (image: GreyImage, thumbnail: GreyImage, binarise: Binarisation = 'global', known?: Straightened | null): Promise<FirstPass> => {
    const straight = known !== undefined ? known : settings.deskew === false ? null : await straighten(image, thumbnail);
    options.signal?.throwIfAborted();
    let words = await run(straight?.image ?? image, settings.pageSegmentationMode, false, 1, binarise);
    session.onProgress(undefined); // progress is the first reading's; a page read again turned is rare
    if (words.length === 0 && String(settings.pageSegmentationMode) === String(PSM.AUTO) && page.darkShare >= MIN_DARK_SHARE) {
      // Automatic segmentation found no text block on a page with real ink (handwriting, faint scans): read it
      // as one block of text instead. Blank pages (even with show-through from the reverse side) stay empty.
      words = await run(straight?.image ?? image, PSM.SINGLE_BLOCK, false, 1, binarise);
    }
    return { image, straight, words, binarise };
  };
  const finish = async (first: FirstPass): Promise<Reading> => {
    const { image, straight, binarise } = first;
    let words = first.words;
    // Key fields read weakly (a faded total, a thin date, a decorated letterhead): those bands read again alone.
    const lineReader = settings.lineReader;
    const second = lineReader ? { second: (crop: GreyImage) => lineReader.read(crop) } : {};
    if (settings.reread !== false) words = (await rereadWeakRegions(straight?.image ?? image, words, (crop, mode, enlarge) => run(crop, mode, false, enlarge, binarise), { signal: options.signal, ...second })).words;
    // Lines still weak: read again by the second reader, its reading kept where it is the better one.
    let lineReread: LineRereadReport | undefined;
    if (settings.lineReader) {
      const chinese = (settings.languages ?? []).some((code) => code.startsWith('chi'));
      ({ words, report: lineReread } = await rereadWeakLines(straight?.image ?? image, words, settings.lineReader, { signal: options.signal, chinese }));
    }
    const skew = straight?.skew ?? 0;
    const rulings = rulingsOf(straight?.image ?? image, words);
    if (!straight || skew === 0) return { words, first, skew, rulings, lineReread };
    const lineRereadOnPage = lineReread && { ...lineReread, lines: lineReread.lines.map((line) => ({ ...line, box: straight.toPage(line.box) })) };
    return { words: words.map((word) => ({ ...word, box: straight.toPage(word.box) })), first, skew, rulings: rulings.map((box) => centredOn(box, straight.toPage)), lineReread: lineRereadOnPage };
  };
  const read = async (image: GreyImage, thumbnail: GreyImage, binarise: Binarisation = 'global'): Promise<Reading> => finish(await firstPass(image, thumbnail, binarise));

  let reading = await read(page.image, page.thumbnail);
  if (page.stretched) {
    // A page whose contrast stretch would blacken paper is read as scanned and stretched: the reading with more print
    // read with confidence is kept (a small receipt on a white scan reads only as scanned; some read better stretched).
    const stretched = await read(page.stretched, page.thumbnail);
    if (confidentCharacters(stretched.words) > confidentCharacters(reading.words)) reading = stretched;
  }
  /**
   * Tesseract separates print from paper by one threshold for the whole page (Otsu's): where the light falls unevenly
   * (a photo's shadow, a scanner's grey edge, thermal print fading down the roll) print on the darker paper turns black
   * with it or light print drops out. A page not read surely is read again thresholded by each pixel's neighbourhood
   * (Sauvola's method, tesseract's own), and the reading with more confident print is kept. Whether a page was read
   * surely is judged on the finished reading (its weak words read again), the two readings are compared as tesseract
   * read them, and only a locally thresholded reading that wins is finished; the page read is the one the current
   * reading read, straightened as it was. Judging on tesseract's own reading instead, so that a reading replaced is
   * never finished, sends more pages to the local reading than it saves (development receipts: 22 local readings
   * of 30 pages instead of 17, no less CPU, one date lost: docs/benchmarks.md "Pages at once").
   */
  const withLocalThreshold = async (current: Reading, thumbnail: GreyImage): Promise<[Reading, Binarisation]> => {
    if (settings.localThreshold === false || surelyRead(current.words) || page.darkShare < MIN_DARK_SHARE) return [current, 'global'];
    const local = await firstPass(current.first.image, thumbnail, 'local', current.first.straight);
    return confidentCharacters(local.words) > confidentCharacters(current.first.words) ? [await finish(local), 'local'] : [current, 'global'];
  };
  let binarised: Binarisation;
  [reading, binarised] = await withLocalThreshold(reading, page.thumbnail);
  let joinedBy: number | undefined;
  if (settings.dotMatrix !== false && weaklyRead(reading.words) && page.darkShare >= MIN_DARK_SHARE && glyph !== null) {
    // Print tesseract reads little of with confidence is often dot-matrix print (a till's or a carbon copy's letters
    // made of separate dots): the page is loaded again blurred by a quarter of its x-height before the stretch, which
    // joins the dots into strokes (and sizes its text by whole glyphs, not dots); the reading with more print read
    // with confidence is kept (as for the stretch above).
    const sigma = Math.min(MAX_JOIN_SIGMA, Math.max(MIN_JOIN_SIGMA, (glyph * loaded.image.width) / loaded.thumbnail.width / 4));
    const softLoaded = await loadOcrPage(imagePath, MAX_OCR_PIXELS, { paperSurround: settings.darkSurround !== false, cropToPrint: settings.printRegion !== false, evenEdgeBands: settings.evenEdgeBands !== false, blur: sigma });
    const soft = await atReadableTextSize(softLoaded, inkedGlyphHeight(softLoaded));
    readScale = soft.scale;
    const blurred = await read(soft.image, soft.thumbnail);
    if (confidentCharacters(blurred.words) > confidentCharacters(reading.words)) [reading, joinedBy, page, binarised] = [blurred, sigma, soft, 'global'];
    readScale = page.scale;
  }
  let turns: QuarterTurns = 0;
  const verdict = settings.orientation === false ? ({ kind: 'upright' } as const) : judgeOrientation(reading.words);
  let candidate: QuarterTurns | null = verdict.kind === 'quarter' ? verdict.turns : null;
  if (verdict.kind === 'maybe-upside-down') {
    // Read a band of the page upside down first: a whole second reading only for pages that read better so.
    const band = probeBand(reading.words, page.image.height);
    const probe = await run(turnGrey(cropRows(page.image, band[0], band[1]), 2), settings.pageSegmentationMode, true);
    const inBand = reading.words.filter((word) => (word.box[1] + word.box[3]) / 2 >= band[0] && (word.box[1] + word.box[3]) / 2 < band[1]);
    if (turnedReadingWins(inBand, probe)) candidate = 2;
  }
  if (candidate !== null) {
    const [image, thumbnail] = [turnGrey(page.image, candidate), turnGrey(page.thumbnail, candidate)];
    const turned = await read(image, thumbnail);
    // The page read upright is thresholded locally or not on its own reading, as an upright page is.
    if (turnedReadingWins(reading.words, turned.words)) [[reading, binarised], turns] = [await withLocalThreshold(turned, thumbnail), candidate];
  }
  options.onSkew?.(reading.skew);
  // Boxes back onto the page image (turned upright by `turns`): scaled up, then moved by where the region read lies.
  const up = 1 / page.scale;
  const [dx, dy] = page.crop ? boxToTurned(page.crop.box, turns, page.crop.pageWidth, page.crop.pageHeight) : [0, 0];
  const onPage = (box: Box): Box => [box[0] * up + dx, box[1] * up + dy, box[2] * up + dx, box[3] * up + dy];
  const unchanged = page.scale === 1 && dx === 0 && dy === 0;
  const words = unchanged ? reading.words : reading.words.map((word) => ({ ...word, box: onPage(word.box), lineHeight: word.lineHeight * up }));
  const rulings = unchanged ? reading.rulings : reading.rulings.map(onPage);
  const lineReread = reading.lineReread && (unchanged ? reading.lineReread : { ...reading.lineReread, lines: reading.lineReread.lines.map((line) => ({ ...line, box: onPage(line.box) })) });
  return {
    words: withoutRuleMarks(words, rulings),
    turns,
    skew: reading.skew,
    rulings,
    ...(lineReread ? { lineReread } : {}),
    ...(page.crop ? { printRegion: page.crop.box } : {}),
    ...(joinedBy !== undefined ? { blurred: joinedBy } : {}),
    ...(binarised === 'local' ? { localThreshold: true } : {}),
    ...(page.groundPainted ? { groundPainted: page.groundPainted } : {}),
    ...(page.bandColumns ? { bandColumns: page.bandColumns } : {}),
  };
}

/** A word read at this confidence or more is read with confidence (weaklyRead). */
const SURE_WORD = 0.85;
/** A page is weakly read where under this share of its letters and digits lie in words read with confidence. */
const WEAK_PAGE_SHARE = 0.5;
/** A page is surely read where this share of its letters and digits or more lie in words read with confidence. */
const SURE_PAGE_SHARE = 0.8;
/** Tesseract's `thresholding_method` for Sauvola's local thresholding (0 is Otsu's over the whole page). */
const SAUVOLA = '2';

/** Tesseract's own reading of a page, straightened: before any of its words are read again. */
interface FirstPass {
  image: GreyImage;
  straight: Straightened | null;
  words: OcrWord[];
  binarise: Binarisation;
}

/** A page's reading: its words (weak ones read again), tesseract's own reading before that, skew and rulings. */
interface Reading {
  words: OcrWord[];
  first: FirstPass;
  skew: number;
  rulings: Box[];
  lineReread?: LineRereadReport;
}

/** How tesseract separates print from paper: one threshold for the page (Otsu's), or one per neighbourhood (Sauvola's). */
type Binarisation = 'global' | 'local';
/** The blur that joins dot-matrix dots: a quarter of the x-height, within these bounds (pixels of the page as loaded). */
const MIN_JOIN_SIGMA = 0.8;
const MAX_JOIN_SIGMA = 3;

/**
 * Whether under WEAK_PAGE_SHARE of the letters and digits read lie in words read at SURE_WORD or more: noise, or
 * print tesseract cannot make out (dot-matrix print, faded or broken strokes). A page with nothing read counts too.
 */
export function weaklyRead(words: readonly Pick<OcrWord, 'text' | 'confidence'>[]): boolean {
  const { all, sure } = sureCharacters(words);
  return sure < WEAK_PAGE_SHARE * all || all === 0;
}

/** Whether SURE_PAGE_SHARE or more of the letters and digits read lie in words read at SURE_WORD or more. */
export function surelyRead(words: readonly Pick<OcrWord, 'text' | 'confidence'>[]): boolean {
  const { all, sure } = sureCharacters(words);
  return all > 0 && sure >= SURE_PAGE_SHARE * all;
}

/** The letters and digits read, and those of them in words read at SURE_WORD or more. */
function sureCharacters(words: readonly Pick<OcrWord, 'text' | 'confidence'>[]): { all: number; sure: number } {
  let [all, sure] = [0, 0];
  for (const word of words) {
    const n = (word.text.match(/[\p{L}\p{N}]/gu) ?? []).length;
    all += n;
    if (word.confidence >= SURE_WORD) sure += n;
  }
  return { all, sure };
}

/** Letters and digits of the words of three or more, each weighted by its word's confidence: print read with confidence. */
export function confidentCharacters(words: readonly OcrWord[]): number {
  let sum = 0;
  for (const word of words) {
    const n = (word.text.match(/[\p{L}\p{N}]/gu) ?? []).length;
    if (n >= 3) sum += n * word.confidence;
  }
  return sum;
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined, onAbort: () => void): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const abort = (): void => {
      onAbort();
      reject(signal.reason);
    };
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(error);
      },
    );
  });
}
