/**
 * A small pool of tesseract.js workers, created on first use and reused across pages: a worker is taken for a page
 * (recognizePage.ts reads it), given back when tesseract is done with its last job, and replaced when it failed.
 * Fully offline: the language models come from their packages (tesseractLanguages.ts), the wasm core from
 * tesseract.js-core (tesseract.js's Node build `require`s it directly, so no corePath is needed), and nothing is
 * cached to the working directory.
 */
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import type { Box } from '../../app/model/extraction.js';
import { encodePgm, loadOcrPage, resizeGrey } from './ocrImage.js';
import { cropBox, REGION_MAX_ENLARGE, REGION_MIN_TEXT_DPI, tesseractDpi } from './ocrPageImage.js';
import { recognizePage, type OcrSettings, type RecognizeOptions } from './recognizePage.js';
import { ocrLanguageFolder, TESSERACT_LANGUAGE } from './tesseractLanguages.js';
import { wordsOf, type OcrPage, type OcrWord } from './tesseractWords.js';

// What the pool's users import from it (bundledEngine.ts, index.ts, tests).
export { installedOcrLanguages, TESSERACT_DATA_FOLDER, TESSERACT_LANGUAGE } from './tesseractLanguages.js';
export { readableTextFactor, tesseractDpi } from './ocrPageImage.js';
export type { OcrPage, OcrWord } from './tesseractWords.js';
export type { OcrSettings, RecognizeOptions } from './recognizePage.js';

interface Slot {
  worker: Promise<Worker>;
  onProgress?: (fraction: number) => void;
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
      return await recognizePage(worker, imagePath, this.settings, options, {
        onProgress: (listener) => {
          slot.onProgress = listener;
        },
        jobStarted: (done) => {
          jobDone = done;
        },
      });
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
