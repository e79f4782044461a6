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
import sharp from 'sharp';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { straighten } from './deskew.js';
import type { Box } from '../../app/model/extraction.js';

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

  /** Words of the image at `imagePath`, in its pixels. */
  async recognize(imagePath: string, options: RecognizeOptions): Promise<OcrWord[]> {
    options.signal?.throwIfAborted();
    const slot = await this.acquire();
    let keep = true;
    // Settles when tesseract is done with the job this call started, whether or not the caller still waits for it.
    let jobDone: Promise<boolean> | null = null;
    try {
      const worker = await slot.worker.catch((error: unknown) => {
        keep = false; // a worker that failed to start is not put back
        throw new Error(`tesseract could not start: ${error instanceof Error ? error.message : String(error)}`);
      });
      slot.onProgress = options.onProgress;
      const prepared = await prepareForOcr(imagePath);
      await worker.setParameters({
        tessedit_pageseg_mode: this.settings.pageSegmentationMode,
        user_defined_dpi: String(Math.max(1, Math.round(options.dpi * prepared.scale))),
      });
      const page = this.settings.deskew === false ? null : await straighten(prepared.image, prepared.width, prepared.height);
      options.onSkew?.(page?.skew ?? 0);
      options.signal?.throwIfAborted();
      const job = worker.recognize(page?.image ?? prepared.image, {}, { blocks: true, text: false, hocr: false, tsv: false });
      jobDone = job.then(
        () => true,
        () => false,
      );
      // tesseract.js cannot cancel a job, and terminating a busy worker crashes the whole process inside tesseract.js
      // (its Node worker posts to a port that terminate() has closed). So an aborted page only stops waiting: the
      // worker finishes the job in the background and goes back to the pool afterwards.
      const result = await abortable(job, options.signal, () => undefined);
      let words = wordsOf(result.data.blocks ?? []);
      if (words.length === 0 && String(this.settings.pageSegmentationMode) === String(PSM.AUTO) && (await darkShare(imagePath)) >= MIN_DARK_SHARE) {
        // Automatic segmentation found no text block on a page with real ink (handwriting, faint scans): read it as
        // one block of text instead. Blank pages (even with show-through from the reverse side) are left empty.
        await worker.setParameters({ tessedit_pageseg_mode: PSM.SINGLE_BLOCK });
        const retry = worker.recognize(page?.image ?? prepared.image, {}, { blocks: true, text: false, hocr: false, tsv: false });
        jobDone = retry.then(
          () => true,
          () => false,
        );
        words = wordsOf((await abortable(retry, options.signal, () => undefined)).data.blocks ?? []);
      }
      const straightened = page && page.skew !== 0 ? words.map((word) => ({ ...word, box: page.toPage(word.box) })) : words;
      if (prepared.scale === 1) return straightened;
      const up = 1 / prepared.scale;
      return straightened.map((word) => ({
        ...word,
        box: [word.box[0] * up, word.box[1] * up, word.box[2] * up, word.box[3] * up] as Box,
        lineHeight: word.lineHeight * up,
      }));
    } finally {
      slot.onProgress = undefined;
      if (jobDone) {
        void jobDone.then((healthy) => {
          if (healthy) this.release(slot);
          else this.discard(slot);
        });
      } else if (keep) this.release(slot);
      else this.replace();
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
 * Greyscale with the contrast stretched to the full range (sharp's normalise: 1st → black, 99th percentile →
 * white). Tesseract's own binarisation loses light-grey and coloured print on rendered invoices without it
 * (AmazonWebServices.pdf: 63% → 91% of its words) and it costs nothing on clean scans. Same size unless the page
 * is over MAX_OCR_PIXELS (then `scale` < 1 and the caller scales boxes back to the page image's pixels).
 */
async function prepareForOcr(imagePath: string): Promise<{ image: Buffer; width: number; height: number; scale: number }> {
  const { width = 0, height = 0 } = await sharp(imagePath).metadata();
  // Huge scans cost OCR time in proportion to their pixels and gain nothing past ~300 dpi print: capped.
  const scale = width * height > MAX_OCR_PIXELS ? Math.sqrt(MAX_OCR_PIXELS / (width * height)) : 1;
  let pipeline = sharp(imagePath).greyscale();
  if (scale < 1) pipeline = pipeline.resize({ width: Math.max(1, Math.round(width * scale)) });
  const { data, info } = await pipeline.normalise().png({ compressionLevel: 1 }).toBuffer({ resolveWithObject: true });
  return { image: data, width: info.width, height: info.height, scale: scale < 1 ? info.width / width : 1 };
}

/** Pages are OCR'd at most this large (a US-letter page at 300 dpi is 8.4 MP); boxes are scaled back. */
const MAX_OCR_PIXELS = 9_000_000;

/** Share of a page's pixels that are dark (< 128 of 255, before contrast stretching) for it to hold real ink. */
const MIN_DARK_SHARE = 0.001;

/** Dark-pixel share of the page, on a 500-px-wide greyscale thumbnail of the original image. */
async function darkShare(imagePath: string): Promise<number> {
  const { data } = await sharp(imagePath).greyscale().resize({ width: 500 }).raw().toBuffer({ resolveWithObject: true });
  let dark = 0;
  for (const value of data) if (value < 128) dark++;
  return data.length ? dark / data.length : 0;
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
