/**
 * A small pool of tesseract.js workers, created on first use and reused across pages. Fully offline: the English
 * LSTM model is read from @tesseract.js-data/eng (gzipped, `4.0.0_best_int`, the files tesseract.js itself would
 * download for LSTM-only use), the wasm core from tesseract.js-core (tesseract.js's Node build `require`s it
 * directly, so no corePath is needed), and nothing is cached to the working directory.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createWorker, OEM, PSM, type RecognizeOptions as RecognizeJobOptions, type Worker } from 'tesseract.js';
import type { Box } from '../../app/model/extraction.js';
import { straighten } from './deskew.js';
import { findImageRulings } from './imageRulings.js';
import { withoutRuleMarks } from './ruleMarks.js';
import { medianGlyphHeight } from './glyphHeight.js';
import { encodePgm, loadOcrPage, MAX_OCR_PIXELS, resizeGrey, turnGrey, type GreyImage, type OcrPageImage } from './ocrImage.js';
import { judgeOrientation, probeBand, turnedReadingWins, type QuarterTurns } from './pageOrientation.js';

const require = createRequire(import.meta.url);

export const TESSERACT_LANGUAGE = 'eng';
/** LSTM-only data: smaller and faster than the legacy+LSTM files in `4.0.0/`, and what OEM.LSTM_ONLY needs. */
export const TESSERACT_DATA_FOLDER = '4.0.0_best_int';

export interface OcrWord {
  text: string;
  box: Box;
  /** 0–1. */
  confidence: number;
  /** Block/paragraph/line indices: words sharing it are on one tesseract line. */
  lineKey: string;
  /** Tesseract's row height of the word's line (ascender to descender), in pixels: the OCR's font size. */
  lineHeight: number;
}

export interface OcrSettings {
  pageSegmentationMode: PSM;
  /** Tesseract language codes, each from an installed `@tesseract.js-data/<code>` package; default ['eng']. */
  languages?: readonly string[];
  /** Straighten skewed pages before OCR (projection-profile estimate, ±5°); default true. */
  deskew?: boolean;
  /** Read pages turned 90°, 180° or 270° upright (see pageOrientation.ts); default true. */
  orientation?: boolean;
}

/** One page's OCR. */
export interface OcrPage {
  /** Words, boxes in the pixels of the page image turned upright by `turns`. */
  words: OcrWord[];
  /** Clockwise quarter turns that made the page image upright (0: read as it is). */
  turns: QuarterTurns;
  /** Degrees the upright page was straightened by before OCR (0 when left as is). */
  skew: number;
  /** Ruling lines seen in the page image (thin boxes), in the same pixels as `words`: evidence for tables. */
  rulings: Box[];
}

export interface RecognizeOptions {
  dpi: number;
  signal?: AbortSignal;
  /** 0–1 as tesseract reports recognition progress. */
  onProgress?: (fraction: number) => void;
  /** The skew (degrees) the page was straightened by before OCR, 0 when left as is. */
  onSkew?: (degrees: number) => void;
}

interface Slot {
  worker: Promise<Worker>;
  onProgress?: (fraction: number) => void;
}

export function tesseractLanguagePath(language = TESSERACT_LANGUAGE): string {
  return path.join(path.dirname(require.resolve(`@tesseract.js-data/${language}/package.json`)), TESSERACT_DATA_FOLDER);
}

/** Languages whose data package is installed (the ones `languages` may name). */
export function installedOcrLanguages(): string[] {
  const root = path.dirname(path.dirname(require.resolve(`@tesseract.js-data/${TESSERACT_LANGUAGE}/package.json`)));
  return readdirSync(root).filter((name) => name !== 'osd' && existsSync(path.join(root, name, TESSERACT_DATA_FOLDER, `${name}.traineddata.gz`)));
}

/**
 * A folder tesseract.js can read every language of `languages` from (`<folder>/<code>.traineddata.gz`): the
 * package's own folder for one language; for several (each lives in its own package) a folder in the OS temp dir
 * of symbolic links to the packages' files — tesseract.js takes one langPath, and its in-memory `{code, data}`
 * form is mishandled by tesseract.js 7's initialise step. Unknown language → clear error.
 */
export async function ocrLanguageFolder(languages: readonly string[]): Promise<string> {
  const folders = languages.map((code) => {
    if (!/^[a-z_]{3,12}$/u.test(code)) throw new Error(`OCR language "${code}" is not a tesseract language code`);
    try {
      return tesseractLanguagePath(code);
    } catch {
      throw new Error(`OCR language "${code}" is not installed (npm package @tesseract.js-data/${code}); installed: ${installedOcrLanguages().join(', ')}`);
    }
  });
  if (languages.length === 1) return folders[0];
  const folder = path.join(os.tmpdir(), `recto-tessdata-${languages.join('+')}`);
  await mkdir(folder, { recursive: true });
  await Promise.all(
    languages.map(async (code, i) => {
      const link = path.join(folder, `${code}.traineddata.gz`);
      if (!existsSync(link)) await symlink(path.join(folders[i], `${code}.traineddata.gz`), link).catch(() => undefined);
    }),
  );
  return folder;
}

export class TesseractPool {
  private readonly idle: Slot[] = [];
  private readonly waiting: Array<(slot: Slot) => void> = [];
  private created = 0;
  private disposed = false;
  /** Where the workers read the language models from (made once). */
  private languageFolder: Promise<string> | null = null;

  constructor(
    private readonly size: number,
    private readonly settings: OcrSettings,
  ) {}

  /**
   * Words of the image at `imagePath`, in the pixels of the page turned upright (`turns` clockwise quarter turns
   * of the image; 0 for a page read as it is — then these are the image's own pixels).
   */
  async recognize(imagePath: string, options: RecognizeOptions): Promise<OcrPage> {
    options.signal?.throwIfAborted();
    const slot = await this.acquire();
    let keep = true;
    // Settles when tesseract is done with the last job this call started, whether or not the caller still waits.
    let jobDone: Promise<boolean> | null = null;
    try {
      const worker = await slot.worker.catch((error: unknown) => {
        keep = false; // a worker that failed to start is not put back
        throw new Error(`tesseract could not start: ${error instanceof Error ? error.message : String(error)}`);
      });
      slot.onProgress = options.onProgress;
      const page = await atReadableTextSize(await loadOcrPage(imagePath));
      options.signal?.throwIfAborted();
      const run = (image: GreyImage, pageSegmentationMode: PSM, probe = false): Promise<OcrWord[]> => {
        const job = (async () => {
          await worker.setParameters({
            tessedit_pageseg_mode: pageSegmentationMode,
            user_defined_dpi: String(tesseractDpi(options.dpi * page.scale)),
          });
          // A probe only compares confidences: tesseract's second reading of weak lines inverted (white on black) is
          // not needed for that (tesseract.js passes these options as parameters for this job only).
          const parameters = (probe ? { tessedit_do_invert: '0' } : {}) as Partial<RecognizeJobOptions>;
          return worker.recognize(encodePgm(image), parameters, { blocks: true, text: false, hocr: false, tsv: false });
        })();
        jobDone = job.then(
          () => true,
          () => false,
        );
        // tesseract.js cannot cancel a job, and terminating a busy worker crashes the whole process inside
        // tesseract.js (its Node worker posts to a port that terminate() has closed). So an aborted page only stops
        // waiting: the worker finishes the job in the background and goes back to the pool afterwards.
        return abortable(job, options.signal, () => undefined).then((result) => wordsOf(result.data.blocks ?? []));
      };
      const read = async (image: GreyImage, thumbnail: GreyImage): Promise<{ words: OcrWord[]; skew: number; rulings: Box[] }> => {
        const straight = this.settings.deskew === false ? null : await straighten(image, thumbnail);
        options.signal?.throwIfAborted();
        let words = await run(straight?.image ?? image, this.settings.pageSegmentationMode);
        slot.onProgress = undefined; // progress is the first reading's; a page read again turned is rare
        if (words.length === 0 && String(this.settings.pageSegmentationMode) === String(PSM.AUTO) && page.darkShare >= MIN_DARK_SHARE) {
          // Automatic segmentation found no text block on a page with real ink (handwriting, faint scans): read it
          // as one block of text instead. Blank pages (even with show-through from the reverse side) stay empty.
          words = await run(straight?.image ?? image, PSM.SINGLE_BLOCK);
        }
        const skew = straight?.skew ?? 0;
        const rulings = rulingsOf(straight?.image ?? image, words);
        if (!straight || skew === 0) return { words, skew, rulings };
        return { words: words.map((word) => ({ ...word, box: straight.toPage(word.box) })), skew, rulings: rulings.map((box) => centredOn(box, straight.toPage)) };
      };

      let reading = await read(page.image, page.thumbnail);
      let turns: QuarterTurns = 0;
      const verdict = this.settings.orientation === false ? ({ kind: 'upright' } as const) : judgeOrientation(reading.words);
      let candidate: QuarterTurns | null = verdict.kind === 'quarter' ? verdict.turns : null;
      if (verdict.kind === 'maybe-upside-down') {
        // Read a band of the page upside down first: a whole second reading only for pages that read better so.
        const band = probeBand(reading.words, page.image.height);
        const probe = await run(turnGrey(cropRows(page.image, band[0], band[1]), 2), this.settings.pageSegmentationMode, true);
        const inBand = reading.words.filter((word) => (word.box[1] + word.box[3]) / 2 >= band[0] && (word.box[1] + word.box[3]) / 2 < band[1]);
        if (turnedReadingWins(inBand, probe)) candidate = 2;
      }
      if (candidate !== null) {
        const turned = await read(turnGrey(page.image, candidate), turnGrey(page.thumbnail, candidate));
        if (turnedReadingWins(reading.words, turned.words)) [reading, turns] = [turned, candidate];
      }
      options.onSkew?.(reading.skew);
      const up = 1 / page.scale;
      const scaled = (box: Box): Box => [box[0] * up, box[1] * up, box[2] * up, box[3] * up];
      const words =
        page.scale === 1
          ? reading.words
          : reading.words.map((word) => ({
              ...word,
              box: scaled(word.box),
              lineHeight: word.lineHeight * up,
            }));
      const rulings = page.scale === 1 ? reading.rulings : reading.rulings.map(scaled);
      return { words: withoutRuleMarks(words, rulings), turns, skew: reading.skew, rulings };
    } finally {
      slot.onProgress = undefined;
      const done = jobDone as Promise<boolean> | null;
      if (done) {
        void done.then((healthy) => {
          if (healthy) this.release(slot);
          else this.discard(slot);
        });
      } else if (keep) this.release(slot);
      else this.replace();
    }
  }

  /**
   * Words inside each of `regions` (boxes in the pixels of the image at `imagePath`), read as sparse text (labels of
   * a chart, a logo's wordmark), boxes in the image's pixels. A region whose text would be smaller than
   * REGION_MIN_TEXT_DPI is enlarged first: small pages and small print are read at the resolution they need.
   */
  async recognizeRegions(imagePath: string, regions: readonly Box[], options: { dpi: number; signal?: AbortSignal }): Promise<OcrWord[][]> {
    options.signal?.throwIfAborted();
    if (regions.length === 0) return [];
    const slot = await this.acquire();
    let healthy = true;
    try {
      const worker = await slot.worker;
      const page = await loadOcrPage(imagePath);
      const results: OcrWord[][] = [];
      for (const region of regions) {
        options.signal?.throwIfAborted();
        const crop = cropBox(page.image, region.map((v) => v * page.scale) as Box);
        const enlarge = Math.min(REGION_MAX_ENLARGE, Math.max(1, REGION_MIN_TEXT_DPI / (options.dpi * page.scale)));
        const image = enlarge > 1 ? await resizeGrey(crop.image, Math.round(crop.image.width * enlarge)) : crop.image;
        const factor = image.width / crop.image.width;
        await worker.setParameters({ tessedit_pageseg_mode: PSM.SPARSE_TEXT, user_defined_dpi: String(tesseractDpi(options.dpi * page.scale * factor)) });
        const result = await worker.recognize(encodePgm(image), {}, { blocks: true, text: false, hocr: false, tsv: false });
        const back = (x: number, origin: number): number => (x / factor + origin) / page.scale;
        results.push(
          wordsOf(result.data.blocks ?? []).map((word) => ({
            ...word,
            box: [back(word.box[0], crop.left), back(word.box[1], crop.top), back(word.box[2], crop.left), back(word.box[3], crop.top)],
            lineHeight: word.lineHeight / factor / page.scale,
          })),
        );
      }
      return results;
    } catch (error) {
      healthy = false;
      throw error;
    } finally {
      if (healthy) this.release(slot);
      else this.discard(slot);
    }
  }

  /** A worker whose job failed is not trusted again: it is ended (it is idle now) and replaced. */
  private discard(slot: Slot): void {
    void slot.worker.then((worker) => worker.terminate()).catch(() => undefined);
    this.replace();
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const slots = this.idle.splice(0);
    await Promise.all(slots.map(async (slot) => (await slot.worker.catch(() => null))?.terminate()));
  }

  private acquire(): Promise<Slot> {
    if (this.disposed) return Promise.reject(new Error('the OCR engine has been disposed'));
    const slot = this.idle.pop();
    if (slot) return Promise.resolve(slot);
    if (this.created < this.size) return Promise.resolve(this.createSlot());
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(slot: Slot): void {
    const next = this.waiting.shift();
    if (next) next(slot);
    else if (this.disposed) void slot.worker.then((worker) => worker.terminate()).catch(() => undefined);
    else this.idle.push(slot);
  }

  /** A worker was ended (abort or crash): let the next waiter have a new one. */
  private replace(): void {
    this.created--;
    const next = this.waiting.shift();
    if (next && !this.disposed) next(this.createSlot());
  }

  private createSlot(): Slot {
    this.created++;
    const slot: Slot = { worker: Promise.resolve(null as unknown as Worker) };
    const languages = this.settings.languages?.length ? this.settings.languages : [TESSERACT_LANGUAGE];
    this.languageFolder ??= ocrLanguageFolder(languages);
    slot.worker = this.languageFolder.then((langPath) => createWorker([...languages], OEM.LSTM_ONLY, {
      langPath,
      gzip: true,
      cacheMethod: 'none',
      logger: (message) => {
        if (message.status === 'recognizing text') slot.onProgress?.(message.progress);
      },
      errorHandler: () => undefined,
    }));
    // A worker that fails to start must not stay in the pool.
    slot.worker.catch(() => undefined);
    return slot;
  }
}

/**
 * The dpi told to tesseract, within the 70–2400 it accepts: outside it tesseract prints a warning to stderr for every
 * page and guesses from the text size anyway (pages of huge images scaled to the pixel budget fall below 70).
 */
export function tesseractDpi(dpi: number): number {
  return Math.min(2400, Math.max(70, Math.round(dpi)));
}

/**
 * Text size for OCR where the page image is all there is (scans, image files; PDF pages with a text layer were
 * rendered for their text size on import, main/import/importedDocument.ts). Tesseract's FAQ reads best between an
 * x-height of 10 and 30 px: "below about 8 pixels, most of the text will be noise removed", and with LSTM "a maximum
 * x-height somewhere around 30 px". The glyph height measured on the page thumbnail (glyphHeight.ts, ±10% of the
 * x-height on the test pages) decides: under TOO_SMALL_PX the image is enlarged to MIN_X_HEIGHT_PX (at most
 * MAX_ENLARGE times, within MAX_OCR_PIXELS); over TOO_LARGE_PX (handwriting, posters) it is shrunk to MAX_X_HEIGHT_PX
 * (at most MAX_SHRINK), which also saves OCR time in proportion. Between them, left alone: the estimate is not
 * sharp enough to gain from a 10% rescale.
 */
const TOO_SMALL_PX = 8;
const MIN_X_HEIGHT_PX = 10;
const TOO_LARGE_PX = 45;
const MAX_X_HEIGHT_PX = 30;
const MAX_ENLARGE = 2;
const MAX_SHRINK = 0.5;

/** The OCR page rescaled so its print is a size tesseract reads well (see TOO_SMALL_PX); boxes map back by `scale`. */
export async function atReadableTextSize(page: OcrPageImage): Promise<OcrPageImage> {
  // A page without real ink (blank, show-through stretched to black by the contrast stretch) has no print to size.
  if (page.darkShare < MIN_DARK_SHARE) return page;
  const glyph = medianGlyphHeight(page.thumbnail);
  if (glyph === null) return page;
  const height = (glyph * page.image.width) / page.thumbnail.width;
  const factor = readableTextFactor(height, page.image.width * page.image.height);
  if (factor === 1) return page;
  const image = await resizeGrey(page.image, Math.max(1, Math.round(page.image.width * factor)));
  return { ...page, image, scale: (page.scale * image.width) / page.image.width };
}

/** The factor to scale an OCR image of `pixels` pixels by, whose glyphs are `glyphHeight` pixels tall. */
export function readableTextFactor(glyphHeight: number, pixels: number): number {
  if (glyphHeight < TOO_SMALL_PX) {
    const enlarge = Math.min(MAX_ENLARGE, MIN_X_HEIGHT_PX / glyphHeight, Math.sqrt(MAX_OCR_PIXELS / pixels));
    return enlarge > 1 ? enlarge : 1; // a page at the pixel budget already is read as it is
  }
  if (glyphHeight > TOO_LARGE_PX) return Math.max(MAX_SHRINK, MAX_X_HEIGHT_PX / glyphHeight);
  return 1;
}

/** Share of a page's pixels that must be dark (< 128) before contrast stretching for it to hold real ink. */
const MIN_DARK_SHARE = 0.001;

/** Ruling lines of the image OCR read, measured against the height of its lines of text (none without text). */
function rulingsOf(image: GreyImage, words: readonly OcrWord[]): Box[] {
  const heights = words.map((word) => word.lineHeight).filter((h) => h > 0).sort((a, b) => a - b);
  if (heights.length === 0) return [];
  return findImageRulings(image, { textHeight: heights[Math.floor(heights.length / 2)]! });
}

/**
 * A ruling of the straightened image on the page as it was: moved with its centre but kept level and as long (the
 * turned box of a long line would be as tall as its drift, and no longer thin).
 */
function centredOn(box: Box, toPage: (box: Box) => Box): Box {
  const [cx, cy] = [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2];
  const moved = toPage([cx, cy, cx, cy]);
  const [x, y] = [(moved[0] + moved[2]) / 2, (moved[1] + moved[3]) / 2];
  const [w, h] = [(box[2] - box[0]) / 2, (box[3] - box[1]) / 2];
  return [x - w, y - h, x + w, y + h];
}

/** Text in an image region is read at least at this resolution (enlarging up to REGION_MAX_ENLARGE times). */
const REGION_MIN_TEXT_DPI = 300;
const REGION_MAX_ENLARGE = 3;

/** The part of the image inside `box` (clamped to the image), with its top-left corner. */
function cropBox(image: GreyImage, box: Box): { image: GreyImage; left: number; top: number } {
  const left = Math.max(0, Math.min(image.width - 1, Math.floor(box[0])));
  const top = Math.max(0, Math.min(image.height - 1, Math.floor(box[1])));
  const right = Math.max(left + 1, Math.min(image.width, Math.ceil(box[2])));
  const bottom = Math.max(top + 1, Math.min(image.height, Math.ceil(box[3])));
  const width = right - left;
  const data = new Uint8Array(width * (bottom - top));
  for (let y = top; y < bottom; y++) data.set(image.data.subarray(y * image.width + left, y * image.width + right), (y - top) * width);
  return { image: { data, width, height: bottom - top }, left, top };
}

/** Rows [from, to) of the image. */
function cropRows(image: GreyImage, from: number, to: number): GreyImage {
  const top = Math.max(0, Math.min(image.height - 1, Math.floor(from)));
  const bottom = Math.max(top + 1, Math.min(image.height, Math.ceil(to)));
  return { data: image.data.subarray(top * image.width, bottom * image.width), width: image.width, height: bottom - top };
}

type TesseractBlock = NonNullable<Awaited<ReturnType<Worker['recognize']>>['data']['blocks']>[number];

function wordsOf(blocks: TesseractBlock[]): OcrWord[] {
  const words: OcrWord[] = [];
  blocks.forEach((block, b) =>
    block.paragraphs.forEach((paragraph, p) =>
      paragraph.lines.forEach((line, l) => {
        const rowHeight = line.rowAttributes?.rowHeight;
        const lineHeight = rowHeight && rowHeight > 0 ? rowHeight : line.bbox.y1 - line.bbox.y0;
        for (const word of line.words) {
          const text = word.text.trim();
          if (!text) continue;
          const { x0, y0, x1, y1 } = word.bbox;
          words.push({ text, box: [x0, y0, x1, y1], confidence: clamp01(word.confidence / 100), lineKey: `${b}.${p}.${l}`, lineHeight });
        }
      }),
    ),
  );
  return words;
}

function clamp01(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
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
